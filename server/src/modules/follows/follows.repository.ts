import type { Executor } from '../../db/executor.js';
import { usableAccount } from '../../db/usable-account.js';

export async function follow(
  db: Executor,
  followerId: number,
  followedId: number,
  createdAt: string,
): Promise<void> {
  await db
    .insertInto('follows')
    .values({ follower_id: followerId, followed_id: followedId, created_at: createdAt })
    .onConflict((oc) => oc.columns(['follower_id', 'followed_id']).doNothing())
    .execute();
}

export async function unfollow(db: Executor, followerId: number, followedId: number) {
  await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('followed_id', '=', followedId)
    .execute();
}

export async function isFollowing(db: Executor, followerId: number, followedId: number) {
  const row = await db
    .selectFrom('follows')
    .select('follower_id')
    .where('follower_id', '=', followerId)
    .where('followed_id', '=', followedId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Served by follows_by_followed. Followers whose account is deactivated or waiting for its
 * erasure are not counted, as their profiles are not shown (users.service.ts, isUsable).
 */
export async function countFollowers(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id_utente', 'f.follower_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('f.followed_id', '=', userId)
    .where(usableAccount('u'))
    .executeTakeFirstOrThrow();
  return row.n;
}
