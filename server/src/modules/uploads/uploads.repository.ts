import type { Insertable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { ImagesTable, UserRow } from '../../db/tables.js';

export async function insertImage(db: Executor, image: Insertable<ImagesTable>): Promise<number> {
  const row = await db
    .insertInto('images')
    .values(image)
    .returning('id_image')
    .executeTakeFirstOrThrow();
  return row.id_image;
}

/** Served by images_by_user_all. */
export async function countPending(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id_utente', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The uploader's row as it is now, held until the upload's transaction ends: an account
 * closed or a pending image counted meanwhile by another upload of the same user waits for
 * it (PostgreSQL; SQLite's transactions hold the write lock from their start). FOR NO KEY
 * UPDATE, like the administrators' lock, so the rows that refer to the user are not held up.
 */
export function lockUploader(
  trx: Executor,
  dialect: Dialect,
  userId: number,
): Promise<Pick<UserRow, 'is_active' | 'deletion_requested_at'> | undefined> {
  return trx
    .selectFrom('users')
    .select(['is_active', 'deletion_requested_at'])
    .where('id_utente', '=', userId)
    .$if(dialect === 'postgres', (query) => query.forNoKeyUpdate())
    .executeTakeFirst();
}
