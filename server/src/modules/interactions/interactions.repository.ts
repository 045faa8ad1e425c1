import { sql } from 'kysely';
import type { Executor } from '../../db/executor.js';

export type CounterColumn =
  | 'likes_count'
  | 'favorites_count'
  | 'downloads_count'
  | 'sad_count'
  | 'dislikes_count'
  | 'wow_count'
  | 'views_count';

/**
 * Inserts a toggle row unless the user already has one of this type on the image. The
 * conflict target names the partial unique index interactions_toggle_unique, predicate
 * included, so both engines can infer it.
 */
export async function insertToggle(
  db: Executor,
  row: { id_image: number; id_utente: number; id_tipo_interazione: number; created_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('interactions')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['id_image', 'id_utente', 'id_tipo_interazione'])
        .where(sql<boolean>`id_tipo_interazione IN (1, 2, 4, 5, 6)`)
        .doNothing(),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteToggle(
  db: Executor,
  row: { id_image: number; id_utente: number; id_tipo_interazione: number },
): Promise<boolean> {
  const result = await db
    .deleteFrom('interactions')
    .where('id_image', '=', row.id_image)
    .where('id_utente', '=', row.id_utente)
    .where('id_tipo_interazione', '=', row.id_tipo_interazione)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertInteraction(
  db: Executor,
  row: {
    id_image: number;
    id_utente: number | null;
    id_tipo_interazione: number;
    viewer_key?: string | null;
    created_at: string;
  },
): Promise<void> {
  await db.insertInto('interactions').values(row).execute();
}

/** Moves one of the image's counters by delta, atomically and never below zero (D5). */
export async function adjustCounter(
  db: Executor,
  imageId: number,
  column: CounterColumn,
  delta: 1 | -1,
): Promise<void> {
  await db
    .updateTable('images')
    .set({
      [column]: sql`case when ${sql.ref(column)} + ${delta} < 0 then 0 else ${sql.ref(column)} + ${delta} end`,
    })
    .where('id_image', '=', imageId)
    .execute();
}

/** Whether the viewer already viewed the image since `since` (interactions_views_by_viewer). */
export async function hasViewedSince(
  db: Executor,
  imageId: number,
  viewerKey: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('interactions')
    .select('id_interazione')
    .where('id_image', '=', imageId)
    .where('viewer_key', '=', viewerKey)
    .where('id_tipo_interazione', '=', 7)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const COUNTER_TYPES: Array<[column: CounterColumn, type: number]> = [
  ['likes_count', 1],
  ['favorites_count', 2],
  ['downloads_count', 3],
  ['sad_count', 4],
  ['dislikes_count', 5],
  ['wow_count', 6],
  ['views_count', 7],
];

/**
 * Recomputes images' reaction counters from their interaction rows: after bulk inserts (demo
 * content) or when rows vanish by cascade (an erased user's reactions). Only the given images,
 * or all when `ids` is undefined.
 */
export async function recountCounters(db: Executor, ids?: readonly number[]): Promise<void> {
  if (ids !== undefined && ids.length === 0) return;
  for (const [column, type] of COUNTER_TYPES) {
    const scope = ids === undefined ? sql`` : sql`WHERE images.id_image IN (${sql.join(ids)})`;
    await sql`
      UPDATE images SET ${sql.ref(column)} = (
        SELECT count(*) FROM interactions
        WHERE interactions.id_image = images.id_image
          AND interactions.id_tipo_interazione = ${type}
      ) ${scope}`.execute(db);
  }
}

/** The images a user reacted to or viewed: their counters change when the user is erased. */
export async function imagesTouchedBy(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('interactions')
    .select('id_image')
    .distinct()
    .where('id_utente', '=', userId)
    .execute();
  return rows.map((row) => row.id_image);
}
