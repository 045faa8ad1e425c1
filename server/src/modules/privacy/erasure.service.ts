import type { InteractionsService } from '../interactions/interactions.service.js';
import type { ModerationService } from '../moderation/moderation.service.js';
import type { SearchService } from '../search/search.service.js';
import type { UsersService } from '../users/users.service.js';

export type ErasureService = ReturnType<typeof createErasureService>;

/**
 * Erases a user and everything of theirs (D4, D9): each image with its files (through
 * moderation, which keeps category/tag counts and search in step), then the account with its
 * interactions and follows, then the counters of the other images they had reacted to.
 */
export function createErasureService(deps: {
  users: UsersService;
  moderation: ModerationService;
  interactions: InteractionsService;
  search: SearchService;
}) {
  return {
    async eraseUser(userId: number): Promise<void> {
      for (const imageId of await deps.users.imageIdsOf(userId)) {
        await deps.moderation.deleteImage(imageId);
      }
      const touched = await deps.interactions.imagesTouchedBy(userId);
      await deps.users.deleteAccount(userId);
      await deps.interactions.recountCounters(touched);
      await deps.search.removeStaleDocuments();
    },
  };
}
