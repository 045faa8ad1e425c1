import type { Executor } from '../../db/executor.js';

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

/** Served by follows_by_followed. */
export async function countFollowers(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('followed_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.n;
}
