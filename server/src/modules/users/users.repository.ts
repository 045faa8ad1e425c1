import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { usableAccount } from '../../db/usable-account.js';
import { precompiled } from '../../db/precompiled.js';
import type { NewUser, UserRow, UserUpdate } from '../../db/tables.js';

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return (await findUserByIdQuery(db, id)).rows[0];
}

// Every authenticated request reads its user's row (a deactivation works at once): precompiled
// (db/precompiled.ts), issue 8, goals 1 and 5.
const findUserByIdQuery = precompiled((db, id: number) =>
  db.selectFrom('users').selectAll().where('id_utente', '=', id),
);

/** The rows of these users, in no particular order; ids without a user are simply absent. */
export async function findUsersByIds(db: Executor, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 1) return (await findUserByIdQuery(db, ids[0] ?? 0)).rows;
  return db.selectFrom('users').selectAll().where('id_utente', 'in', ids).execute();
}

export function findUserByUsernameKey(db: Executor, key: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_key', '=', key).executeTakeFirst();
}

export function findUserByEmailKey(db: Executor, key: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_key', '=', key).executeTakeFirst();
}

/** Whether another account already holds the username or the e-mail. */
export async function isUsernameOrEmailTaken(
  db: Executor,
  usernameKey: string,
  emailKey: string,
  exceptUserId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id_utente')
    .where((eb) => eb.or([eb('username_key', '=', usernameKey), eb('email_key', '=', emailKey)]));
  if (exceptUserId !== undefined) query = query.where('id_utente', '<>', exceptUserId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

/**
 * Writes `changes`; `endSessions` moves the token version on in the statement itself, so two
 * edits at once never end up on the same version. With `ifVersion`, only while the account's
 * token version is still that one (undefined when it moved on meanwhile); with `ifRevision`,
 * only while its revision is (an administrator's form filled before another change). Every
 * edit raises the revision.
 */
export function updateUser(
  db: Executor,
  id: number,
  changes: Omit<UserUpdate, 'token_version' | 'revision'>,
  options: { endSessions: boolean; ifVersion?: number; ifRevision?: number },
): Promise<UserRow | undefined> {
  let query = db
    .updateTable('users')
    .set((eb) => ({
      ...changes,
      revision: eb('revision', '+', 1),
      ...(options.endSessions ? { token_version: eb('token_version', '+', 1) } : {}),
    }))
    .where('id_utente', '=', id);
  if (options.ifVersion !== undefined) {
    query = query.where('token_version', '=', options.ifVersion);
  }
  if (options.ifRevision !== undefined) {
    query = query.where('revision', '=', options.ifRevision);
  }
  return query.returningAll().executeTakeFirst();
}

export async function hasActiveSuperuser(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id_utente')
    .where('is_superuser', '=', 1)
    .where(usableAccount('users'))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** SPEC §2 profile figures: approved images and the likes they received (stored counters). */
export async function profileStats(
  db: Executor,
  userId: number,
): Promise<{ total_images: number; total_likes: number }> {
  const row = await db
    .selectFrom('images')
    .select((eb) => [
      eb.fn.countAll<number>().as('total_images'),
      eb.fn.coalesce(eb.fn.sum<number>('likes_count'), eb.lit(0)).as('total_likes'),
    ])
    .where('id_utente', '=', userId)
    .where('status', '=', 'approved')
    .executeTakeFirstOrThrow();
  return { total_images: row.total_images, total_likes: row.total_likes };
}

export async function deleteUser(db: Executor, id: number): Promise<void> {
  // Interactions and follows go with the row (ON DELETE CASCADE); images are erased before.
  await db.deleteFrom('users').where('id_utente', '=', id).execute();
}

export async function imageIdsOfUser(db: Executor, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('images')
    .select('id_image')
    .where('id_utente', '=', id)
    .execute();
  return rows.map((row) => row.id_image);
}

/**
 * The active administrators (not awaiting erasure), inside a transaction that may take one's
 * powers away: on PostgreSQL their rows stay locked until it ends, so a concurrent change of the
 * same kind waits and then reads what this one left; SQLite's transactions already hold the
 * write lock from their start (BEGIN IMMEDIATE). FOR NO KEY UPDATE, in id order: it does not
 * hold up the rows that refer to these users (a view, a like, an upload), as FOR UPDATE would.
 */
export async function lockActiveAdmins(trx: Executor, dialect: Dialect): Promise<number[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id_utente')
    .where('is_superuser', '=', 1)
    .where(usableAccount('users'))
    .orderBy('id_utente')
    .$if(dialect === 'postgres', (query) => query.forNoKeyUpdate())
    .execute();
  return rows.map((row) => row.id_utente);
}

/**
 * Ends the account's access now (every session, whatever its token says) and marks it for
 * erasure (D9), which a job or the administrator's deletion then carries out. With
 * `ifVersion`, only while the account's token version is still that one: false when it moved
 * on meanwhile (or the account is gone).
 */
export async function markForErasure(
  db: Executor,
  userId: number,
  at: string,
  ifVersion?: number,
): Promise<boolean> {
  let query = db
    .updateTable('users')
    .set((eb) => ({
      is_active: 0,
      deletion_requested_at: at,
      updated_at: at,
      token_version: eb('token_version', '+', 1),
      // The account turned inactive: a form still showing it active is stale.
      revision: eb('revision', '+', 1),
    }))
    .where('id_utente', '=', userId);
  if (ifVersion !== undefined) query = query.where('token_version', '=', ifVersion);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
