import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { FileUrlSigner } from './file-urls.js';
import * as repo from './images.repository.js';
import { createOwnToggles } from './own-toggles.js';
import { canSee } from './visibility.js';
import type {
  GalleryFilter,
  GalleryPage,
  GalleryRow,
  ImageRow,
  Page,
} from './images.repository.js';
import { encodeCursor } from './gallery-cursor.js';
import {
  toGalleryImage,
  toImageDetail,
  toOwnImage,
  type ImageExtras,
} from './images.presenters.js';

export const IMAGE_MESSAGES = {
  notFound: 'Immagine non trovata',
} as const;

/** Who is looking: decides visibility of non-approved images and whose reactions are shown. */
export type Viewer = UserRow | null;
/** An image as every public list shows it. */
type GalleryImage = ReturnType<typeof toGalleryImage>;

/** D6: trending keeps 20 images over the last 7 days. */
const TRENDING_SIZE = 20;
const TRENDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Trending is the same for everyone and changes slowly: computed at most once a minute. */
const TRENDING_CACHE_MS = 60_000;
/** The back-office list is paged in the browser; beyond this the search box narrows it. */
export const ADMIN_LIST_LIMIT = 2000;

export type ImagesService = ReturnType<typeof createImagesService>;

/**
 * The cursor of the page after `rows`, fetched one longer than the page: null when nothing
 * follows, so the last page says so without an extra, empty request.
 */
function nextCursor(rows: readonly GalleryRow[], limit: number): string | null {
  const last = rows[limit - 1];
  if (rows.length <= limit || last === undefined || last.sort_at === null) return null;
  return encodeCursor({ at: last.sort_at, id: last.id_image });
}

export function createImagesService(db: Executor, clock: Clock, files: FileUrlSigner) {
  let trendingCache: { ids: number[]; at: number } | undefined;
  const toggles = createOwnToggles(db);

  /**
   * Tags, the viewer's own reactions and file URLs for a batch of rows: two queries in all.
   * A private image's URLs are signed for `holder` (file-urls.ts): the viewer, or the
   * administrator asking for a back-office list, which shows no reactions.
   */
  async function extrasFor(
    rows: ImageRow[],
    viewer: Viewer,
    holder: Viewer = viewer,
  ): Promise<Map<number, ImageExtras>> {
    const ids = rows.map((row) => row.id_image);
    const [tags, own] = await Promise.all([
      repo.tagsOfImages(db, ids),
      viewer === null ? [] : toggles.of(viewer, ids),
    ]);
    const now = clock.now().getTime();
    const extras = new Map<number, ImageExtras>(
      rows.map((row) => [
        row.id_image,
        { tags: [], interactions: [], urls: files.urls(row, now, holder) },
      ]),
    );
    for (const tag of tags) {
      extras.get(tag.id_image)?.tags.push({ id_tag: tag.id_tag, nome: tag.nome });
    }
    for (const toggle of own) {
      extras.get(toggle.id_image)?.interactions.push({
        id_tipo_interazione: toggle.id_tipo_interazione,
        id_utente: viewer?.id_utente ?? 0,
      });
    }
    return extras;
  }

  async function present<T>(
    rows: ImageRow[],
    viewer: Viewer,
    shape: (row: ImageRow, extras: ImageExtras) => T,
  ): Promise<T[]> {
    const extras = await extrasFor(rows, viewer);
    return rows.flatMap((row) => {
      const extra = extras.get(row.id_image);
      return extra === undefined ? [] : [shape(row, extra)];
    });
  }

  /** Approved images by id, in the order of `ids` (search and trending rank them). */
  async function inOrder(ids: readonly number[], viewer: Viewer) {
    const rows = await repo.findApprovedByIds(db, ids);
    const byId = new Map(rows.map((row) => [row.id_image, row]));
    const ordered = ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [row];
    });
    return present(ordered, viewer, toGalleryImage);
  }

  /** The image if this viewer may see it; otherwise the 404 that hides whether it exists. */
  function visibleOrThrow<T extends Pick<ImageRow, 'status' | 'id_utente'>>(
    image: T | undefined,
    viewer: Viewer,
  ): T {
    if (image === undefined || !canSee(image, viewer)) throw notFound(IMAGE_MESSAGES.notFound);
    return image;
  }

  async function findVisible(id: number, viewer: Viewer): Promise<ImageRow> {
    return visibleOrThrow(await repo.findImageById(db, id), viewer);
  }

  return {
    canSee,
    visibleOrThrow,
    findVisible,
    inOrder,
    findById: (id: number) => repo.findImageById(db, id),
    findByFilename: (filename: string) => repo.findImageByFilename(db, filename),

    async ownToggles(viewer: UserRow, imageId: number): Promise<number[]> {
      const rows = await toggles.of(viewer, [imageId]);
      return rows.map((row) => row.id_tipo_interazione);
    },

    async gallery(filter: GalleryFilter, page: GalleryPage, viewer: Viewer) {
      const [rows, total] = await Promise.all([
        repo.listApproved(db, filter, { ...page, limit: page.limit + 1 }),
        repo.countApproved(db, filter),
      ]);
      const shown = rows.slice(0, page.limit);
      return {
        images: await present(shown, viewer, toGalleryImage),
        total,
        next_cursor: nextCursor(rows, page.limit),
      };
    },

    /** A public profile's images: SPEC answers `hasMore` instead of a total. */
    async profileGallery(userId: number, page: GalleryPage, viewer: Viewer) {
      const rows = await repo.listApproved(
        db,
        { kind: 'user', id: userId },
        { ...page, limit: page.limit + 1 },
      );
      const images = await present(rows.slice(0, page.limit), viewer, toGalleryImage);
      return {
        images,
        hasMore: rows.length > page.limit,
        next_cursor: nextCursor(rows, page.limit),
      };
    },

    /** With the count of those pending: the tab says it over every page, not the ones shown. */
    async own(user: UserRow, page: Page) {
      const [rows, { total, pending }] = await Promise.all([
        repo.listOwn(db, user.id_utente, page),
        repo.countOwn(db, user.id_utente),
      ]);
      return { images: await present(rows, user, toOwnImage), total, pending };
    },

    async detail(id: number, viewer: Viewer) {
      const image = await findVisible(id, viewer);
      const [detail] = await present([image], viewer, toImageDetail);
      if (detail === undefined) throw notFound(IMAGE_MESSAGES.notFound);
      return detail;
    },

    async related(id: number, page: Page, viewer: Viewer) {
      const image = await findVisible(id, viewer);
      const [ids, approved] = await Promise.all([
        repo.relatedImageIds(db, image, page),
        repo.countApproved(db, { kind: 'all' }),
      ]);
      const total = Math.max(0, approved - (image.status === 'approved' ? 1 : 0));
      return { images: await inOrder(ids, viewer), total };
    },

    async trending(viewer: Viewer) {
      const now = clock.now().getTime();
      if (trendingCache === undefined || now - trendingCache.at > TRENDING_CACHE_MS) {
        const since = new Date(now - TRENDING_WINDOW_MS).toISOString();
        const recent = await repo.trendingImageIds(db, since, TRENDING_SIZE);
        const fill =
          recent.length < TRENDING_SIZE
            ? await repo.allTimeBestImageIds(db, TRENDING_SIZE - recent.length, recent)
            : [];
        trendingCache = { ids: [...recent, ...fill], at: now };
      }
      return { images: await inOrder(trendingCache.ids, viewer) };
    },

    /**
     * The viewer's own toggles (like, favourite, …) on these images, by image: what the public
     * cache writes into a kept list for a logged-in viewer (plugins/public-cache.ts).
     */
    // An arrow, so the routes can hand it on as it is.
    ownReactions: async (
      imageIds: readonly number[],
      viewer: UserRow,
    ): Promise<Map<number, GalleryImage['interactions']>> => {
      const own = new Map<number, GalleryImage['interactions']>();
      for (const toggle of await toggles.of(viewer, imageIds)) {
        const mine = own.get(toggle.id_image) ?? [];
        mine.push({ id_tipo_interazione: toggle.id_tipo_interazione, id_utente: viewer.id_utente });
        own.set(toggle.id_image, mine);
      }
      return own;
    },

    /** Every own image of every status, for the data export (D9). */
    async exportOwn(user: UserRow) {
      const rows = await repo.listOwn(db, user.id_utente, { skip: 0, limit: 1_000_000 });
      return present(rows, user, (row, extras) => ({
        ...toOwnImage(row, extras),
        description: row.description,
        extracted_text: row.extracted_text,
      }));
    },

    /**
     * Back-office list (D7): every status, with names of tags and the totals of SPEC §3; the
     * private images' URLs signed for `admin`. Newest first, at most ADMIN_LIST_LIMIT of them;
     * `truncated` says that more match (one row more is read to know), so the screen can say
     * that it lists only the newest instead of passing 2000 off as the whole catalogue.
     */
    async adminList(term: string, admin: UserRow | null = null) {
      const read = await repo.adminSearch(db, term, ADMIN_LIST_LIMIT + 1);
      const truncated = read.length > ADMIN_LIST_LIMIT;
      const rows = truncated ? read.slice(0, ADMIN_LIST_LIMIT) : read;
      const extras = await extrasFor(rows, null, admin);
      const images = rows.map((row) => ({
        id_image: row.id_image,
        filename: row.filename,
        titolo_img: row.titolo_img,
        id_categoria: row.id_categoria,
        categoria_nome: row.categoria_nome,
        username: row.username,
        id_utente: row.id_utente,
        status: row.status,
        tags: (extras.get(row.id_image)?.tags ?? []).map((tag) => tag.nome),
        revision: row.revision,
        created_at: row.created_at,
        thumbnail_url: extras.get(row.id_image)?.urls.thumbnail_url ?? '',
        stats: {
          likes: row.likes_count,
          downloads: row.downloads_count,
          favorites: row.favorites_count,
          total_interactions:
            row.likes_count +
            row.favorites_count +
            row.downloads_count +
            row.sad_count +
            row.dislikes_count +
            row.wow_count +
            row.views_count,
        },
      }));
      return { images, truncated };
    },

    /**
     * The moderation queue with what the detail dialog shows (issue 4), its files' URLs signed
     * for `admin`.
     */
    async pending(admin: UserRow | null = null) {
      const rows = await repo.listPending(db);
      const extras = await extrasFor(rows, null, admin);
      return rows.map((row) => {
        const extra = extras.get(row.id_image);
        return {
          id_image: row.id_image,
          filename: row.filename,
          title: row.titolo_img,
          description: row.description,
          status: row.status,
          user: { id_utente: row.id_utente, username: row.username },
          category: { id_categoria: row.id_categoria, name: row.categoria_nome },
          tags: (extra?.tags ?? []).map((tag) => tag.nome),
          file_info: {
            size_bytes: row.size_bytes,
            width: row.width,
            height: row.height,
            mime_type: row.mime_type,
          },
          image_url: extra?.urls.image_url ?? '',
          display_url: extra?.urls.display_url ?? '',
          thumbnail_url: extra?.urls.thumbnail_url ?? '',
          extracted_text: row.extracted_text,
          created_at: row.created_at,
        };
      });
    },

    /** Forget the cached trending list (after deletions and moderation). */
    invalidateTrending() {
      trendingCache = undefined;
    },
  };
}
