import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { precompiled } from '../../db/precompiled.js';
import type { Database, Flag, ImageStatus } from '../../db/tables.js';
import { accentlessContains } from '../../db/accentless-match.js';
import type { GalleryPosition } from './gallery-cursor.js';

/** One image with what every list shows of it: uploader name and category. */
export interface ImageRow {
  id_image: number;
  filename: string;
  original_filename: string | null;
  titolo_img: string | null;
  description: string | null;
  id_utente: number;
  username: string;
  /** The uploader's account state: whether their profile may be shown (users.service isUsable). */
  uploader_is_active: Flag;
  uploader_deletion_requested_at: string | null;
  id_categoria: number;
  categoria_nome: string;
  status: ImageStatus;
  rejection_reason: string | null;
  mime_type: string;
  size_bytes: number;
  width: number;
  height: number;
  placeholder: string | null;
  extracted_text: string | null;
  likes_count: number;
  favorites_count: number;
  downloads_count: number;
  sad_count: number;
  dislikes_count: number;
  wow_count: number;
  views_count: number;
  created_at: string;
  published_at: string | null;
}

/** Which approved images a public gallery shows. */
export type GalleryFilter =
  | { kind: 'all' }
  | { kind: 'category'; id: number }
  | { kind: 'tag'; id: number }
  | { kind: 'user'; id: number }
  | { kind: 'liked'; userId: number };

export interface Page {
  skip: number;
  limit: number;
}

/** A gallery page: by offset, or (keyset) after the position where the previous page ended. */
export interface GalleryPage extends Page {
  after?: GalleryPosition | undefined;
}

/** A gallery row with the time it is ordered by (publication, or the like), for cursors. */
export type GalleryRow = ImageRow & { sort_at: string | null };

type ImageQuery = SelectQueryBuilder<
  Database & { i: Database['images']; u: Database['users']; c: Database['categories'] },
  'i' | 'u' | 'c',
  ImageRow
>;

function selectImages(db: Executor): ImageQuery {
  return db
    .selectFrom('images as i')
    .innerJoin('users as u', 'u.id_utente', 'i.id_utente')
    .innerJoin('categories as c', 'c.id_categoria', 'i.id_categoria')
    .select([
      'i.id_image',
      'i.filename',
      'i.original_filename',
      'i.titolo_img',
      'i.description',
      'i.id_utente',
      'u.username',
      'u.is_active as uploader_is_active',
      'u.deletion_requested_at as uploader_deletion_requested_at',
      'i.id_categoria',
      'c.nome as categoria_nome',
      'i.status',
      'i.rejection_reason',
      'i.mime_type',
      'i.size_bytes',
      'i.width',
      'i.height',
      'i.placeholder',
      'i.extracted_text',
      'i.likes_count',
      'i.favorites_count',
      'i.downloads_count',
      'i.sad_count',
      'i.dislikes_count',
      'i.wow_count',
      'i.views_count',
      'i.created_at',
      'i.published_at',
    ]);
}

/**
 * A page of approved images, newest first. Each filter walks one of the partial indexes of
 * the first migration (images_public_*, image_tags_by_tag, interactions_by_user), which hold
 * the rows in exactly this order, ties on time broken by id. With `page.after` the walk starts
 * just past that position (a row-value comparison, which both engines turn into an index
 * seek) instead of counting off `skip` rows.
 */
export function listApproved(
  db: Executor,
  filter: GalleryFilter,
  page: GalleryPage,
): Promise<GalleryRow[]> {
  const after = page.after;
  let query = selectImages(db).where('i.status', '=', 'approved');
  switch (filter.kind) {
    case 'all':
      break;
    case 'category':
      query = query.where('i.id_categoria', '=', filter.id);
      break;
    case 'user':
      query = query.where('i.id_utente', '=', filter.id);
      break;
    case 'tag':
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('image_tags as it')
            .select('it.id_image')
            .whereRef('it.id_image', '=', 'i.id_image')
            .where('it.id_tag', '=', filter.id),
        ),
      );
      break;
    case 'liked': {
      // Newest like first: what the user liked last is what they look for first.
      let liked = query
        .innerJoin('interactions as l', 'l.id_image', 'i.id_image')
        .select('l.created_at as sort_at')
        .where('l.id_utente', '=', filter.userId)
        .where('l.id_tipo_interazione', '=', 1);
      if (after !== undefined) {
        liked = liked.where((eb) =>
          eb(eb.refTuple('l.created_at', 'i.id_image'), '<', eb.tuple(after.at, after.id)),
        );
      }
      return liked
        .orderBy('l.created_at', 'desc')
        .orderBy('i.id_image', 'desc')
        .offset(page.skip)
        .limit(page.limit)
        .execute();
    }
  }
  let ordered = query.select('i.published_at as sort_at');
  if (after !== undefined) {
    ordered = ordered.where((eb) =>
      eb(eb.refTuple('i.published_at', 'i.id_image'), '<', eb.tuple(after.at, after.id)),
    );
  }
  return ordered
    .orderBy('i.published_at', 'desc')
    .orderBy('i.id_image', 'desc')
    .offset(page.skip)
    .limit(page.limit)
    .execute();
}

/**
 * How many approved images a gallery holds. The whole gallery, a category and a tag read the
 * approved counts that moderation keeps current on categories and tags (issue 8: counting
 * 100k index entries cost half of a gallery request); every approved image has exactly one
 * category, so the categories' counts add up to the whole gallery. A user's and a liked list
 * are small and counted on their own indexes.
 */
export async function countApproved(db: Executor, filter: GalleryFilter): Promise<number> {
  switch (filter.kind) {
    case 'all': {
      const row = await db
        .selectFrom('categories')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('image_count'), eb.lit(0)).as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    }
    case 'category': {
      const row = await db
        .selectFrom('categories')
        .select('image_count')
        .where('id_categoria', '=', filter.id)
        .executeTakeFirst();
      return row?.image_count ?? 0;
    }
    case 'tag': {
      const row = await db
        .selectFrom('tags')
        .select('image_count')
        .where('id_tag', '=', filter.id)
        .executeTakeFirst();
      return row?.image_count ?? 0;
    }
    case 'user': {
      const row = await db
        .selectFrom('images')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'approved')
        .where('id_utente', '=', filter.id)
        .executeTakeFirstOrThrow();
      return row.n;
    }
    case 'liked': {
      const row = await db
        .selectFrom('images as i')
        .innerJoin('interactions as l', 'l.id_image', 'i.id_image')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('i.status', '=', 'approved')
        .where('l.id_utente', '=', filter.userId)
        .where('l.id_tipo_interazione', '=', 1)
        .executeTakeFirstOrThrow();
      return row.n;
    }
  }
}

/** The uploader's own images of every status, newest upload first ('Carica' tab). */
export function listOwn(db: Executor, userId: number, page: Page): Promise<ImageRow[]> {
  return selectImages(db)
    .where('i.id_utente', '=', userId)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id_image', 'desc')
    .offset(page.skip)
    .limit(page.limit)
    .execute();
}

/** All the user's uploads, and those of them still waiting for review. */
export async function countOwn(
  db: Executor,
  userId: number,
): Promise<{ total: number; pending: number }> {
  return db
    .selectFrom('images')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
    ])
    .where('id_utente', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function findImageById(db: Executor, id: number): Promise<ImageRow | undefined> {
  return (await findImageByIdQuery(db, id)).rows[0];
}

// An image's page, its download and every check of a moderation action start here; built
// once (db/precompiled.ts, issue 8).
const findImageByIdQuery = precompiled((db, id: number) =>
  selectImages(db).where('i.id_image', '=', id),
);

export function findImageByFilename(db: Executor, filename: string): Promise<ImageRow | undefined> {
  return selectImages(db).where('i.filename', '=', filename).executeTakeFirst();
}

/** Approved images among the ids, in no particular order (callers restore their own order). */
export function findApprovedByIds(db: Executor, ids: readonly number[]): Promise<ImageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectImages(db)
    .where('i.status', '=', 'approved')
    .where('i.id_image', 'in', [...ids])
    .execute();
}

export function tagsOfImages(
  db: Executor,
  ids: readonly number[],
): Promise<Array<{ id_image: number; id_tag: number; nome: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  // One image (its page) is the common case, and a list's length changes the query's shape.
  if (ids.length === 1) return tagsOfImageQuery(db, ids[0] ?? 0).then((result) => result.rows);
  return db
    .selectFrom('image_tags as it')
    .innerJoin('tags as t', 't.id_tag', 'it.id_tag')
    .select(['it.id_image', 't.id_tag', 't.nome'])
    .where('it.id_image', 'in', [...ids])
    .orderBy('t.nome')
    .execute();
}

const tagsOfImageQuery = precompiled((db, id: number) =>
  db
    .selectFrom('image_tags as it')
    .innerJoin('tags as t', 't.id_tag', 'it.id_tag')
    .select(['it.id_image', 't.id_tag', 't.nome'])
    .where('it.id_image', '=', id)
    .orderBy('t.nome'),
);

/** Every toggle of a user, at most `limit` (in no particular order); interactions_by_user serves it. */
export function allTogglesOfUser(
  db: Executor,
  userId: number,
  limit: number,
): Promise<Array<{ id_image: number; id_tipo_interazione: number }>> {
  return db
    .selectFrom('interactions')
    .select(['id_image', 'id_tipo_interazione'])
    .where('id_utente', '=', userId)
    .where('id_tipo_interazione', 'in', [1, 2, 4, 5, 6])
    .limit(limit)
    .execute();
}

/** The viewer's own toggles (never views or downloads) on the given images (D5). */
export function togglesOfUser(
  db: Executor,
  userId: number,
  ids: readonly number[],
): Promise<Array<{ id_image: number; id_tipo_interazione: number }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('interactions')
    .select(['id_image', 'id_tipo_interazione'])
    .where('id_utente', '=', userId)
    .where('id_image', 'in', [...ids])
    .where('id_tipo_interazione', 'in', [1, 2, 4, 5, 6])
    .execute();
}

/**
 * Approved images ranked by relation to one image: two points per shared tag, one for the
 * same category (except 'Non categorizzata', which says nothing), then every other approved
 * image, newest first, so the related list never runs dry.
 */
export function relatedImageIds(
  db: Executor,
  image: { id_image: number; id_categoria: number },
  page: Page,
): Promise<number[]> {
  const sameCategory = image.id_categoria === 1 ? -1 : image.id_categoria;
  return db
    .selectFrom('images as i')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('image_tags as other')
          .innerJoin('image_tags as mine', 'mine.id_tag', 'other.id_tag')
          .select(['other.id_image', (e) => e.fn.countAll<number>().as('shared')])
          .where('mine.id_image', '=', image.id_image)
          .groupBy('other.id_image')
          .as('s'),
      (join) => join.onRef('s.id_image', '=', 'i.id_image'),
    )
    .select('i.id_image')
    .where('i.status', '=', 'approved')
    .where('i.id_image', '<>', image.id_image)
    .orderBy(
      sql`coalesce(s.shared, 0) * 2 + case when i.id_categoria = ${sameCategory} then 1 else 0 end`,
      'desc',
    )
    .orderBy('i.published_at', 'desc')
    .orderBy('i.id_image', 'desc')
    .offset(page.skip)
    .limit(page.limit)
    .execute()
    .then((rows) => rows.map((row) => row.id_image));
}

/**
 * D6: the approved images with the highest score over interactions since `since`:
 * likes + 0.1 × views + 2 × downloads.
 */
export async function trendingImageIds(
  db: Executor,
  since: string,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('interactions as x')
    .innerJoin('images as i', 'i.id_image', 'x.id_image')
    .select('x.id_image')
    .where('x.created_at', '>=', since)
    .where('x.id_tipo_interazione', 'in', [1, 3, 7])
    .where('i.status', '=', 'approved')
    .groupBy('x.id_image')
    .orderBy(
      sql`sum(case x.id_tipo_interazione when 1 then 1.0 when 3 then 2.0 else 0.1 end)`,
      'desc',
    )
    .orderBy('x.id_image', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id_image);
}

/** The all-time best by the same score on the stored counters, to fill trending up. */
export async function allTimeBestImageIds(
  db: Executor,
  limit: number,
  excluded: readonly number[],
): Promise<number[]> {
  let query = db
    .selectFrom('images')
    .select('id_image')
    .where('status', '=', 'approved')
    .orderBy(sql`likes_count + 0.1 * views_count + 2 * downloads_count`, 'desc')
    .orderBy('published_at', 'desc')
    .limit(limit);
  if (excluded.length > 0) query = query.where('id_image', 'not in', [...excluded]);
  return (await query.execute()).map((row) => row.id_image);
}

/**
 * The back-office list: images of every status, newest upload first, optionally those whose
 * title, file name, uploader, category or a tag contains `term` (LIKE metacharacters escaped).
 */
export function adminSearch(
  db: Executor,
  term: string,
  limit: number,
): Promise<Array<ImageRow & { revision: number }>> {
  // The revision goes back with the edit form (a stale one is refused), so only this list reads it.
  let query = selectImages(db).select('i.revision');
  const like = accentlessContains(term);
  if (like !== undefined) {
    query = query.where((eb) =>
      eb.or([
        like('i.titolo_img'),
        like('i.filename'),
        like('u.username'),
        like('c.nome'),
        eb.exists(
          eb
            .selectFrom('image_tags as it')
            .innerJoin('tags as t', 't.id_tag', 'it.id_tag')
            .select('it.id_image')
            .whereRef('it.id_image', '=', 'i.id_image')
            .where(like('t.nome')),
        ),
      ]),
    );
  }
  return query.orderBy('i.created_at', 'desc').orderBy('i.id_image', 'desc').limit(limit).execute();
}

/** Pending images, oldest first: the moderation queue. */
export function listPending(db: Executor): Promise<ImageRow[]> {
  return selectImages(db)
    .where('i.status', '=', 'pending')
    .orderBy('i.created_at')
    .orderBy('i.id_image')
    .execute();
}
