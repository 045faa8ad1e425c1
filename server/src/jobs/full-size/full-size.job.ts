import fs from 'node:fs/promises';
import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import { encodeFullSize } from '../../lib/imaging.js';
import {
  deleteImageFiles,
  deleteKeptPixels,
  imageFilePath,
  keptPixelsPath,
  STORED_FILENAME,
  writeImageFiles,
} from '../../modules/images/images.storage.js';
import { enqueueImageAnalysis } from '../image-analysis/image-analysis.job.js';
import { defineJob, enqueueJob, PermanentJobError, type JobDefinition } from '../worker.js';

/*
 * Issue 8, goal 6: an upload is answered once its display size, thumbnail and placeholder
 * exist and its row is pending; the full-size WebP, the single-threaded long pole of an upload,
 * is encoded after the answer by this job, from the pixels the upload decoded and kept on disk
 * (images/pixels/, flushed before the row and this job were committed together). So the file
 * is made even after a kill -9, from the same decode, and is byte for byte what the upload
 * itself used to encode. The image's analysis reads the full-size file, so this job enqueues
 * it once the file exists; until then the full-size URL serves the display size
 * (files.routes.ts).
 *
 * Steps, each safe to repeat after a crash: encode and write the file atomically; in one
 * transaction record its size and enqueue the analysis; delete the kept pixels. A crash
 * between the last two repeats the job, and the image is analysed twice (the same result
 * written twice): rare, and harmless.
 */

export const FULL_SIZE_JOB = 'image.full-size';
/** A read, an encode and a write: only a full disk or a busy database makes one fail. */
export const FULL_SIZE_MAX_ATTEMPTS = 5;

/**
 * Queued before every other due job: jobs are claimed oldest `run_at` first, and the analysis
 * (seconds of OCR each) may have a backlog, while an uploader waits for this file. A retry
 * gets a normal `run_at` (now + backoff).
 */
const FIRST_IN_LINE = new Date(0);

export interface FullSizePayload {
  id_image: number;
  /** Kept so the pixels can be found and removed even when the row is gone. */
  filename: string;
}

/** Enqueues the full size of an image; call it in the transaction that inserts the image. */
export function enqueueFullSize(
  db: Executor,
  clock: Clock,
  payload: FullSizePayload,
): Promise<number> {
  return enqueueJob<FullSizePayload>(
    db,
    clock,
    { name: FULL_SIZE_JOB, maxAttempts: FULL_SIZE_MAX_ATTEMPTS },
    payload,
    { runAt: FIRST_IN_LINE },
  );
}

export interface FullSizeDeps {
  dataDir: string;
  clock: Clock;
}

export function createFullSizeJob(
  db: Executor,
  deps: FullSizeDeps,
): JobDefinition<FullSizePayload> {
  return defineJob<FullSizePayload>({
    name: FULL_SIZE_JOB,
    maxAttempts: FULL_SIZE_MAX_ATTEMPTS,
    async run(payload, ctx) {
      const { id_image: id, filename } = payload;
      if (
        !Number.isSafeInteger(id) ||
        id < 1 ||
        typeof filename !== 'string' ||
        !STORED_FILENAME.test(filename)
      ) {
        throw new PermanentJobError(`bad payload: ${JSON.stringify(payload)}`);
      }
      // The pixels are read before the row: a deletion committed between the two reads then
      // finds the row gone, and the job ends quietly. Read the other way round, a deletion
      // between them left a job that found the row, then no pixels and no full size, and
      // failed for good over an image that was only deleted.
      let pixels: Buffer | undefined;
      try {
        pixels = await fs.readFile(keptPixelsPath(deps.dataDir, filename));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const image = await db
        .selectFrom('images')
        .select(['width', 'height'])
        .where('id_image', '=', id)
        .where('filename', '=', filename)
        .executeTakeFirst();
      if (image === undefined) {
        // Deleted before its turn (the deletion removed the pixels too; this is for a
        // deletion that raced with the upload's own write).
        await deleteKeptPixels(deps.dataDir, filename);
        return;
      }
      if (pixels === undefined) {
        // A previous attempt made the file, queued the analysis and deleted the pixels, then
        // died before recording that it was done.
        if (await exists(imageFilePath(deps.dataDir, filename, 'original'))) return;
        throw new PermanentJobError(`image ${id}: neither its pixels nor its full size exist`);
      }
      if (pixels.length !== image.width * image.height * 3) {
        // Cannot become right by retrying.
        throw new PermanentJobError(
          `image ${id}: ${pixels.length} bytes of pixels for ${image.width}×${image.height}`,
        );
      }
      const started = performance.now();
      const original = await encodeFullSize(pixels, image.width, image.height);
      await writeImageFiles(deps.dataDir, filename, { original });
      const recorded = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('images')
          .set({ size_bytes: original.length })
          .where('id_image', '=', id)
          .where('filename', '=', filename)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        // The analysis reads the file just written: queued only now that it exists.
        await enqueueImageAnalysis(trx, deps.clock, id);
        return true;
      });
      if (!recorded) {
        // Deleted while the file was being made: nothing of it may stay behind.
        await deleteImageFiles(deps.dataDir, filename);
        return;
      }
      await deleteKeptPixels(deps.dataDir, filename);
      ctx.log.info(
        { id_image: id, bytes: original.length, ms: Math.round(performance.now() - started) },
        'full size made',
      );
    },
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
