import type { Executor } from '../../db/executor.js';
import { usableAccount } from '../../db/usable-account.js';

export function interactionsOf(db: Executor, userId: number) {
  return db
    .selectFrom('interactions')
    .select(['id_image', 'id_tipo_interazione', 'created_at'])
    .where('id_utente', '=', userId)
    .orderBy('created_at')
    .execute();
}

/**
 * The accounts the user follows. One deactivated or waiting for its erasure is left out: its
 * profile and name are shown nowhere else (users.service.ts, isUsable), and its follows go
 * with the erasure.
 */
export function followedBy(db: Executor, userId: number) {
  return db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id_utente', 'f.followed_id')
    .select(['u.id_utente', 'u.username', 'f.created_at'])
    .where('f.follower_id', '=', userId)
    .where(usableAccount('u'))
    .orderBy('f.created_at')
    .execute();
}
