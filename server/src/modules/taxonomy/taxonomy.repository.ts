import { sql } from 'kysely';
import { accentlessContains } from '../../db/accentless-match.js';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';

/*
 * Categories and tags are the same kind of thing in the database: a name unique once folded
 * (`nome_key`), a denormalised count of approved images and a creation time. One repository
 * serves both; their different rules live in their services.
 */
export type Taxonomy = 'categories' | 'tags';

const ID_COLUMN = { categories: 'id_categoria', tags: 'id_tag' } as const;

export interface TaxonomyRow {
  id: number;
  nome: string;
  image_count: number;
  created_at: string;
  /** Raised by every rename: the back-office's rename dialog sends it back. */
  revision: number;
}

// Kysely types each table separately; both have the columns used here, so queries are
// written against `categories` and aliased to the real table.
function table(db: Executor, taxonomy: Taxonomy) {
  return db
    .selectFrom(`${taxonomy} as t` as 'categories as t')
    .select([
      sql.ref<number>(`t.${ID_COLUMN[taxonomy]}`).as('id'),
      't.nome',
      't.image_count',
      't.created_at',
      't.revision',
    ]);
}

/** What an INSERT or UPDATE answers: the columns of TaxonomyRow. */
const returned = (taxonomy: Taxonomy) =>
  [
    sql.ref<number>(ID_COLUMN[taxonomy]).as('id'),
    'nome',
    'image_count',
    'created_at',
    'revision',
  ] as const;

/** Every entry, in no order: the service sorts lists by the names shown (inShownOrder). */
export function listAll(db: Executor, taxonomy: Taxonomy): Promise<TaxonomyRow[]> {
  return table(db, taxonomy).execute();
}

/** Only those with approved images, what a public list shows; in no order, as listAll. */
export function listUsed(db: Executor, taxonomy: Taxonomy): Promise<TaxonomyRow[]> {
  return table(db, taxonomy).where('t.image_count', '>', 0).execute();
}

/** The top N by approved image count (served by categories_by_count / tags_by_count). */
export function listPopular(
  db: Executor,
  taxonomy: Taxonomy,
  limit: number,
): Promise<TaxonomyRow[]> {
  return table(db, taxonomy)
    .where('t.image_count', '>', 0)
    .orderBy('t.image_count', 'desc')
    .orderBy(sql.ref(`t.${ID_COLUMN[taxonomy]}`))
    .limit(limit)
    .execute();
}

const byId = (db: Executor, taxonomy: Taxonomy, id: number) =>
  table(db, taxonomy).where(sql.ref(`t.${ID_COLUMN[taxonomy]}`), '=', id);

export function findById(
  db: Executor,
  taxonomy: Taxonomy,
  id: number,
): Promise<TaxonomyRow | undefined> {
  return byId(db, taxonomy, id).executeTakeFirst();
}

/**
 * The row inside a transaction that changes it, kept from other writers until it ends: on
 * PostgreSQL locked, so an approval's count moving meanwhile waits and is not lost; SQLite's
 * transactions hold the write lock from their start (BEGIN IMMEDIATE).
 */
export function lockById(
  trx: Executor,
  dialect: Dialect,
  taxonomy: Taxonomy,
  id: number,
): Promise<TaxonomyRow | undefined> {
  return byId(trx, taxonomy, id)
    .$if(dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
}

export function findByKeys(
  db: Executor,
  taxonomy: Taxonomy,
  keys: readonly string[],
): Promise<Array<TaxonomyRow & { nome_key: string }>> {
  if (keys.length === 0) return Promise.resolve([]);
  return table(db, taxonomy)
    .select('t.nome_key')
    .where('t.nome_key', 'in', [...keys])
    .execute();
}

export async function insert(
  db: Executor,
  taxonomy: Taxonomy,
  values: { nome: string; nome_key: string; created_at: string },
): Promise<TaxonomyRow> {
  const row = await db
    .insertInto(taxonomy as 'categories')
    .values(values)
    .returning(returned(taxonomy))
    .executeTakeFirstOrThrow();
  return row;
}

/**
 * Creates a tag unless one with its key exists, without failing either way: a failed INSERT
 * would abort the caller's whole transaction on PostgreSQL. Answers the new tag's id, or
 * undefined when the key was taken (perhaps just now, by a concurrent request; PostgreSQL
 * waits for that request's transaction before deciding).
 */
export async function insertTagIfMissing(
  db: Executor,
  values: { nome: string; nome_key: string; created_at: string },
): Promise<number | undefined> {
  const row = await db
    .insertInto('tags')
    .values(values)
    .onConflict((oc) => oc.column('nome_key').doNothing())
    .returning('id_tag')
    .executeTakeFirst();
  return row?.id_tag;
}

/**
 * Locks the rows whose counts a transaction is about to move, in id order (PostgreSQL; SQLite's
 * write transactions run one at a time).
 */
export async function lockCounts(
  trx: Executor,
  dialect: Dialect,
  taxonomy: Taxonomy,
  sortedIds: readonly number[],
): Promise<void> {
  if (dialect !== 'postgres' || sortedIds.length === 0) return;
  await table(trx, taxonomy)
    .where(sql.ref(`t.${ID_COLUMN[taxonomy]}`), 'in', [...sortedIds])
    .orderBy(sql.ref(`t.${ID_COLUMN[taxonomy]}`))
    .forNoKeyUpdate()
    .execute();
}

/** Moves the approved-image count by delta, never below zero. */
export async function adjustCount(
  db: Executor,
  taxonomy: Taxonomy,
  ids: readonly number[],
  delta: number,
): Promise<void> {
  if (ids.length === 0 || delta === 0) return;
  await db
    .updateTable(taxonomy as 'categories')
    // CASE rather than max()/greatest(), whose spelling differs between the engines.
    .set({
      image_count: sql`case when image_count + ${delta} < 0 then 0 else image_count + ${delta} end`,
    })
    .where(sql.ref(ID_COLUMN[taxonomy]), 'in', [...ids])
    .execute();
}

/** Recounts every approved-image count from the images: after bulk writes (demo content). */
export async function recountAll(db: Executor): Promise<void> {
  await sql`
    UPDATE categories SET image_count = (
      SELECT count(*) FROM images
      WHERE images.id_categoria = categories.id_categoria AND images.status = 'approved'
    )`.execute(db);
  await sql`
    UPDATE tags SET image_count = (
      SELECT count(*) FROM image_tags
      JOIN images ON images.id_image = image_tags.id_image
      WHERE image_tags.id_tag = tags.id_tag AND images.status = 'approved'
    )`.execute(db);
}

/** Replaces the tags of an image (ids already resolved). */
export async function setImageTags(
  db: Executor,
  imageId: number,
  tagIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('image_tags').where('id_image', '=', imageId).execute();
  if (tagIds.length === 0) return;
  await db
    .insertInto('image_tags')
    .values([...new Set(tagIds)].map((id_tag) => ({ id_image: imageId, id_tag })))
    .execute();
}

export async function tagIdsOfImage(db: Executor, imageId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('image_tags')
    .select('id_tag')
    .where('id_image', '=', imageId)
    .execute();
  return rows.map((row) => row.id_tag);
}

/**
 * Renames, raising the revision; with `ifRevision`, only while the revision is that one (a
 * dialog opened before another rename): undefined when it is not, or when the row is gone.
 */
export async function rename(
  db: Executor,
  taxonomy: Taxonomy,
  id: number,
  values: { nome: string; nome_key: string },
  ifRevision?: number,
): Promise<TaxonomyRow | undefined> {
  return db
    .updateTable(taxonomy as 'categories')
    .set((eb) => ({ ...values, revision: eb('revision', '+', 1) }))
    .where(sql.ref(ID_COLUMN[taxonomy]), '=', id)
    .$if(ifRevision !== undefined, (query) => query.where('revision', '=', ifRevision ?? 0))
    .returning(returned(taxonomy))
    .executeTakeFirst();
}

export async function remove(db: Executor, taxonomy: Taxonomy, id: number): Promise<void> {
  await db
    .deleteFrom(taxonomy as 'categories')
    .where(sql.ref(ID_COLUMN[taxonomy]), '=', id)
    .execute();
}

/**
 * Admin lists: every entry, optionally those whose name holds `term`, case, accents and
 * apostrophes aside, as the back-office's image search (accentlessContains). Not the unique
 * keys' full case fold any more: 'strasse' no longer finds 'Straße', which it did while this
 * searched the keys, a trade for the accents, which Italian names have and ß seldom. In no
 * order, as listAll.
 */
export function search(db: Executor, taxonomy: Taxonomy, term: string): Promise<TaxonomyRow[]> {
  const like = accentlessContains(term);
  const all = table(db, taxonomy);
  return (like === undefined ? all : all.where(like('t.nome'))).execute();
}

export async function imageIdsInCategory(db: Executor, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('images')
    .select('id_image')
    .where('id_categoria', '=', id)
    .execute();
  return rows.map((row) => row.id_image);
}

export async function imageIdsWithTag(db: Executor, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('image_tags')
    .select('id_image')
    .where('id_tag', '=', id)
    .execute();
  return rows.map((row) => row.id_image);
}

/** A tag's images whose edit form showed its old name (a rename) or showed it at all (a deletion). */
export async function bumpRevisions(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('images')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id_image', 'in', ids)
    .execute();
}

/** D6: the images of a deleted category move to category 1; the ids of the images moved. */
export async function moveImagesToCategory(
  db: Executor,
  from: number,
  to: number,
): Promise<number[]> {
  const rows = await db
    .updateTable('images')
    // A move is an edit: a form filled with the old category is stale.
    .set((eb) => ({ id_categoria: to, revision: eb('revision', '+', 1) }))
    .where('id_categoria', '=', from)
    .returning('id_image')
    .execute();
  return rows.map((row) => row.id_image);
}

export async function setImageCategory(db: Executor, imageId: number, categoryId: number) {
  await db
    .updateTable('images')
    .set({ id_categoria: categoryId })
    .where('id_image', '=', imageId)
    .execute();
}
