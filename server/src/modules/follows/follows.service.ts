import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import type { UsersService } from '../users/users.service.js';
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
      await repo.follow(db, follower.id_utente, userId, clock.now().toISOString());
      return state(follower.id_utente, userId);
    },

    async unfollow(follower: UserRow, userId: number) {
      if (follower.id_utente === userId) throw badRequest(FOLLOW_MESSAGES.self);
      await users.getPublic(userId);
      await repo.unfollow(db, follower.id_utente, userId);
      return state(follower.id_utente, userId);
    },
  };
}
