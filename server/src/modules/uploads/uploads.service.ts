import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { isDatabaseUnavailable, onceMoreIfRowGone, whenRowGone } from '../../db/errors.js';
import type { Database, UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { cleanLine, cleanParagraphs, lengthOf } from '../../lib/typed-text.js';
import { tooLongMessage } from '../../lib/validation-messages.js';
import { HttpError, MESSAGES, badRequest, unauthorized } from '../../lib/errors.js';
import {
  detectUploadType,
  ImageRejectedError,
  MAX_INPUT_PIXELS,
  MAX_INPUT_SIDE,
  processUpload,
  UPLOAD_MIME_TYPES,
} from '../../lib/imaging.js';
import { deleteImageFiles, newStoredFilename, writeImageFiles } from '../images/images.storage.js';
import {
  checkImageTagNames,
  TAXONOMY_MESSAGES,
  type TaxonomyService,
} from '../taxonomy/taxonomy.service.js';
import { isUsable } from '../users/users.service.js';
import { countPending, insertImage, lockUploader } from './uploads.repository.js';
import { enqueueFullSize } from '../../jobs/full-size/full-size.job.js';

/** SPEC §5 and §9: 5 MB. */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 2000;
const ORIGINAL_FILENAME_MAX_LENGTH = 255;

/**
 * A size limit as people read it: '5MB', '2,5MB', '500KB'. Rounded down, so the message never
 * promises more than the limit allows.
 */
export function formatSizeLimit(bytes: number): string {
  const megabytes = bytes / 1024 / 1024;
  if (megabytes >= 1) {
    const tenths = Math.floor(megabytes * 10) / 10;
    return `${String(tenths).replace('.', ',')}MB`;
  }
  return `${Math.floor(bytes / 1024)}KB`;
}

export const UPLOAD_MESSAGES = {
  /** SPEC §5's sentence for 5 MB; the figure follows the limit an administrator set (D7). */
  tooLarge: (limitBytes: number) =>
    `Il file è troppo grande. La dimensione massima è ${formatSizeLimit(limitBytes)}.`,
  unsupported: 'Formato file non supportato. Usa JPG, PNG o WEBP.',
  empty: 'Il file è vuoto.',
  missingFile: 'Seleziona un’immagine da caricare.',
  brokenForm: 'Il modulo inviato è incompleto o danneggiato: riprova a caricare l’immagine.',
  tooManyPixels: `L’immagine è troppo grande: al massimo ${MAX_INPUT_PIXELS / 1_000_000} megapixel.`,
  tooLongSide: `L’immagine è troppo grande: al massimo ${MAX_INPUT_SIDE.toLocaleString('it-IT')} pixel per lato.`,
  corrupt: 'Il file è danneggiato o non è un’immagine valida.',
  animated: 'Le immagini animate non sono supportate.',
  badCategory: TAXONOMY_MESSAGES.missingCategory,
  badTags: 'I tag devono essere un elenco di nomi.',
  tooManyPending: (max: number) =>
    `Hai già ${max} immagini in attesa di approvazione: attendi la revisione prima di caricarne altre.`,
} as const;

export interface UploadInput {
  bytes: Buffer;
  originalFilename: string | undefined;
  title: string | undefined;
  description: string | undefined;
  categoryId: number;
  tags: string[];
}

export type UploadsService = ReturnType<typeof createUploadsService>;

const withoutExtension = (name: string) => name.replace(/\.(jpe?g|png|webp)$/i, '');

/**
 * The title an upload gets: the one sent, or else the file's name without its extension, cut
 * to the limit (nobody typed it; a typed title past the limit is refused by checkTypedFields).
 */
function cleanTitle(title: string | undefined, originalFilename: string | undefined) {
  const cleaned = cleanLine(withoutExtension(title ?? originalFilename ?? ''), TITLE_MAX_LENGTH);
  return cleaned === '' ? null : cleaned;
}

/**
 * What the uploader typed, refused past its limit rather than cut, so what is stored is what
 * was written or nothing: the title and the description (counted once tidied, as they are
 * stored) and the tags.
 */
function checkTypedFields(input: UploadInput): void {
  const title = input.title === undefined ? '' : cleanLine(withoutExtension(input.title), Infinity);
  if (lengthOf(title) > TITLE_MAX_LENGTH) {
    throw badRequest(tooLongMessage('Titolo', TITLE_MAX_LENGTH));
  }
  if (lengthOf(cleanParagraphs(input.description ?? '', Infinity)) > DESCRIPTION_MAX_LENGTH) {
    throw badRequest(tooLongMessage('Descrizione', DESCRIPTION_MAX_LENGTH));
  }
  checkImageTagNames(input.tags);
}

/** Parses the `tags` field: a JSON list of names (SPEC sends '[]'), or comma-separated text. */
export function parseTagsField(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const text = value.trim();
  if (text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest(UPLOAD_MESSAGES.badTags);
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
      throw badRequest(UPLOAD_MESSAGES.badTags);
    }
    return parsed;
  }
  return text.split(',');
}

export function createUploadsService(
  db: Kysely<Database>,
  dialect: Dialect,
  clock: Clock,
  dataDir: string,
  taxonomy: TaxonomyService,
  jobs: { wake(): void },
  maxPending: number,
) {
  async function checkPendingRoom(executor: Executor, userId: number): Promise<void> {
    if ((await countPending(executor, userId)) >= maxPending) {
      throw new HttpError(429, UPLOAD_MESSAGES.tooManyPending(maxPending));
    }
  }

  return {
    /**
     * D4: the type from the bytes, a pixel bound, a re-encode that drops every piece of
     * metadata and applies the orientation, files written atomically, then the pending row.
     * The full-size file is made after the answer by a job, from the decoded pixels written
     * here with the other files (issue 8, goal 6: its encode was most of an upload's time).
     */
    async upload(user: UserRow, input: UploadInput) {
      checkTypedFields(input);
      if (input.bytes.length === 0) throw badRequest(UPLOAD_MESSAGES.empty);
      // Checked first so a refused upload costs no decoding, and again where the row is written.
      await checkPendingRoom(db, user.id_utente);
      const type = detectUploadType(input.bytes);
      if (type === undefined) throw new HttpError(415, UPLOAD_MESSAGES.unsupported);
      await taxonomy.requireCategory(input.categoryId);

      let processed;
      try {
        processed = await processUpload(input.bytes);
      } catch (error) {
        if (!(error instanceof ImageRejectedError)) throw error;
        if (error.reason === 'too-many-pixels') throw badRequest(UPLOAD_MESSAGES.tooManyPixels);
        if (error.reason === 'too-long-side') throw badRequest(UPLOAD_MESSAGES.tooLongSide);
        if (error.reason === 'animated') throw badRequest(UPLOAD_MESSAGES.animated);
        throw badRequest(UPLOAD_MESSAGES.corrupt);
      }

      const filename = newStoredFilename();
      // The pixels are flushed before the row and its job commit, so the job always finds them.
      await writeImageFiles(dataDir, filename, {
        display: processed.display,
        thumb: processed.thumb,
        pixels: processed.pixels,
      });
      let imageId: number;
      try {
        // A tag or the category deleted since they were looked up fails a foreign key: the
        // transaction runs once more (the tags' names looked up, or made, again), then the
        // category is looked at once it is over (SQLite's one connection is the
        // transaction's until then, and PostgreSQL's transaction is aborted by the failure).
        const store = () =>
          db.transaction().execute(async (trx) => {
            // The decoding took a while: the account may have been closed, or another upload
            // of the same user may have taken the last pending place, in the meantime.
            const uploader = await lockUploader(trx, dialect, user.id_utente);
            if (uploader === undefined || !isUsable(uploader)) {
              throw unauthorized(MESSAGES.invalidToken);
            }
            await checkPendingRoom(trx, user.id_utente);
            const id = await insertImage(trx, {
              filename,
              original_filename:
                input.originalFilename === undefined
                  ? null
                  : cleanLine(input.originalFilename, ORIGINAL_FILENAME_MAX_LENGTH),
              titolo_img: cleanTitle(input.title, input.originalFilename),
              description: cleanParagraphs(input.description ?? '', DESCRIPTION_MAX_LENGTH) || null,
              id_utente: user.id_utente,
              id_categoria: input.categoryId,
              status: 'pending',
              mime_type: UPLOAD_MIME_TYPES.webp,
              // The display size stands in at the full-size URL until the job makes the file and
              // records its size.
              size_bytes: processed.display.length,
              width: processed.width,
              height: processed.height,
              placeholder: processed.placeholder,
              created_at: clock.now().toISOString(),
            });
            await taxonomy.assignTags(id, input.tags, trx);
            // In the same transaction: an image is never left without its full size, nor (that
            // job queues it) without its analysis.
            await enqueueFullSize(trx, clock, { id_image: id, filename });
            return id;
          });
        imageId = await whenRowGone(
          () => onceMoreIfRowGone(store),
          () => taxonomy.requireCategory(input.categoryId),
        );
      } catch (error) {
        // No row, no files: the upload leaves nothing behind. But when the connection to the
        // database broke, the commit may have happened all the same (only its answer lost):
        // the files then stay, and the sweeper removes them later unless a row names them.
        if (!isDatabaseUnavailable(error)) await deleteImageFiles(dataDir, filename);
        throw error;
      }
      jobs.wake();
      return { id_image: imageId, filename, status: 'pending' as const };
    },
  };
}
