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
