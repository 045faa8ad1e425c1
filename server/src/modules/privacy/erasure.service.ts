import { HttpError } from '../../lib/errors.js';
import type { InteractionsService } from '../interactions/interactions.service.js';
import type { ModerationService } from '../moderation/moderation.service.js';
import type { SearchService } from '../search/search.service.js';
import type { UsersService } from '../users/users.service.js';

export type ErasureService = ReturnType<typeof createErasureService>;

/**
 * Erases a user and everything of theirs (D4, D9): the e-mails written to them (queued, sent
 * and kept, failed), each image with its files (through
 * moderation, which keeps category/tag counts and search in step), then the account with its
 * interactions and follows together with the counters of the other images they had reacted to
 * (interactions.forgetUser).
 */
export function createErasureService(deps: {
  users: UsersService;
  moderation: ModerationService;
  interactions: InteractionsService;
  search: SearchService;
  /**
   * Deletes the e-mail jobs written to the account and their copies in the outbox
   * (jobs/mail/mail.job.ts forgetMailOf, modules/mail/mailer.ts forgetOutboxMailTo).
   */
  forgetMail: (recipient: { id_utente: number; email: string }) => Promise<unknown>;
}) {
  return {
    async eraseUser(userId: number): Promise<void> {
      // First, while the row still tells the address: the account is deactivated already, so
      // no new message is queued for it (moderation-mail.ts), and a retry after a failure
      // further on still finds the account and does this again.
      const user = await deps.users.getById(userId);
      if (user !== undefined) await deps.forgetMail(user);
      for (const imageId of await deps.users.imageIdsOf(userId)) {
        try {
          await deps.moderation.deleteImage(imageId);
        } catch (error) {
          // Deleted meanwhile (an administrator, the same image twice): already done.
          if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
        }
      }
      await deps.interactions.forgetUser(userId, (trx) => deps.users.deleteAccount(userId, trx));
      await deps.search.removeStaleDocuments();
    },
  };
}
