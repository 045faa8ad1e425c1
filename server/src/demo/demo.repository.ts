import type { Insertable } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { ImagesTable, InteractionsTable } from '../db/tables.js';

/** Bulk writes of the demo generator: rows in batches, counters recomputed once at the end. */

/** Whether the gallery holds nothing yet: no image and no category besides the seeded one. */
export async function isGalleryEmpty(db: Executor): Promise<boolean> {
  const image = await db.selectFrom('images').select('id_image').limit(1).executeTakeFirst();
  const category = await db
    .selectFrom('categories')
    .select('id_categoria')
    .where('id_categoria', '<>', 1)
    .limit(1)
    .executeTakeFirst();
  return image === undefined && category === undefined;
}

export async function insertImageRow(
  db: Executor,
  image: Insertable<ImagesTable>,
): Promise<number> {
  const row = await db
    .insertInto('images')
    .values(image)
    .returning('id_image')
    .executeTakeFirstOrThrow();
  return row.id_image;
}

export async function insertImageTags(
  db: Executor,
  links: Array<{ id_image: number; id_tag: number }>,
): Promise<void> {
  for (let start = 0; start < links.length; start += 500) {
    await db
      .insertInto('image_tags')
      .values(links.slice(start, start + 500))
      .execute();
  }
}

export async function insertInteractions(
  db: Executor,
  rows: Array<Insertable<InteractionsTable>>,
): Promise<void> {
  // 500 rows × 6 columns stays under SQLite's and PostgreSQL's bind-parameter limits.
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('interactions')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

export async function insertFollows(
  db: Executor,
  rows: Array<{ follower_id: number; followed_id: number; created_at: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('follows')
    .values(rows)
    .onConflict((oc) => oc.columns(['follower_id', 'followed_id']).doNothing())
    .execute();
}

/** A demo user's sign-up, age confirmation included, moved to `at`. */
export async function setUserJoinedAt(db: Executor, id: number, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ created_at: at, updated_at: at, age_confirmed_at: at })
    .where('id_utente', '=', id)
    .execute();
}
