import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import {
  candidateImage,
  greyImage,
  paintCandidates,
  rawRgb,
  readingScale,
  SAME_MASK_SHARE,
  sharedShare,
  type PaintCandidate,
} from './paint.js';
import { foldWord, isItalianWord, nearestItalianWord, wordLetters } from './words.js';

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
   * Long sides the grey image is read at (default 450 px), after the paint masks and only
   * when none of them gave a well-formed reading. See DEFAULT_TARGET_SIZES.
   */
  targetSizes?: readonly number[];
  /**
   * Long side at which the paint masks (paint.ts) are made and read, or null for none
   * (default 800 px). See DEFAULT_MASK_SIZE.
   */
  maskSize?: number | null;
  /** A recognition taking longer than this is abandoned and the thread replaced (default 60 s). */
  timeoutMs?: number;
  /** Told of every Tesseract reading made (a photo takes one to four): for measurements. */
  onReading?: () => void;
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
/**
 * Paint masks read at most, best-ranked first. Reading every mask (4.7 a picture on average)
 * cost most of the time, mostly on masks of wall texture, which are also the slowest to read;
 * on the exploration subset the three best-ranked masks, then the grey picture, with the early
 * stop, read more words than all masks and the grey picture (53.2 % against 46.8 %) with 2.7
 * readings a picture instead of 5.3 (docs/READING.md, step 3).
 */
const MAX_MASK_READINGS = 3;
/**
 * Radius of the closing (paint.ts closeMask) that mends the strokes of a mask before it is
 * read: the wall's texture shows through paint and chalk and breaks strokes into specks. Done
 * after the cleaning, it joins only what was kept as letters (step 2's closing of the raw
 * cluster joined letters to texture). On 48 pictures of the exploration seed, the three best
 * masks read with a closing of 1 px gave 54.0 % of words against 52.1 % without, chalk 29.7 %
 * against 25.0 % (docs/READING.md, step 4).
 */
const STROKE_CLOSING = 1;
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

  /**
   * One decode of the photo serves every reading. The masks are read best-ranked first
   * (paint.ts candidateScore), at most MAX_MASK_READINGS of them, then the grey picture as the
   * fallback for writing no mask holds; the first reading that is confident and made of
   * Italian words ends it (wellFormed), unless its mask is part of one still to be read
   * (mayEndReading). Of the readings made, readingScore picks one.
   */
  async function recognizeNow(image: Buffer): Promise<OcrResult> {
    // Decoded at the largest size any candidate needs, so no candidate is an upscaled one.
    const decodeSize = Math.max(maskSize ?? 0, ...targetSizes);
    if (decodeSize <= 0) return { text: '', confidence: 0 };
    const rgb = await rawRgb(image, decodeSize);
    const steps: Array<{ prepare: () => Promise<Buffer>; final: boolean }> = [];
    if (maskSize !== null) {
      const masks = paintCandidates(rgb).slice(0, MAX_MASK_READINGS);
      const final = mayEndReading(masks);
      masks.forEach((candidate, index) => {
        steps.push({
          prepare: () => candidateImage(candidate, readingScale(candidate), STROKE_CLOSING),
          final: final[index] ?? true,
        });
      });
    }
    for (const size of targetSizes)
      steps.push({ prepare: () => greyImage(rgb, size), final: true });
    let best: OcrResult = { text: '', confidence: 0 };
    let bestScore = -1;
    for (const step of steps) {
      const result = await recognizeAt(await step.prepare());
      options.onReading?.();
      const score = readingScore(result);
      if (score > bestScore) {
        best = result;
        bestScore = score;
      }
      if (step.final && wellFormed(result)) break;
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
 * For each mask to be read, in order, whether a well-formed reading of it may end the
 * reading: not when most of its paint (SAME_MASK_SHARE) lies in a mask read after it. Pooling
 * the masks of the colours as lit and evened out (paint.ts) makes such pairs, one clustering
 * holding part of a writing that the other holds whole, and the part can rank first: a
 * confident reading of it ('LA MIA CASA' of 'IL MIO QUARTIERE, LA MIA CASA') then ended the
 * reading before the whole was read. Read both, readingScore prefers the whole, and still
 * picks the part when the larger mask is the writing plus texture and reads worse
 * (docs/READING.md, step 8). The masks of one clustering are disjoint, so this costs readings
 * only where the two clusterings' masks overlap.
 */
export function mayEndReading(masks: readonly PaintCandidate[]): boolean[] {
  return masks.map(
    (mask, index) =>
      !masks.slice(index + 1).some((later) => sharedShare(mask.mask, later.mask) > SAME_MASK_SHARE),
  );
}

/**
 * How much to trust a reading when choosing between candidates (paint masks, grey picture):
 * its letters, capped, times its confidence above MIN_WORD_CONFIDENCE, where letters outside
 * Italian words of three letters or more (words.ts) count a quarter. Wall texture read as
 * letters gives scraps ('pa', 'ee', 'Ric') at confidence 50–60; the writing gives words.
 * Before the word list the confidence margin had to be squared to keep dozens of such
 * scraps from outscoring the writing (docs/READING.md, step 2); weighing the letters by words
 * does that better: on the exploration subset 49.4 % of words read against 47.9 % with the
 * squared margin over the same readings (step 3).
 */
export function readingScore(result: OcrResult): number {
  const { known, other } = wordLetters(result.text);
  const margin = Math.max(0, result.confidence - MIN_WORD_CONFIDENCE);
  return Math.min(known + other * UNKNOWN_LETTER_WEIGHT, MAX_SCORED_LETTERS) * margin;
}

const UNKNOWN_LETTER_WEIGHT = 0.25;
const MAX_SCORED_LETTERS = 40;

/**
 * A reading good enough to stop reading: confident, of six letters or more, most of them in
 * Italian words. On the exploration subset, stopping there lost no word and saved a third of
 * the readings (docs/READING.md, step 3).
 */
export function wellFormed(result: OcrResult): boolean {
  const { known, other } = wordLetters(result.text);
  const letters = known + other;
  return (
    result.confidence >= WELL_FORMED_CONFIDENCE &&
    letters >= WELL_FORMED_LETTERS &&
    known >= letters * WELL_FORMED_WORD_SHARE
  );
}

const WELL_FORMED_CONFIDENCE = 70;
const WELL_FORMED_LETTERS = 6;
const WELL_FORMED_WORD_SHARE = 0.6;

/** Rebuilds the text from the words worth keeping, line by line, mending one-letter slips. */
function keepLegibleWords(page: Tesseract.Page): OcrResult {
  const lines: string[] = [];
  let weightedConfidence = 0;
  let weight = 0;
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter(isLegible);
        if (words.length === 0) continue;
        lines.push(words.map((word) => mendWord(word)).join(' '));
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

/**
 * An Italian word of two letters or more is kept from this confidence, below the general
 * MIN_WORD_CONFIDENCE: Tesseract is often unsure of a rightly read word on a rough wall, and
 * texture rarely reads as a real word (on the exploration subset, about a point of CER better).
 */
const MIN_KNOWN_WORD_CONFIDENCE = 40;
/** Words read this confidently are left as read, even when the word list does not know them. */
const MENDING_CONFIDENCE = 95;

function isLegible(word: Tesseract.Word): boolean {
  const text = word.text.trim();
  if (text === '') return false;
  const letters = foldWord(text).replace(/[^\p{L}\p{N}]+/gu, '');
  if (
    word.confidence >= MIN_KNOWN_WORD_CONFIDENCE &&
    letters.length >= 2 &&
    isItalianWord(letters)
  ) {
    return true;
  }
  if (word.confidence < MIN_WORD_CONFIDENCE) return false;
  // A word needs a letter, or a number of two digits or more (years, dates on walls); marks
  // alone ('|', '—', '#') are cracks and edges.
  if (!/\p{L}/u.test(text) && !/\p{N}{2}/u.test(text)) return false;
  const significant = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return significant >= 2 || word.confidence >= MIN_SHORT_WORD_CONFIDENCE;
}

/**
 * The word as read, or, when it is not an Italian word but one slip away from one
 * (nearestItalianWord), that word in the case it was written in. Punctuation around the word
 * is kept; words with punctuation or digits inside are left alone.
 */
function mendWord(word: Tesseract.Word): string {
  const text = word.text.trim();
  if (word.confidence >= MENDING_CONFIDENCE) return text;
  const match = /^([^\p{L}\p{N}]*)(\p{L}+)([^\p{L}\p{N}]*)$/u.exec(text);
  if (match === null) return text;
  const [, before = '', core = '', after = ''] = match;
  const mended = nearestItalianWord(foldWord(core));
  if (mended === null) return text;
  const upper = core === core.toUpperCase();
  return before + (upper ? mended.toUpperCase() : mended) + after;
}

function toError(error: unknown): Error {
  // tesseract.js rejects with plain strings; keep the message and give it a stack.
  return error instanceof Error ? error : new Error(`OCR failed: ${String(error)}`);
}
