import type { Kysely } from 'kysely';
import { chunks } from '../../db/chunks.js';
import { whenRowGone } from '../../db/errors.js';
import { holdImageRows, holdUserRow } from '../../db/locks.js';
import type { Executor } from '../../db/executor.js';
import type { Database, ImageStatus, UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound, unauthorized } from '../../lib/errors.js';
import { IMAGE_MESSAGES, type ImagesService, type Viewer } from '../images/images.service.js';
import { refuseIfAccountGone } from '../users/users.service.js';
import * as repo from './interactions.repository.js';
import type { CounterColumn } from './interactions.repository.js';
import type { ViewRecorder } from './view-recorder.js';
import type { createViewerKeys } from './viewer-key.js';

/** SPEC §3 interaction types. */
export const INTERACTION = {
  like: 1,
  favorite: 2,
  download: 3,
  sad: 4,
  dislike: 5,
  wow: 6,
  view: 7,
} as const;

export const TOGGLE_TYPES: readonly number[] = [1, 2, 4, 5, 6];

const COUNTER_OF: Record<number, CounterColumn> = {
  1: 'likes_count',
  2: 'favorites_count',
  3: 'downloads_count',
  4: 'sad_count',
  5: 'dislikes_count',
  6: 'wow_count',
  7: 'views_count',
};

/** D5: a view counts once per viewer and image every 24 hours. */
const VIEW_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How often a toggle goes again on what concurrent toggles of the same reaction left. */
const TOGGLE_ROUNDS = 50;
/** Images whose counters one transaction of an erasure recounts. */
const ERASURE_BATCH = 1000;

export const INTERACTION_MESSAGES = {
  loginToReact: 'Devi effettuare l’accesso per reagire alle immagini.',
  downloadSeparately: 'Per scaricare un’immagine usa il pulsante Scarica.',
  notPublished: 'Un’immagine non ancora pubblicata non raccoglie reazioni né visualizzazioni.',
} as const;

export type InteractionsService = ReturnType<typeof createInteractionsService>;

export function createInteractionsService(
  db: Kysely<Database>,
  clock: Clock,
  images: ImagesService,
  viewerKeys: ReturnType<typeof createViewerKeys>,
  views: ViewRecorder,
) {
  /**
   * A reaction's write, on an image and by an account found before its transaction began: an
   * erasure of the account committed since is the 401 of a session that no longer holds, a
   * deletion of the image 'Immagine non trovata' (404), as either would have been a moment
   * later.
   */
  function onExistingImage<T>(imageId: number, userId: number, write: () => Promise<T>) {
    return whenRowGone(write, async () => {
      await refuseIfAccountGone(db, userId);
      if ((await repo.reactionTarget(db, imageId)) === undefined) {
        throw notFound(IMAGE_MESSAGES.notFound);
      }
    });
  }

  /** Like, favourite, sad, dislike, wow: on if off, off if on; the counter follows in the same transaction. */
  async function toggle(imageId: number, user: UserRow, type: number) {
    const key = { id_image: imageId, id_utente: user.id_utente, id_tipo_interazione: type };
    const column = COUNTER_OF[type] ?? 'likes_count';
    return onExistingImage(imageId, user.id_utente, () =>
      db.transaction().execute(async (trx) => {
        // Each statement sees what the others committed (PostgreSQL's READ COMMITTED): when
        // the same user's other toggle removed the row between this insert and this delete,
        // neither changed anything, and this toggle goes again on what that one left, as if
        // it had come after it (it answered 'removed' with nothing removed).
        for (let round = 1; ; round++) {
          if (await repo.insertToggle(trx, { ...key, created_at: clock.now().toISOString() })) {
            await repo.adjustCounter(trx, imageId, column, 1);
            await repo.bumpReactionsVersion(trx, user.id_utente);
            return 'added' as const;
          }
          if (await repo.deleteToggle(trx, key)) {
            await repo.adjustCounter(trx, imageId, column, -1);
            await repo.bumpReactionsVersion(trx, user.id_utente);
            return 'removed' as const;
          }
          // Each round follows a change another request committed: bounded all the same.
          if (round === TOGGLE_ROUNDS) throw new Error('a toggle kept meeting concurrent toggles');
        }
      }),
    );
  }

  /**
   * D5's rule is applied by the recorder (view-recorder.ts), in the views' thread
   * (view-thread.ts): the request only works out who the viewer is and when.
   */
  async function view(imageId: number, viewer: Viewer, ip: string) {
    const now = clock.now();
    const [viewerKey, earlierKey] =
      viewer === null
        ? viewerKeys.forAddressBothDays(ip, now)
        : [viewerKeys.forUser(viewer.id_utente), viewerKeys.forUser(viewer.id_utente)];
    const outcome = await views.record({
      imageId,
      viewerKey,
      earlierKey,
      viewer:
        viewer === null ? null : { id_utente: viewer.id_utente, is_superuser: viewer.is_superuser },
      since: new Date(now.getTime() - VIEW_WINDOW_MS).toISOString(),
      at: now.toISOString(),
    });
    if (outcome === 'hidden') throw notFound(IMAGE_MESSAGES.notFound);
    if (outcome === 'unpublished') throw badRequest(INTERACTION_MESSAGES.notPublished);
    return outcome;
  }

  return {
    recountCounters: (ids?: readonly number[]) => repo.recountCounters(db, ids),

    /**
     * Erasure: the user's interactions go a thousand images a transaction, each batch's rows
     * with those images' recounted counters, so that a user who viewed tens of thousands of
     * images never holds SQLite's write lock (or those images' rows) for seconds
     * (docs/PERFORMANCE.md, "A user's erasure"). Each transaction first locks its images' rows
     * (holdImageRows: no deadlock with an image's deletion or a batch of views, no concurrent
     * reaction lost by the recount). Then `deleteAccount` removes the user and, by
     * cascade, whatever they did meanwhile, recounted in the same transaction. A failure leaves
     * the rest for the retry, which starts from what is left. The user's views still waiting
     * in memory are written first, to be counted out with the rest.
     */
    async forgetUser(userId: number, deleteAccount: (trx: Executor) => Promise<void>) {
      await views.flush();
      const rowsOf = new Map<number, number[]>();
      for (const row of await repo.interactionsOf(db, userId)) {
        const rows = rowsOf.get(row.id_image);
        if (rows === undefined) rowsOf.set(row.id_image, [row.id_interazione]);
        else rows.push(row.id_interazione);
      }
      for (const part of chunks([...rowsOf.keys()], ERASURE_BATCH)) {
        await db.transaction().execute(async (trx) => {
          await holdImageRows(trx, part);
          await repo.deleteInteractions(
            trx,
            part.flatMap((id) => rowsOf.get(id) ?? []),
          );
          await repo.recountCounters(trx, part);
        });
      }
      // The account goes with whatever it did since the list was read, once the writes of its
      // own under way have committed (holdUserRow).
      await db.transaction().execute(async (trx) => {
        await holdUserRow(trx, userId);
        const touched = await repo.imagesTouchedBy(trx, userId);
        await holdImageRows(trx, touched);
        await deleteAccount(trx);
        await repo.recountCounters(trx, touched);
      });
    },
    /** Writes the views waiting to be written; resolves once they are in the database. */
    flushViews: () => views.flush(),
    /** Called before the database closes: the views waiting are written, not lost. */
    close: () => views.close(),

    /** POST /images/{id}/interactions (D5). */
    async interact(imageId: number, type: number, viewer: Viewer, ip: string) {
      // A view checks the image itself, in the query that looks for an earlier view.
      if (type === INTERACTION.view) return { action: await view(imageId, viewer, ip) };
      const image = images.visibleOrThrow(await repo.reactionTarget(db, imageId), viewer);
      if (type === INTERACTION.download) throw badRequest(INTERACTION_MESSAGES.downloadSeparately);
      if (viewer === null) throw unauthorized(INTERACTION_MESSAGES.loginToReact);
      // D4: only approved images have counts. Its uploader or an administrator may see it
      // before, but what they did then would appear in its counts once published.
      if (image.status !== 'approved') throw badRequest(INTERACTION_MESSAGES.notPublished);
      return { action: await toggle(imageId, viewer, type) };
    },

    /**
     * Every download of a published image counts (D5); its uploader or an administrator
     * saving it before it is public counts nothing (D4), like their views and reactions.
     */
    async recordDownload(image: { id_image: number; status: ImageStatus }, user: UserRow) {
      if (image.status !== 'approved') return;
      const imageId = image.id_image;
      await onExistingImage(imageId, user.id_utente, () =>
        db.transaction().execute(async (trx) => {
          await repo.insertInteraction(trx, {
            id_image: imageId,
            id_utente: user.id_utente,
            id_tipo_interazione: INTERACTION.download,
            created_at: clock.now().toISOString(),
          });
          await repo.adjustCounter(trx, imageId, 'downloads_count', 1);
        }),
      );
    },

    /** GET /images/{id}/interactions: the counts and the viewer's own flags (D5). */
    async summary(imageId: number, viewer: Viewer) {
      const image = await images.findVisible(imageId, viewer);
      const own = new Set(viewer === null ? [] : await images.ownToggles(viewer, imageId));
      return {
        interactions_count: {
          likes: image.likes_count,
          favorites: image.favorites_count,
          downloads: image.downloads_count,
          sad: image.sad_count,
          dislikes: image.dislikes_count,
          wow: image.wow_count,
          views: image.views_count,
        },
        is_liked: own.has(INTERACTION.like),
        is_favorited: own.has(INTERACTION.favorite),
        is_sad: own.has(INTERACTION.sad),
        is_disliked: own.has(INTERACTION.dislike),
        is_wow: own.has(INTERACTION.wow),
      };
    },
  };
}
