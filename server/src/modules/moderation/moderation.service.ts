import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { onceMoreIfRowGone, whenRowGone } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { Database, UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { cleanLine, cleanParagraphs } from '../../lib/typed-text.js';
import { deleteImageFiles } from '../images/images.storage.js';
import type { ImagesService } from '../images/images.service.js';
import { createSearchService } from '../search/search.service.js';
import { checkImageTagNames, type TaxonomyService } from '../taxonomy/taxonomy.service.js';
import { TITLE_MAX_LENGTH } from '../uploads/uploads.service.js';
import { refuseIfAccountGone } from '../users/users.service.js';
import * as repo from './moderation.repository.js';
import type { ModerationTarget } from './moderation.repository.js';
import type { Classification } from './moderation.schemas.js';

export const MODERATION_MESSAGES = {
  notFound: 'Immagine non trovata',
  notPending: 'L’immagine non è più in attesa di approvazione: qualcuno l’ha già esaminata.',
  defaultReason: 'Nessun motivo specificato',
  uploaderLeaving:
    'L’autore ha chiesto di eliminare il suo account: l’immagine verrà cancellata con esso.',
  staleEdit:
    'Un altro amministratore ha modificato questa immagine dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
} as const;

export const REJECTION_REASON_MAX_LENGTH = 1000;

export type Decision = 'approved' | 'rejected';

/** What a decision sets off besides the row: the uploader's e-mail (D8), in the same transaction. */
export type DecisionHook = (
  trx: Executor,
  image: ModerationTarget,
  decision: Decision,
  reason: string | null,
) => Promise<void>;

export type ModerationService = ReturnType<typeof createModerationService>;

/**
 * The life of an image after upload (D4): approval makes it public, rejection keeps it private
 * with a reason, deletion removes it everywhere. Each keeps the denormalised counts of its
 * category and tags and the search index in step, in the same transaction.
 */
export function createModerationService(
  db: Kysely<Database>,
  dialect: Dialect,
  clock: Clock,
  deps: {
    dataDir: string;
    taxonomy: TaxonomyService;
    images: ImagesService;
    onDecision?: DecisionHook;
  },
) {
  /**
   * One decision in one transaction. An approval may carry the category and tags chosen in the
   * detail dialog: they are saved inside it, so an approval refused (already decided, the
   * uploader leaving, a category gone) leaves the image as it was.
   */
  async function decide(
    filename: string,
    admin: UserRow,
    decision: Decision,
    reason: string | null,
    classification: Classification = {},
  ): Promise<ModerationTarget> {
    if (classification.tags !== undefined) checkImageTagNames(classification.tags);
    const found = await repo.findTargetByFilename(db, filename);
    if (found === undefined) throw notFound(MODERATION_MESSAGES.notFound);
    const write = () =>
      db.transaction().execute(async (trx) => {
        const image = await repo.lockTarget(trx, dialect, found.id_image, 'change');
        if (image === undefined) throw notFound(MODERATION_MESSAGES.notFound);
        // Its erasure is on its way (D9): publishing it now would show it until then.
        if (
          decision === 'approved' &&
          (await repo.uploaderLeaving(trx, dialect, image.id_utente))
        ) {
          throw badRequest(MODERATION_MESSAGES.uploaderLeaving);
        }
        const decided = await repo.decide(trx, image.id_image, {
          status: decision,
          rejection_reason: decision === 'rejected' ? reason : null,
          reviewed_by: admin.id_utente,
          at: clock.now().toISOString(),
        });
        if (!decided) throw badRequest(MODERATION_MESSAGES.notPending);
        if (classification.id_categoria !== undefined || classification.tags !== undefined) {
          await repo.bumpRevision(trx, image.id_image);
        }
        // Still uncounted: the counts are taken once, below, with the category it ends in.
        await deps.taxonomy.recategorise(
          trx,
          { id_image: image.id_image, id_categoria: image.id_categoria, approved: false },
          classification,
        );
        const target = {
          ...image,
          id_categoria: classification.id_categoria ?? image.id_categoria,
        };
        if (decision === 'approved') {
          await deps.taxonomy.adjustApprovedCounts(trx, target.id_image, target.id_categoria, 1);
        }
        await createSearchService(trx, dialect).reindexImage(target.id_image);
        await deps.onDecision?.(trx, target, decision, reason);
        return target;
      });
    const image = await retryIfRowGone(write, classification.id_categoria, admin.id_utente);
    deps.images.invalidateTrending();
    return { ...image, status: decision };
  }

  /**
   * A tag or the category deleted while a write used them fails a foreign key (PostgreSQL):
   * once more with the tags looked up, or made, again; a category still gone is answered as
   * one that did not exist. So does a decision's reviewer (`reviewerId`) erased since the
   * request was authenticated: that is the 401 of a session that no longer holds.
   */
  function retryIfRowGone<T>(
    write: () => Promise<T>,
    categoryId: number | undefined,
    reviewerId?: number,
  ) {
    return whenRowGone(
      () => onceMoreIfRowGone(write),
      async () => {
        if (reviewerId !== undefined) await refuseIfAccountGone(db, reviewerId);
        if (categoryId !== undefined) await deps.taxonomy.requireCategory(categoryId);
      },
    );
  }

  return {
    approve: (filename: string, admin: UserRow, classification?: Classification) =>
      decide(filename, admin, 'approved', null, classification),

    /** D4: an empty reason becomes 'Nessun motivo specificato'. */
    reject: (filename: string, admin: UserRow, reason: string) =>
      decide(
        filename,
        admin,
        'rejected',
        cleanParagraphs(reason, REJECTION_REASON_MAX_LENGTH) || MODERATION_MESSAGES.defaultReason,
      ),

    /** An administrator's edit (D7): title, category and tags (names, created when missing). */
    async updateImage(
      id: number,
      changes: {
        titolo_img?: string | undefined;
        id_categoria?: number | undefined;
        tags?: string[] | undefined;
        /**
         * The image's revision the edit form was filled with (optional, SPEC's body lacks it):
         * given and no longer current, the edit is refused with a 409 rather than undoing
         * what someone saved meanwhile.
         */
        revision?: number | undefined;
      },
    ): Promise<void> {
      if (changes.tags !== undefined) checkImageTagNames(changes.tags);
      const edit = () =>
        db.transaction().execute(async (trx) => {
          const image = await repo.lockTarget(trx, dialect, id, 'change');
          if (image === undefined) throw notFound(MODERATION_MESSAGES.notFound);
          // Read under the image's lock: an edit committed between the check and the write
          // would otherwise slip past it.
          if (changes.revision !== undefined && changes.revision !== image.revision) {
            throw conflict(MODERATION_MESSAGES.staleEdit);
          }
          await repo.bumpRevision(trx, id);
          if (changes.titolo_img !== undefined) {
            const title = cleanLine(changes.titolo_img, TITLE_MAX_LENGTH);
            await repo.setTitle(trx, id, title === '' ? null : title);
          }
          await deps.taxonomy.recategorise(
            trx,
            {
              id_image: id,
              id_categoria: image.id_categoria,
              approved: image.status === 'approved',
            },
            { id_categoria: changes.id_categoria, tags: changes.tags },
          );
          await createSearchService(trx, dialect).reindexImage(id);
        });
      await retryIfRowGone(edit, changes.id_categoria);
    },

    /** D4: the row, its tag links, its interactions and its files. */
    async deleteImage(id: number): Promise<void> {
      const image = await db.transaction().execute(async (trx) => {
        const image = await repo.lockTarget(trx, dialect, id, 'deletion');
        if (image === undefined) throw notFound(MODERATION_MESSAGES.notFound);
        if (image.status === 'approved') {
          await deps.taxonomy.adjustApprovedCounts(trx, id, image.id_categoria, -1);
        }
        await repo.deleteImageRow(trx, id);
        // With the row gone, reindexing removes the image's search document.
        await createSearchService(trx, dialect).reindexImage(id);
        return image;
      });
      // After the commit: a failed transaction must not have lost the files.
      await deleteImageFiles(deps.dataDir, image.filename);
      deps.images.invalidateTrending();
    },
  };
}
