import { PostgresAdapter, sql } from 'kysely';
import { chunks } from '../../db/chunks.js';
import type { Executor } from '../../db/executor.js';
import { holdImageRows } from '../../db/locks.js';
import { precompiled } from '../../db/precompiled.js';
import type { ImageStatus } from '../../db/tables.js';

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
  const result = await insertToggleQuery(
    db,
    row.id_image,
    row.id_utente,
    row.id_tipo_interazione,
    row.created_at,
  );
  return Number(result.numAffectedRows ?? 0) > 0;
}

// The statements of a like, a view and a reaction's checks are precompiled (db/precompiled.ts):
// they run on every such request (issue 8, goal 5).
const insertToggleQuery = precompiled(
  (db, id_image: number, id_utente: number, id_tipo_interazione: number, created_at: string) =>
    db
      .insertInto('interactions')
      .values({ id_image, id_utente, id_tipo_interazione, created_at })
      .onConflict((oc) =>
        oc
          .columns(['id_image', 'id_utente', 'id_tipo_interazione'])
          .where(sql<boolean>`id_tipo_interazione IN (1, 2, 4, 5, 6)`)
          .doNothing(),
      ),
);

export async function deleteToggle(
  db: Executor,
  row: { id_image: number; id_utente: number; id_tipo_interazione: number },
): Promise<boolean> {
  const result = await deleteToggleQuery(db, row.id_image, row.id_utente, row.id_tipo_interazione);
  return Number(result.numAffectedRows ?? 0) > 0;
}

const deleteToggleQuery = precompiled((db, imageId: number, userId: number, type: number) =>
  db
    .deleteFrom('interactions')
    .where('id_image', '=', imageId)
    .where('id_utente', '=', userId)
    .where('id_tipo_interazione', '=', type),
);

/**
 * A user's interactions with the image of each, in image order: an erasure reads them once and
 * deletes them batch by batch by primary key (deleting by user and images would read every
 * remaining row of the user's again in each batch).
 */
export function interactionsOf(
  db: Executor,
  userId: number,
): Promise<Array<{ id_interazione: number; id_image: number }>> {
  return db
    .selectFrom('interactions')
    .select(['id_interazione', 'id_image'])
    .where('id_utente', '=', userId)
    .orderBy('id_image')
    .execute();
}

/** Deletes interactions by id. */
export async function deleteInteractions(db: Executor, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids)) {
    await db.deleteFrom('interactions').where('id_interazione', 'in', part).execute();
  }
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

/**
 * Marks a change to the user's toggles (modules/images/own-toggles.ts); in the transaction
 * that makes the change, so no server can read the new toggles under the old number.
 */
export async function bumpReactionsVersion(db: Executor, userId: number): Promise<void> {
  await bumpReactionsVersionQuery(db, userId);
}

const bumpReactionsVersionQuery = precompiled((db, userId: number) =>
  db
    .updateTable('users')
    .set({ reactions_version: sql`reactions_version + 1` })
    .where('id_utente', '=', userId),
);

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

/**
 * Whether a reaction may be given: the image's status and owner, without the joins and columns
 * of a full image row (a like toggled 100 times a second read them all for nothing; issue 8,
 * goal 5).
 */
export async function reactionTarget(
  db: Executor,
  imageId: number,
): Promise<{ status: ImageStatus; id_utente: number } | undefined> {
  return (await reactionTargetQuery(db, imageId)).rows[0];
}

const reactionTargetQuery = precompiled((db, imageId: number) =>
  db.selectFrom('images').select(['status', 'id_utente']).where('id_image', '=', imageId),
);

/**
 * What a view needs, in one query: whether the image may be shown (status, owner) and whether
 * this viewer, under either of its keys (today's and the day before's), already viewed it since
 * `since` (interactions_by_image).
 */
export async function viewTarget(
  db: Executor,
  imageId: number,
  viewerKeys: readonly [string, string],
  since: string,
): Promise<{ status: ImageStatus; id_utente: number; seen: boolean } | undefined> {
  const row = (await viewTargetQuery(db, imageId, viewerKeys[0], viewerKeys[1], since)).rows[0];
  // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
  return row === undefined ? undefined : { ...row, seen: Boolean(row.seen) };
}

// Two keys always (the same one twice for a user): a precompiled query's shape is fixed.
const viewTargetQuery = precompiled(
  (db, imageId: number, viewerKey: string, earlierKey: string, since: string) =>
    db
      .selectFrom('images as i')
      .select(['i.status', 'i.id_utente'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('interactions as x')
              .select('x.id_interazione')
              .where('x.id_image', '=', imageId)
              .where('x.viewer_key', 'in', [viewerKey, earlierKey])
              .where('x.id_tipo_interazione', '=', 7)
              .where('x.created_at', '>', since),
          )
          .as('seen'),
      )
      .where('i.id_image', '=', imageId),
);

/**
 * The waiting views whose image and (when logged in) user still exist: an image deleted or a
 * user erased while the views waited would fail the whole batch on its foreign key. On
 * PostgreSQL the rows found are also kept until the batch commits (users FOR KEY SHARE, as
 * the views' foreign keys would take them, then the images FOR NO KEY UPDATE in id order, as
 * their counters' update would): a deletion committing between this look and the INSERT made
 * the whole batch fail on its foreign key, to be tried again 2 s later with an error logged
 * (found by view-thread.test.ts). Now the deletion waits for the batch, or the batch for the
 * deletion and then does not see the row. Users before images, as an erasure takes them
 * (db/locks.ts holdUserRow), so the two never wait for each other in a circle.
 */
export async function viewsStillValid<T extends { id_image: number; id_utente: number | null }>(
  db: Executor,
  views: readonly T[],
): Promise<T[]> {
  const locking = db.getExecutor().adapter instanceof PostgresAdapter;
  const users = await existing(
    views.flatMap((view) => (view.id_utente === null ? [] : [view.id_utente])),
    (part) =>
      db
        .selectFrom('users')
        .select('id_utente as id')
        .where('id_utente', 'in', part)
        .$if(locking, (query) => query.forKeyShare())
        .execute(),
  );
  const images = await existing(
    views.map((view) => view.id_image),
    (part) =>
      db
        .selectFrom('images')
        .select('id_image as id')
        .where('id_image', 'in', part)
        .$if(locking, (query) => query.orderBy('id_image').forNoKeyUpdate())
        .execute(),
  );
  return views.filter(
    (view) => images.has(view.id_image) && (view.id_utente === null || users.has(view.id_utente)),
  );
}

/** Which of `ids` still exist, asked in chunks, in id order (locks taken in one order). */
async function existing(
  ids: readonly number[],
  query: (part: number[]) => Promise<Array<{ id: number }>>,
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks([...new Set(ids)].sort((a, b) => a - b))) {
    for (const row of await query(part)) found.add(row.id);
  }
  return found;
}

/** Inserts view rows, many per statement. */
export async function insertViews(
  db: Executor,
  views: ReadonlyArray<{
    id_image: number;
    id_utente: number | null;
    viewer_key: string;
    created_at: string;
  }>,
): Promise<void> {
  for (const part of chunks(views)) {
    await db
      .insertInto('interactions')
      .values(part.map((view) => ({ ...view, id_tipo_interazione: 7 })))
      .execute();
  }
}

/** Adds each image's new views to its counter, one UPDATE per chunk of images. */
export async function addViewCounts(
  db: Executor,
  counts: ReadonlyMap<number, number>,
): Promise<void> {
  const byId = [...counts].sort(([a], [b]) => a - b);
  await holdImageRows(
    db,
    byId.map(([id]) => id),
  );
  for (const part of chunks(byId)) {
    const added = sql.join(
      part.map(([id, n]) => sql`WHEN ${id} THEN ${n}`),
      sql` `,
    );
    await db
      .updateTable('images')
      .set({ views_count: sql`views_count + CASE id_image ${added} ELSE 0 END` })
      .where(
        'id_image',
        'in',
        part.map(([id]) => id),
      )
      .execute();
  }
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
  // A user who viewed tens of thousands of images would pass SQLite's bound parameters.
  // Every counter in one UPDATE: a row version per image on PostgreSQL rather than seven
  // (docs/PERFORMANCE.md, "A user's erasure"). Each count reads interactions_by_image.
  const counters = sql.join(
    COUNTER_TYPES.map(
      ([column, type]) => sql`${sql.ref(column)} = (
        SELECT count(*) FROM interactions
        WHERE interactions.id_image = images.id_image
          AND interactions.id_tipo_interazione = ${sql.lit(type)}
      )`,
    ),
  );
  for (const part of ids === undefined ? [undefined] : chunks(ids)) {
    const scope = part === undefined ? sql`` : sql`WHERE images.id_image IN (${sql.join(part)})`;
    await sql`UPDATE images SET ${counters} ${scope}`.execute(db);
  }
}

/** The images a user reacted to or viewed: their counters change when the user is erased. */
export async function imagesTouchedBy(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('interactions')
    .select('id_image')
    .distinct()
    .where('id_utente', '=', userId)
    .orderBy('id_image')
    .execute();
  return rows.map((row) => row.id_image);
}
