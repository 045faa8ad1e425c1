import type { OcrEngine, OcrResult } from './ocr.js';
import { perceptualHash } from './phash.js';

/*
 * Reading a photo: the writing (OCR) and the perceptual hash, the two things the analysis job
 * needs from the picture itself. The server reads photos in a child process at the lowest CPU
 * priority (reader-process.ts); the evaluation and the tests read them here, in-process.
 */

export interface PhotoReading extends OcrResult {
  /** The 64-bit perceptual hash, 16 hex digits (phash.ts). */
  phash: string;
}

export interface PhotoReader {
  /** Reads an encoded image (any format sharp reads). */
  read(image: Buffer): Promise<PhotoReading>;
  /** Ends whatever the reader started (threads, processes); a later read starts afresh. */
  terminate(): Promise<void>;
}

/** A reader working in this process: the hash and the OCR side by side. */
export function readerOf(ocr: OcrEngine): PhotoReader {
  return {
    async read(image) {
      const [phash, reading] = await Promise.all([perceptualHash(image), ocr.recognize(image)]);
      return { ...reading, phash };
    },
    terminate: () => ocr.terminate(),
  };
}
