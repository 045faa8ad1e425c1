import { enqueueMail } from '../../jobs/mail/mail.job.js';
import type { Clock } from '../../lib/clock.js';
import { MODERATION_MESSAGES, type DecisionHook } from '../moderation/moderation.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { approvalMail, rejectionMail } from './mail.messages.js';
import { findDecisionRecipient } from './mail.repository.js';
import { isUsable } from '../users/users.service.js';

export interface ModerationMailDeps {
  clock: Clock;
  /** The site's address (PUBLIC_URL), for the link to the approved image. */
  siteUrl: string;
  settings: Pick<SettingsService, 'get'>;
  /**
   * The job worker of this process, woken at once. Before the commit a worker on PostgreSQL may
   * not see the job yet; its next poll (every second) does.
   */
  jobs?: { wake(): void };
}

/**
 * The moderation service's `onDecision` (D4, D8): inside the decision's transaction it reads
 * the setting, the uploader and the title, and queues the e-mail, so the message exists exactly
 * when the decision was committed, and a rolled-back decision sends nothing.
 */
export function createModerationMailHook(deps: ModerationMailDeps): DecisionHook {
  return async (trx, image, decision, reason) => {
    const settings = await deps.settings.get(trx);
    if (!settings.moderation_emails) return;
    const recipient = await findDecisionRecipient(trx, image.id_image);
    // A deactivated account (or one awaiting erasure, D9) gets no more mail from us. Both
    // flags: an administrator may tick 'Utente Attivo' again on an account awaiting its
    // erasure, which stays unusable (isUsable) and must stay unwritten to.
    if (recipient === undefined || !isUsable(recipient)) return;
    const input = {
      to: recipient.email,
      username: recipient.username,
      title: recipient.titolo_img,
      id_image: recipient.id_image,
      siteUrl: deps.siteUrl,
    };
    const mail =
      decision === 'approved'
        ? approvalMail(input)
        : rejectionMail({ ...input, reason: reason ?? MODERATION_MESSAGES.defaultReason });
    await enqueueMail(trx, deps.clock, mail, { recipientId: recipient.id_utente });
    deps.jobs?.wake();
  };
}
