import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { paintMasks } from './paint.js';

/*
 * OCR of wall writings with tesseract.js and its Italian model (D4). tesseract.js runs the
 * Tesseract WebAssembly build in a worker thread (node:worker_threads, see tesseract.js
 * src/worker/node/spawnWorker.js), so recognition never blocks the event loop; one long-lived
 * thread is created on first use and reused, since loading the model costs about half a second.
 *
 * Nothing is ever downloaded: the model comes from the @tesseract.js-data/ita package, read
 * from a local folder (tesseract.js fetches only when langPath is a URL or unset), and with
 * cacheMethod 'none' nothing is written next to the process either.
 */

const require = createRequire(import.meta.url);

/**
 * Folder of the Italian model: the LSTM-only "best" network in integer form, which is what
 * tesseract.js itself picks for its default LSTM engine (smaller and as accurate as 4.0.0's).
 */
export const ITA_LANG_PATH = path.join(
  path.dirname(require.resolve('@tesseract.js-data/ita/package.json')),
  '4.0.0_best_int',
);

export interface OcrResult {
  /** The words kept, one line of the image per line; '' when nothing legible was found. */
  text: string;
  /** Mean confidence (0–100) of the kept words, weighted by their length; 0 without words. */
  confidence: number;
}

export interface OcrEngine {
  /** Reads the text of an encoded image (any format sharp reads). */
  recognize(image: Buffer): Promise<OcrResult>;
  /** Ends the worker thread; a later recognize starts a new one. */
  terminate(): Promise<void>;
}

export interface OcrOptions {
  /** Local folder holding ita.traineddata.gz (default ITA_LANG_PATH). */
  langPath?: string;
  /**
   * Long sides the grey image is read at (default 450 px); the reading with the best
   * confidence, among these and the paint masks, wins. See DEFAULT_TARGET_SIZES.
   */
  targetSizes?: readonly number[];
  /**
   * Long side at which the paint masks (paint.ts) are made and read, or null for none
   * (default 800 px). See DEFAULT_MASK_SIZE.
   */
  maskSize?: number | null;
  /** A recognition taking longer than this is abandoned and the thread replaced (default 60 s). */
  timeoutMs?: number;
}

/**
 * Tesseract reads best with letters about 20–40 px high. Writing on a wall photo spans from a
 * tenth to nearly all of the width, so no single scale fits: measured on the evaluation set
 * (eval/, docs/READING.md), the former 1800 px long side made most letters 100–250 px high and
 * was read worst of all; 800 px suits small and medium writing, 450 px huge letters, and
 * reading both and keeping the more confident result beat any single size. Since the paint
 * masks (paint.ts, read at 800 px) read most writings better, the grey picture is read at
 * 450 px only, as the fallback for writing the masks lose (faint paint, paint close to the
 * wall's colour): on the exploration subset, leaving out the grey 800 px reading changed the
 * figures by 0.3 points of CER.
 */
const DEFAULT_TARGET_SIZES: readonly number[] = [450];
const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * The paint masks are made at 800 px: at 600 px thin strokes break up (measured: fewer words
 * read), and above it every reading costs more while letters grow past Tesseract's best size.
 */
const DEFAULT_MASK_SIZE = 800;

/**
 * Words below this confidence are noise: textures, bricks and shadows read as letters. Raised
 * from 35 with the paint masks: a mask of wall texture gives many words at 40–55, the writing
 * mostly 60–95 (docs/READING.md, step 2).
 */
const MIN_WORD_CONFIDENCE = 50;
/** Single characters are the commonest noise, so they need more confidence to be kept. */
const MIN_SHORT_WORD_CONFIDENCE = 70;

export function createOcrEngine(options: OcrOptions = {}): OcrEngine {
  const langPath = options.langPath ?? ITA_LANG_PATH;
  const targetSizes = options.targetSizes ?? DEFAULT_TARGET_SIZES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maskSize = options.maskSize === undefined ? DEFAULT_MASK_SIZE : options.maskSize;

  let worker: Promise<Tesseract.Worker> | undefined;
  // Recognitions run one after another: one Tesseract thread does one page at a time anyway,
  // and a queue here keeps a timeout from blaming a call for the time it spent waiting.
  let queue: Promise<unknown> = Promise.resolve();

  function getWorker(): Promise<Tesseract.Worker> {
    worker ??= startWorker(langPath).catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
    return worker;
  }

  /** Drops the current thread (after a crash or a timeout); the next call starts a new one. */
  async function discardWorker(): Promise<void> {
    const current = worker;
    worker = undefined;
    if (current === undefined) return;
    try {
      await (await current).terminate();
    } catch {
      // The thread is gone or never started: nothing left to end.
    }
  }

  async function recognizeNow(image: Buffer): Promise<OcrResult> {
    let best: OcrResult = { text: '', confidence: 0 };
    let bestScore = -1;
    // The grey picture at each size, then each candidate paint mask: Tesseract's confidence,
    // not a guess beforehand, decides which one holds the writing.
    const candidates = targetSizes.map((size) => () => preprocessForOcr(image, size));
    if (maskSize !== null) {
      const masks = await paintMasks(image, maskSize);
      candidates.push(...masks.map((mask) => () => Promise.resolve(mask)));
    }
    for (const prepare of candidates) {
      const result = await recognizeAt(await prepare());
      const score = readingScore(result);
      if (score > bestScore) {
        best = result;
        bestScore = score;
      }
    }
    return best;
  }

  async function recognizeAt(prepared: Buffer): Promise<OcrResult> {
    const tesseract = await getWorker();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`OCR took longer than ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([
        tesseract.recognize(prepared, {}, { text: true, blocks: true }),
        timeout,
      ]);
      return keepLegibleWords(result.data);
    } catch (error) {
      // A thread that timed out or failed may be wedged: start afresh next time.
      await discardWorker();
      throw toError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    recognize(image) {
      const result = queue.then(() => recognizeNow(image));
      queue = result.catch(() => undefined);
      return result;
    },
    async terminate() {
      await queue;
      await discardWorker();
    },
  };
}

async function startWorker(langPath: string): Promise<Tesseract.Worker> {
  // Refuse anything but a local folder that holds the model: with a URL, or with no langPath,
  // tesseract.js would download the model from a CDN.
  const modelFile = path.join(langPath, 'ita.traineddata.gz');
  if (!path.isAbsolute(langPath) || !fs.existsSync(modelFile)) {
    throw new Error(`Italian OCR model not found at ${modelFile}`);
  }
  const tesseract = await Tesseract.createWorker(
    'ita',
    Tesseract.OEM.LSTM_ONLY,
    {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job's error from its message listener,
      // an uncaught exception that would end the process; the job's own promise still rejects.
      errorHandler: () => undefined,
    },
    // Tesseract's own chatter while loading the model ("Detected 23 diacritics", a harmless
    // "failed to load ./ita.special-words") would otherwise land in the server's log; the
    // typed form of this init-only parameter lacks debug_file, the config text takes it.
    'debug_file /dev/null',
  );
  // A worker thread that dies emits 'error' on the thread object; unheard, that too would end
  // the process. The recognition in flight then times out and the thread is replaced.
  const thread = (tesseract as unknown as { worker?: ThreadWorker | null }).worker;
  thread?.on('error', () => undefined);
  await tesseract.setParameters({
    // Sparse text: find as much text as possible in no particular order. AUTO's page layout
    // analysis takes brick courses, tiles and slats for columns and tables and then finds no
    // text at all; on the evaluation set sparse text read several times more words (READING.md).
    tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
    // The prepared image carries no resolution; without one Tesseract guesses and warns.
    user_defined_dpi: '300',
  });
  return tesseract;
}

/**
 * Prepares a photo for Tesseract: upright, flattened on white, grey, scaled so the long side is
 * `targetSize`, and contrast stretched between the 1st and 99th percentiles, so a pale
 * writing on a pale wall becomes dark on light. The stretch is computed here rather than with
 * sharp's normalise(), which on mostly uniform upscaled images was seen to turn the whole
 * background black.
 */
export async function preprocessForOcr(image: Buffer, targetSize: number): Promise<Buffer> {
  const { data, info } = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: targetSize, height: targetSize, fit: 'inside' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  stretchContrast(data, info.channels);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** Below this spread the image is flat (a blank wall): stretching would only amplify noise. */
const MIN_SPREAD = 16;

function stretchContrast(pixels: Buffer, channels: number): void {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i += channels) {
    const level = pixels[i] ?? 0;
    histogram[level] = (histogram[level] ?? 0) + 1;
  }
  const count = pixels.length / channels;
  const low = percentile(histogram, count * 0.01, false);
  const high = percentile(histogram, count * 0.01, true);
  if (high - low < MIN_SPREAD) return;
  const scale = 255 / (high - low);
  for (let i = 0; i < pixels.length; i += channels) {
    const value = ((pixels[i] ?? 0) - low) * scale;
    pixels[i] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
  }
}

/** The grey level below (or, fromTop, above) which `share` pixels lie. */
function percentile(histogram: Uint32Array, share: number, fromTop: boolean): number {
  let seen = 0;
  for (let step = 0; step < 256; step += 1) {
    const level = fromTop ? 255 - step : step;
    seen += histogram[level] ?? 0;
    if (seen >= share) return level;
  }
  return fromTop ? 255 : 0;
}

/**
 * How much to trust a reading when choosing between candidates (scales, paint masks): its
 * letters, capped, times the square of its confidence above MIN_WORD_CONFIDENCE, so that a
 * confident reading of two letters does not beat a nearly as confident reading of the whole
 * writing, while garbage loses to either. The square matters: a mask of wall texture yields
 * dozens of letters at confidence 50–55, which under a linear weight outscored the writing
 * read at 80 (on the exploration subset, words under 50 dropped: 41 % of words read with a
 * linear weight, 44 % squared; docs/READING.md, step 2).
 */
export function readingScore(result: OcrResult): number {
  const letters = result.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  const margin = Math.max(0, result.confidence - MIN_WORD_CONFIDENCE);
  return Math.min(letters, 40) * margin * margin;
}

/** Rebuilds the text from the words worth keeping, line by line. */
function keepLegibleWords(page: Tesseract.Page): OcrResult {
  const lines: string[] = [];
  let weightedConfidence = 0;
  let weight = 0;
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter(isLegible);
        if (words.length === 0) continue;
        lines.push(words.map((word) => word.text.trim()).join(' '));
        for (const word of words) {
          const length = word.text.trim().length;
          weightedConfidence += word.confidence * length;
          weight += length;
        }
      }
    }
  }
  return {
    text: lines.join('\n'),
    confidence: weight === 0 ? 0 : Math.round(weightedConfidence / weight),
  };
}

function isLegible(word: Tesseract.Word): boolean {
  const text = word.text.trim();
  if (text === '' || word.confidence < MIN_WORD_CONFIDENCE) return false;
  // A word needs a letter, or a number of two digits or more (years, dates on walls); marks
  // alone ('|', '—', '#') are cracks and edges.
  if (!/\p{L}/u.test(text) && !/\p{N}{2}/u.test(text)) return false;
  const significant = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return significant >= 2 || word.confidence >= MIN_SHORT_WORD_CONFIDENCE;
}

function toError(error: unknown): Error {
  // tesseract.js rejects with plain strings; keep the message and give it a stack.
  return error instanceof Error ? error : new Error(`OCR failed: ${String(error)}`);
}
