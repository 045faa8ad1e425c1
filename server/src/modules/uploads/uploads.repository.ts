import type { Executor } from '../../db/executor.js';
import type { Insertable } from 'kysely';
import type { ImagesTable } from '../../db/tables.js';

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
