import { sql } from 'kysely';
import { chunks } from '../../db/chunks.js';
import type { Executor } from '../../db/executor.js';
import type { ImageStatus } from '../../db/tables.js';
import type { AnalysedImage, PairKind } from './duplicates.signature.js';

/* The SQL of the duplicate finder: its three index tables, and the image rows it shows. */

/** Statuses whose images take part in duplicate groups: rejected images never do. */
export const GROUPED_STATUSES: readonly ImageStatus[] = ['approved', 'pending'];

export function findAnalysis(db: Executor, id: number): Promise<AnalysedImage | undefined> {
  return db
    .selectFrom('images')
    .select(['id_image', 'text_folded', 'ocr_confidence', 'phash'])
    .where('id_image', '=', id)
    .executeTakeFirst();
}

export async function findAnalyses(db: Executor, ids: readonly number[]): Promise<AnalysedImage[]> {
  const out: AnalysedImage[] = [];
  for (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db
        .selectFrom('images')
        .select(['id_image', 'text_folded', 'ocr_confidence', 'phash'])
        .where('id_image', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** Analysed images after `afterId`, by id: the bulk re-index reads them page by page. */
export function analysedPage(
  db: Executor,
  afterId: number,
  limit: number,
): Promise<AnalysedImage[]> {
  return db
    .selectFrom('images')
    .select(['id_image', 'text_folded', 'ocr_confidence', 'phash'])
    .where('id_image', '>', afterId)
    .where((eb) => eb.or([eb('text_folded', 'is not', null), eb('phash', 'is not', null)]))
    .orderBy('id_image')
    .limit(limit)
    .execute();
}

/** Forgets an image's keys and pairs, before they are computed again. */
export async function removeImage(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('duplicate_text_keys').where('id_image', '=', id).execute();
  await db.deleteFrom('duplicate_hash_keys').where('id_image', '=', id).execute();
  await db
    .deleteFrom('duplicate_pairs')
    .where((eb) => eb.or([eb('id_a', '=', id), eb('id_b', '=', id)]))
    .execute();
}

export async function clearIndex(db: Executor): Promise<void> {
  await db.deleteFrom('duplicate_pairs').execute();
  await db.deleteFrom('duplicate_hash_keys').execute();
  await db.deleteFrom('duplicate_text_keys').execute();
}

export async function insertTextKeys(
  db: Executor,
  rows: ReadonlyArray<{ bucket: number; id_image: number }>,
): Promise<void> {
  for (const part of chunks(rows)) {
    await db.insertInto('duplicate_text_keys').values(part).execute();
  }
}

export async function insertHashKeys(
  db: Executor,
  rows: ReadonlyArray<{ band_key: number; id_image: number; has_text: 0 | 1 }>,
): Promise<void> {
  for (const part of chunks(rows)) {
    await db.insertInto('duplicate_hash_keys').values(part).execute();
  }
}

export interface PairRow {
  id_a: number;
  id_b: number;
  kind: PairKind;
  similarity: number;
}

/** Stores verified pairs; a pair already stored (found from both sides at once) is kept. */
export async function insertPairs(db: Executor, rows: readonly PairRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('duplicate_pairs')
      .values(part)
      .onConflict((oc) => oc.columns(['id_a', 'id_b']).doNothing())
      .execute();
  }
}

/** Images whose candidates one statement looks for: a few thousand (image, bucket) rows. */
const SOURCES_PER_STATEMENT = 100;

/**
 * For each source image, the images sharing text buckets with its `keys`, most shared first
 * (true duplicates share many bands, chance neighbours one), at most `limit`; optionally
 * approved images only. One statement per hundred sources: the pending list asks for the
 * whole queue at once (bench:pending).
 */
export async function textCandidatesOfMany(
  db: Executor,
  sources: ReadonlyArray<{ id: number; keys: readonly number[] }>,
  options: { limit: number; approvedOnly?: boolean },
): Promise<Map<number, number[]>> {
  const candidates = new Map<number, number[]>();
  const approved =
    options.approvedOnly === true
      ? sql`JOIN images i ON i.id_image = k.id_image AND i.status = 'approved'`
      : sql``;
  for (const part of chunks(
    sources.filter((source) => source.keys.length > 0),
    SOURCES_PER_STATEMENT,
  )) {
    // CAST: PostgreSQL types bare parameters in VALUES as text.
    const wanted = part.flatMap((source) =>
      [...new Set(source.keys)].map(
        (key) => sql`(CAST(${source.id} AS INTEGER), CAST(${key} AS INTEGER))`,
      ),
    );
    const { rows } = await sql<{ id_source: number; id_image: number }>`
      WITH wanted (id_source, bucket) AS (VALUES ${sql.join(wanted)})
      SELECT id_source, id_image FROM (
        SELECT w.id_source, k.id_image,
          ROW_NUMBER() OVER (
            PARTITION BY w.id_source ORDER BY COUNT(*) DESC, k.id_image DESC
          ) AS place
        FROM wanted w
        -- CROSS JOIN: SQLite keeps this order (each bucket searched in the primary key);
        -- left to choose, it read the whole key table once a statement held ten images.
        CROSS JOIN duplicate_text_keys k
        ${approved}
        WHERE k.bucket = w.bucket AND k.id_image <> w.id_source
        GROUP BY w.id_source, k.id_image
      ) ranked
      WHERE place <= ${options.limit}
      ORDER BY id_source, place
    `.execute(db);
    for (const row of rows) {
      const list = candidates.get(row.id_source);
      if (list === undefined) candidates.set(row.id_source, [row.id_image]);
      else list.push(row.id_image);
    }
  }
  return candidates;
}

/** textCandidatesOfMany for one image, `exclude`. */
export async function textCandidates(
  db: Executor,
  keys: readonly number[],
  options: { exclude: number; limit: number; approvedOnly?: boolean },
): Promise<number[]> {
  const candidates = await textCandidatesOfMany(db, [{ id: options.exclude, keys }], options);
  return candidates.get(options.exclude) ?? [];
}

/** Images stored under any of the probe keys; only those without usable text when asked. */
export async function hashCandidates(
  db: Executor,
  probeKeys: readonly number[],
  options: { exclude: number; limit: number; withoutTextOnly: boolean },
): Promise<number[]> {
  if (probeKeys.length === 0) return [];
  let query = db
    .selectFrom('duplicate_hash_keys')
    .select('id_image')
    .distinct()
    .where('band_key', 'in', [...probeKeys])
    .where('id_image', '<>', options.exclude);
  if (options.withoutTextOnly) query = query.where('has_text', '=', 0);
  const rows = await query.limit(options.limit).execute();
  return rows.map((row) => row.id_image);
}

/** Every stored pair; the listing keeps those whose two images it shows. */
export function allPairs(
  db: Executor,
): Promise<Array<{ id_a: number; id_b: number; kind: PairKind }>> {
  return db.selectFrom('duplicate_pairs').select(['id_a', 'id_b', 'kind']).execute();
}

export interface GroupImageRow {
  id_image: number;
  titolo_img: string | null;
  filename: string;
  status: ImageStatus;
  username: string;
  created_at: string;
  published_at: string | null;
  likes_count: number;
  downloads_count: number;
  size_bytes: number;
  width: number;
  height: number;
  extracted_text: string | null;
  text_folded: string | null;
}

/**
 * The approved and pending images that have at least one stored pair, with what a group card
 * shows: one query whatever the number of groups (the pairs table is small, the images are
 * found by primary key).
 */
export function pairedImages(db: Executor): Promise<GroupImageRow[]> {
  return db
    .selectFrom('images as i')
    .innerJoin('users as u', 'u.id_utente', 'i.id_utente')
    .select([
      'i.id_image',
      'i.titolo_img',
      'i.filename',
      'i.status',
      'u.username',
      'i.created_at',
      'i.published_at',
      'i.likes_count',
      'i.downloads_count',
      'i.size_bytes',
      'i.width',
      'i.height',
      'i.extracted_text',
      'i.text_folded',
    ])
    .where('i.id_image', 'in', (eb) =>
      eb
        .selectFrom('duplicate_pairs')
        .select('id_a as id')
        .union(eb.selectFrom('duplicate_pairs').select('id_b as id')),
    )
    .where('i.status', 'in', [...GROUPED_STATUSES])
    .execute();
}

/** The id sets administrators marked 'Non sono duplicati' (D7), as stored: '3,7,12'. */
export async function dismissedSets(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('duplicate_dismissals').select('image_ids').execute();
  return rows.map((row) => row.image_ids);
}

export async function insertDismissal(
  db: Executor,
  row: { image_ids: string; dismissed_by: number; created_at: string },
): Promise<void> {
  await db
    .insertInto('duplicate_dismissals')
    .values(row)
    .onConflict((oc) => oc.column('image_ids').doNothing())
    .execute();
}

export async function existingIds(db: Executor, ids: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('images')
      .select('id_image')
      .where('id_image', 'in', part)
      .execute();
    out.push(...rows.map((row) => row.id_image));
  }
  return out;
}

export interface NeighbourRow {
  /** The image the hints are for. */
  id_image: number;
  /** The approved image paired with it. */
  id_other: number;
  kind: PairKind;
  similarity: number;
}

/** Stored pairs between the given images and approved images. */
export async function approvedNeighbours(
  db: Executor,
  ids: readonly number[],
): Promise<NeighbourRow[]> {
  const out: NeighbourRow[] = [];
  for (const part of chunks([...new Set(ids)])) {
    const asFirst = await db
      .selectFrom('duplicate_pairs as p')
      .innerJoin('images as o', 'o.id_image', 'p.id_b')
      .select(['p.id_a as id_image', 'p.id_b as id_other', 'p.kind', 'p.similarity'])
      .where('p.id_a', 'in', part)
      .where('o.status', '=', 'approved')
      .execute();
    const asSecond = await db
      .selectFrom('duplicate_pairs as p')
      .innerJoin('images as o', 'o.id_image', 'p.id_a')
      .select(['p.id_b as id_image', 'p.id_a as id_other', 'p.kind', 'p.similarity'])
      .where('p.id_b', 'in', part)
      .where('o.status', '=', 'approved')
      .execute();
    out.push(...asFirst, ...asSecond);
  }
  return out;
}

export interface ImageSummaryRow {
  id_image: number;
  titolo_img: string | null;
  filename: string;
  status: ImageStatus;
  id_categoria: number;
  categoria_nome: string;
  extracted_text: string | null;
  text_folded: string | null;
  phash: string | null;
}

/** What the hints need of each image, its own and its neighbours'. */
export async function imageSummaries(
  db: Executor,
  ids: readonly number[],
): Promise<ImageSummaryRow[]> {
  const out: ImageSummaryRow[] = [];
  for (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db
        .selectFrom('images as i')
        .innerJoin('categories as c', 'c.id_categoria', 'i.id_categoria')
        .select([
          'i.id_image',
          'i.titolo_img',
          'i.filename',
          'i.status',
          'i.id_categoria',
          'c.nome as categoria_nome',
          'i.extracted_text',
          'i.text_folded',
          'i.phash',
        ])
        .where('i.id_image', 'in', part)
        .execute()),
    );
  }
  return out;
}

export async function tagsOfImages(
  db: Executor,
  ids: readonly number[],
): Promise<Array<{ id_image: number; id_tag: number; nome: string }>> {
  const out: Array<{ id_image: number; id_tag: number; nome: string }> = [];
  for (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db
        .selectFrom('image_tags as it')
        .innerJoin('tags as t', 't.id_tag', 'it.id_tag')
        .select(['it.id_image', 't.id_tag', 't.nome'])
        .where('it.id_image', 'in', part)
        .execute()),
    );
  }
  return out;
}
