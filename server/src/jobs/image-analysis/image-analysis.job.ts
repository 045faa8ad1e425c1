import fs from 'node:fs/promises';
import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import { foldText } from '../../lib/text.js';
import { imageFilePath } from '../../modules/images/images.storage.js';
import type { EnqueueOptions } from '../queue.js';
import { defineJob, enqueueJob, PermanentJobError, type JobDefinition } from '../worker.js';
import { findImageFile, saveImageAnalysis } from './image-analysis.repository.js';
import type { PhotoReader } from './reader.js';

/*
 * After an upload (D4), a background job reads the writing on the wall (OCR, Italian) and
 * computes the perceptual hash; both feed the duplicate finder (D7), and the text feeds search.
 */

export const IMAGE_ANALYSIS_JOB = 'image.analyse';
/** OCR failures are rarely transient; three tries cover a worker restart or a busy database. */
export const IMAGE_ANALYSIS_MAX_ATTEMPTS = 3;

export interface ImageAnalysisPayload {
  id_image: number;
}

export interface ImageAnalysisDeps {
  dataDir: string;
  /** Reads the writing and the perceptual hash (the server's reads in a child process). */
  reader: PhotoReader;
  /** Runs after the results are stored, e.g. to re-index the image for search. */
  afterAnalysis?: (id_image: number) => Promise<void>;
}

/**
 * Enqueues the analysis of an image; call it in the transaction that inserts the image, so the
 * job exists exactly when the image does.
 */
export function enqueueImageAnalysis(
  db: Executor,
  clock: Clock,
  id_image: number,
  options: EnqueueOptions = {},
): Promise<number> {
  return enqueueJob<ImageAnalysisPayload>(
    db,
    clock,
    { name: IMAGE_ANALYSIS_JOB, maxAttempts: IMAGE_ANALYSIS_MAX_ATTEMPTS },
    { id_image },
    options,
  );
}

export function createImageAnalysisJob(
  db: Executor,
  deps: ImageAnalysisDeps,
): JobDefinition<ImageAnalysisPayload> {
  return defineJob<ImageAnalysisPayload>({
    name: IMAGE_ANALYSIS_JOB,
    maxAttempts: IMAGE_ANALYSIS_MAX_ATTEMPTS,
    async run(payload, ctx) {
      const id = payload.id_image;
      if (!Number.isSafeInteger(id) || id < 1) {
        throw new PermanentJobError(`bad payload: ${JSON.stringify(payload)}`);
      }
      const image = await findImageFile(db, id);
      if (image === undefined) {
        // Deleted before its turn came: nothing to analyse, and nothing wrong.
        ctx.log.info({ id_image: id }, 'image gone before its analysis');
        return;
      }
      let file: Buffer;
      try {
        file = await fs.readFile(imageFilePath(deps.dataDir, image.filename, 'original'));
      } catch (error) {
        // The image may have been deleted between the lookup and the read (row, then files).
        if (isMissingFile(error) && (await findImageFile(db, id)) === undefined) return;
        throw error;
      }
      const started = performance.now();
      const reading = await deps.reader.read(file);
      const saved = await saveImageAnalysis(db, id, {
        extracted_text: reading.text,
        text_folded: foldText(reading.text),
        ocr_confidence: reading.confidence,
        ocr_alternates: reading.alternates,
        phash: reading.phash,
      });
      if (!saved) return;
      ctx.log.info(
        {
          id_image: id,
          confidence: reading.confidence,
          characters: reading.text.length,
          ms: Math.round(performance.now() - started),
        },
        'image analysed',
      );
      // Errors here fail the attempt, so the callback (search re-indexing) is retried too.
      await deps.afterAnalysis?.(id);
    },
  });
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}
