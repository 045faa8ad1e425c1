import { whenRowGone } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { USER_MESSAGES } from '../users/users.rules.js';
import { isUsable, refuseIfAccountGone, type UsersService } from '../users/users.service.js';
import * as repo from './follows.repository.js';

export const FOLLOW_MESSAGES = { self: 'Non puoi seguire te stesso.' } as const;

export type FollowsService = ReturnType<typeof createFollowsService>;

export function createFollowsService(db: Executor, clock: Clock, users: UsersService) {
  async function state(followerId: number | null, userId: number) {
    const [following, followers] = await Promise.all([
      followerId === null ? false : repo.isFollowing(db, followerId, userId),
      repo.countFollowers(db, userId),
    ]);
    return { is_following: following, followers_count: followers };
  }

  return {
    state,
    countFollowers: (userId: number) => repo.countFollowers(db, userId),

    /** Idempotent: following twice is still following once (D13 answer shape). */
    async follow(follower: UserRow, userId: number) {
      if (follower.id_utente === userId) throw badRequest(FOLLOW_MESSAGES.self);
      await users.getPublic(userId);
      // An account deleted since the look above (the followed one, or the follower's own since
      // the request was authenticated): as if the look had come a moment later.
      await whenRowGone(
        () => repo.follow(db, follower.id_utente, userId, clock.now().toISOString()),
        async () => {
          await refuseIfAccountGone(db, follower.id_utente);
          await users.getPublic(userId);
        },
      );
      return state(follower.id_utente, userId);
    },

    /**
     * From an account deactivated or waiting for its erasure since, the follow is removed too
     * (it must not come back with a reactivation), but the answer is the 404 of an unknown
     * account: a hidden account shows nothing, not even that it exists.
     */
    async unfollow(follower: UserRow, userId: number) {
      if (follower.id_utente === userId) throw badRequest(FOLLOW_MESSAGES.self);
      const followed = await users.getById(userId);
      if (followed === undefined) throw notFound(USER_MESSAGES.notFound);
      await repo.unfollow(db, follower.id_utente, userId);
      if (!isUsable(followed)) throw notFound(USER_MESSAGES.notFound);
      return state(follower.id_utente, userId);
    },
  };
}
