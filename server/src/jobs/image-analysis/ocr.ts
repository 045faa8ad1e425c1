import sharp from 'sharp';
import {
  createSceneTextReader,
  type RawRgb,
  type SceneTextReader,
  type TextLine,
} from './scene-text.js';
import { buildLexicon } from './ctc-beam.js';
import { ELIDED, mendLine, wordLetters } from './mending.js';
import { foldWord, isItalianWord, segmentWords } from './words.js';

/*
 * OCR of wall writings (D4, docs/READING.md step 9): PaddleOCR's scene-text networks find and
 * read each line of writing (scene-text.ts), then the lines are put in reading order, stray
 * marks dropped and the words made Italian (mending.ts: words glued together parted,
 * confusions and slips mended, accents given). Inference runs in ONNX Runtime's own threads; in the server the
 * whole reading happens in the reading process at the lowest CPU priority (reader-process.ts).
 */

export interface OcrResult {
  /** The words kept, one line of writing per line; '' when nothing legible was found. */
  text: string;
  /** Mean confidence (0–100) of the kept lines, weighted by their length; 0 without text. */
  confidence: number;
  /**
   * Italian words of the recogniser's other likely readings that `text` lacks, folded and
   * space-separated ('' when none): a misread word is often the second or third reading of
   * its line ('NESSO NO' chosen, 'nessuno' behind it), so search finds the photo by these at
   * the lowest weight, while grouping and what visitors see keep to `text`. The words of
   * `text` as read, where mending replaced them ('diem' mended to 'die'), are alternates too.
   */
  alternates: string;
}

export interface OcrEngine {
  /** Reads the text of an encoded image (any format sharp reads). */
  recognize(image: Buffer): Promise<OcrResult>;
  /** Releases the networks; a later recognize loads them again. */
  terminate(): Promise<void>;
}

export interface OcrOptions {
  /** Threads each network may use (default 1). */
  threads?: number;
}

/**
 * The photo is decoded at most this large; lines are cut out of it at this resolution before
 * they are scaled to the recogniser's 48 px, so small writing keeps its strokes. Stored
 * originals are at most 2048 px long (lib/imaging.ts).
 */
const DECODE_LONG_SIDE = 2048;
/**
 * A line this short (letters and digits) is kept only when it is an Italian word or read this
 * surely: specks of texture read as 'J3', 'mm', '88' or 'Shim' (step 13: four letters rather
 * than three, 0.2 points more words on the whole set; five or more dropped real lines).
 */
const SHORT_LINE_LENGTH = 4;
const SHORT_LINE_CONFIDENCE = 0.9;
/**
 * A reading less sure than this (confidence, or share of its letters in Italian words) gets a
 * second look, the detector seeing the photo at SECOND_LOOK_SIDE px instead of 512: small
 * writing in a wide photo is found there, while large letters are found best at 512. On the
 * whole evaluation set (docs/READING.md, step 9) a third of the photos got the second look,
 * for 0.8 points more words and 1.2 less character error; a second look at every photo read
 * no more. It also gets an evened look (evenedRgb, at 512 px), and the likeliest Italian of
 * the three readings wins: on the whole set (step 12) 0.5 points more words, 0.6 less
 * character error and one picture in a hundred read where none was, for 30 % more reading
 * time.
 */
const SURE_CONFIDENCE = 90;
const SURE_ITALIAN_SHARE = 0.9;
export const SECOND_LOOK_SIDE = 960;
/** CLAHE for the evened look: tiles a long side holds, and the slope that limits contrast. */
const CLAHE_TILES = 18;
const CLAHE_SLOPE = 3;
/** A box at least this many times longer than high shows the writing's direction. */
const DIRECTED_BOX_RATIO = 2;
/** Letters outside Italian words count this much when two readings of a photo are compared. */
const OTHER_LETTER_WEIGHT = 0.25;

/**
 * How much a letter of Italian words weighs against the recogniser's log probability when
 * choosing among its likeliest readings of a line: 'hon si arrende' (log p −2.2, 'arrende' a
 * word) over 'hon si anrende' (−1.1). On the whole evaluation set (docs/READING.md, step 9)
 * 0.2 to 1 all read 2.8–3.4 points more words than the likeliest reading alone, both halves
 * of the set alike; 0.75 read the most.
 */
const WORD_LETTER_WEIGHT = 0.75;
/**
 * A reading counts for the alternates when it is at most this much less likely (natural log)
 * than its line's likeliest reading, and a word when it has this many letters or more: shorter
 * Italian words are mostly articles and prepositions, which nobody searches for.
 */
const ALTERNATE_LOG_MARGIN = 8;
const ALTERNATE_MIN_LETTERS = 4;
/** At most this many alternates a photo (a hundred lines of eight readings could give more). */
const MAX_ALTERNATES = 40;

export function createOcrEngine(options: OcrOptions = {}): OcrEngine {
  let reader: Promise<SceneTextReader> | undefined;

  function getReader(): Promise<SceneTextReader> {
    reader ??= createSceneTextReader({
      threads: options.threads ?? 1,
      lexicon: buildLexicon(segmentWords(), ELIDED),
    }).catch((error: unknown) => {
      reader = undefined;
      throw error;
    });
    return reader;
  }

  return {
    async recognize(image) {
      const rgb = await rawRgb(image, DECODE_LONG_SIDE);
      const reader = await getReader();
      const first = textOf(await reader.read(rgb));
      if (isSure(first)) return first;
      const second = textOf(await reader.read(rgb, SECOND_LOOK_SIDE));
      const evened = textOf(await reader.read(await evenedRgb(rgb)));
      return likeliestLook([first, second, evened]);
    },
    async terminate() {
      const current = reader;
      reader = undefined;
      if (current === undefined) return;
      try {
        await (await current).close();
      } catch {
        // Never loaded: nothing to release.
      }
    },
  };
}

/** The photo upright, flattened on white, as raw RGB with at most `longSide` px a side. */
export async function rawRgb(image: Buffer, longSide: number): Promise<RawRgb> {
  const { data, info } = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The decoded photo in grey with its contrast evened out tile by tile (CLAHE), as raw RGB:
 * paint whose colour is close to a busy wall's (dark spray on brick) stands out from it there.
 * Made from the pixels already decoded for the first look, not from the file again.
 */
export async function evenedRgb(photo: RawRgb): Promise<RawRgb> {
  const { width, height } = photo;
  const tile = Math.max(8, Math.round(Math.max(width, height) / CLAHE_TILES));
  const grey = await sharp(photo.data, { raw: { width, height, channels: 3 } })
    .greyscale()
    // libvips refuses a window larger than the image: a banner 2048×100 px (tile 114) or a
    // photo a few pixels high failed its whole analysis, text and hash, on every attempt.
    .clahe({
      width: Math.min(tile, width),
      height: Math.min(tile, height),
      maxSlope: CLAHE_SLOPE,
    })
    .extractChannel(0)
    .raw()
    .toBuffer();
  // The recogniser reads three channels: the grey level in each.
  const data = Buffer.alloc(grey.length * 3);
  for (let i = 0; i < grey.length; i += 1) data.fill(grey[i] ?? 0, i * 3, i * 3 + 3);
  return { data, width, height };
}

/**
 * Of a photo's readings in several looks, the likeliest Italian, with what the runner-up read
 * among its alternates: what the other look read is as likely an alternate as its own.
 */
export function likeliestLook(looks: readonly OcrResult[]): OcrResult {
  const [chosen, other] = [...looks].sort((a, b) => italianScore(b) - italianScore(a));
  if (chosen === undefined) return { text: '', confidence: 0, alternates: '' };
  if (other === undefined) return chosen;
  return {
    ...chosen,
    alternates: alternatesBeyond(chosen.text, [other.text], [chosen.alternates, other.alternates]),
  };
}

/** The text's letters and digits, folded. */
function significantOf(text: string): string {
  return foldWord(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

function lettersOf(text: string): number {
  return significantOf(text).length;
}

/** Whether a photo's first reading is sure enough to need no other look. */
export function isSure(result: OcrResult): boolean {
  const letters = lettersOf(result.text);
  return (
    letters > 0 &&
    result.confidence >= SURE_CONFIDENCE &&
    wordLetters(result.text) >= letters * SURE_ITALIAN_SHARE
  );
}

/**
 * The direction of a photo's writing, in degrees: the median angle of its line boxes, each
 * weighing its length. A photo taken at an angle tilts every line alike, and a tilted line
 * the detector parts in several boxes would otherwise be read as several lines, its pieces
 * ordered by their height in the picture ('cuore grifone nel' for GRIFONE NEL CUORE, tilted).
 * Boxes not clearly longer than high (a letter, a mark) have no direction of their own.
 */
export function writingAngle(lines: readonly TextLine[]): number {
  const boxes = lines
    .map((line) => line.box)
    .filter((box) => box.width >= DIRECTED_BOX_RATIO * box.height)
    .sort((a, b) => a.angle - b.angle);
  let remaining = boxes.reduce((sum, box) => sum + box.width, 0) / 2;
  for (const box of boxes) {
    remaining -= box.width;
    if (remaining <= 0) return box.angle;
  }
  return 0;
}

/** Letters in Italian words, and a quarter of the others, times the confidence. */
function italianScore(result: OcrResult): number {
  const letters = lettersOf(result.text);
  const italian = wordLetters(result.text);
  return (italian + OTHER_LETTER_WEIGHT * (letters - italian)) * result.confidence;
}

/** Of the line's likeliest readings, the one most likely Italian (WORD_LETTER_WEIGHT). */
function likeliestItalian(line: TextLine): string {
  let best = line.text;
  let bestScore = -Infinity;
  for (const reading of line.readings) {
    const score = reading.logProbability + WORD_LETTER_WEIGHT * wordLetters(reading.text);
    if (score > bestScore) {
      best = reading.text;
      bestScore = score;
    }
  }
  return best;
}

function isLegible(line: TextLine): boolean {
  const significant = significantOf(line.text);
  if (significant.length > SHORT_LINE_LENGTH) return true;
  if (significant.length >= 2 && isItalianWord(significant)) return true;
  return significant.length > 0 && line.confidence >= SHORT_LINE_CONFIDENCE;
}

/**
 * The legible lines in reading order, mended, with their confidence. Positions are taken along
 * and across the writing's direction (writingAngle), so a photo taken at an angle is read as
 * written. Boxes whose centres lie within half a letter's height of each other across it are
 * one line of the writing (the detector parts words spaced widely), read along it; lines one
 * after the other across it.
 */
export function textOf(found: readonly TextLine[]): OcrResult {
  const lines = found.filter(isLegible);
  const radians = (writingAngle(lines) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const placed = lines.map((line) => ({
    line,
    along: line.box.cx * cos + line.box.cy * sin,
    across: line.box.cy * cos - line.box.cx * sin,
  }));
  const rows: Array<typeof placed> = [];
  for (const entry of placed.sort((a, b) => a.across - b.across)) {
    const row = rows.find((candidates) =>
      candidates.some(
        (other) =>
          Math.abs(other.across - entry.across) <
          Math.min(other.line.box.height, entry.line.box.height) / 2,
      ),
    );
    if (row === undefined) rows.push([entry]);
    else row.push(entry);
  }
  const read = rows.map((row) =>
    row
      .sort((a, b) => a.along - b.along)
      .map(({ line }) => likeliestItalian(line))
      .join(' '),
  );
  const text = read.map(mendLine).join('\n');
  let weighted = 0;
  let weight = 0;
  for (const line of lines) {
    weighted += line.confidence * line.text.length;
    weight += line.text.length;
  }
  const likely = lines.flatMap((line) => {
    const best = Math.max(...line.readings.map((reading) => reading.logProbability));
    return line.readings
      .filter((reading) => reading.logProbability >= best - ALTERNATE_LOG_MARGIN)
      .map((reading) => mendLine(reading.text));
  });
  return {
    text,
    confidence: weight === 0 ? 0 : Math.round((100 * weighted) / weight),
    // The words as read, before mending replaced them, come first: mending guesses ('diem',
    // no word of the list, became 'die'), and the writing may hold a name, a Latin motto or a
    // word the lists lack, which a visitor searches for as written.
    alternates: alternatesBeyond(text, likely, read.map(lettersOnly)),
  };
}

/** The words of a reading made only of letters (no digits or confusions left in them). */
function lettersOnly(reading: string): string {
  return foldedWords(reading)
    .filter((word) => /^[a-z]+$/.test(word))
    .join(' ');
}

/**
 * The distinct words (ALTERNATE_MIN_LETTERS or more, folded) that `text` does not hold: first
 * those of `kept`, as they are, then the Italian words of `readings`; space-separated, at most
 * MAX_ALTERNATES.
 */
function alternatesBeyond(
  text: string,
  readings: readonly string[],
  kept: readonly string[] = [],
): string {
  const read = new Set(foldedWords(text));
  const alternates = new Set<string>();
  const candidates = [
    ...kept.flatMap(foldedWords).map((word) => ({ word, admitted: true })),
    ...readings.flatMap(foldedWords).map((word) => ({ word, admitted: isItalianWord(word) })),
  ];
  for (const { word, admitted } of candidates) {
    if (alternates.size >= MAX_ALTERNATES) break;
    if (word.length >= ALTERNATE_MIN_LETTERS && admitted && !read.has(word)) alternates.add(word);
  }
  return [...alternates].join(' ');
}

function foldedWords(text: string): string[] {
  return foldWord(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}
