import { createRequire } from 'node:module';
import sharp, { type Sharp } from 'sharp';
import type { Phrase } from './phrases.js';
import { Random } from './random.js';

export type { Phrase, Theme } from './phrases.js';

/*
 * Procedural "photos" of writings on Italian walls for the demo gallery (D12).
 *
 * Everything follows from the spec and its seed: no Math.random, no clock, and only libvips
 * operations that are deterministic (text, resize, rotate, blur, JPEG), so one spec always gives
 * the same bytes.
 *
 * How a picture is made, and why this way:
 * - The wall is painted per pixel in JavaScript on a texture two or three times smaller than
 *   the picture: walls are soft surfaces, and a quarter or a ninth of the pixels is what keeps
 *   300 pictures within half a minute on two cores. Patterns (bricks, tiles, slats) are drawn
 *   through a small camera transform (tilt, keystone, yaw), so their lines are not square to
 *   the frame, as in a real photo. Stains, posters, scribbles, pavement, light and sensor noise
 *   go on the same texture.
 * - The writing is rendered by sharp (Pango) with fonts shipped in npm packages, laid out line
 *   by line with hand-made irregularity, then scaled, rotated and blurred by libvips as one-band
 *   masks; drips run down after the rotation.
 * - libvips stretches the texture to the picture, the paint is laid over it at full resolution
 *   in JavaScript (the wall's texture shows through it, so letters stay crisp), and sharp
 *   encodes the JPEG.
 *
 * The text must stay readable by OCR later on, so paint colours are picked for contrast against
 * the wall and letters have a minimum size; about one picture in twelve is allowed to be harder
 * (fainter, smaller, in shadow), as real photos are.
 */

export type WallKind = 'plaster' | 'brick' | 'concrete' | 'tiles' | 'wood' | 'shutter';
export type WritingKind = 'spray' | 'marker' | 'stencil' | 'chalk' | 'handwriting' | 'brush';
export type GroundKind = 'none' | 'asphalt' | 'cobbles' | 'slabs';
export type FontName =
  | 'Permanent Marker'
  | 'Rock Salt'
  | 'Caveat'
  | 'Special Elite'
  | 'Black Ops One'
  | 'Gochi Hand'
  | 'Oswald';

export interface WallStyle {
  kind: WallKind;
  /** The surface colour, '#rrggbb'. */
  colour: string;
  /** The second colour of the surface: mortar, grout, bare wood, rust, brick under plaster. */
  accent: string;
  /** The pattern's size in pixels: brick or tile width, plank width, shutter slat height. */
  scale: number;
  /** 0–1: how dirty and weathered the wall is (stains, grime, peeling, rust). */
  wear: number;
  /** 0–1: other marks already on the wall (scribbled tags, old posters, painted-over patches). */
  clutter: number;
  /** A darker band along the foot of a plastered façade: its share of the height, 0 for none. */
  plinth: number;
  plinthColour: string;
  /** The pavement in front of the wall, seen at the bottom of the frame. */
  ground: GroundKind;
  /** Where the wall meets the ground, as a share of the height from the top. */
  groundLevel: number;
}

export interface WritingStyle {
  kind: WritingKind;
  font: FontName;
  colour: string;
  /** A contrasting outline, as spray pieces often have; undefined for none. */
  outline: string | undefined;
  /** The widest line's share of the image width. */
  widthFraction: number;
  /** Degrees, clockwise; within ±12. */
  rotation: number;
  /** Paint drips under the letters (spray and brush only). */
  drips: number;
  /** 0–1: how much the paint has faded or was applied thinly. */
  fade: number;
  /** 0–1: how much single letters wander off the baseline and change size (hand-made writing). */
  wobble: number;
  align: 'left' | 'center';
}

export interface LightStyle {
  /** Direction the light comes from, in radians. */
  angle: number;
  /** Strength of the brightness gradient across the picture, 0–0.4. */
  gradient: number;
  /** Darkening of the corners, 0–0.5. */
  vignette: number;
  /** A soft cast shadow across part of the wall: its darkness (0 for none), direction, place. */
  shadow: number;
  shadowAngle: number;
  shadowOffset: number;
  /** Colour temperature: negative is cooler, positive warmer. */
  warmth: number;
  exposure: number;
}

export interface CameraStyle {
  /** Degrees the camera is off level. */
  tilt: number;
  /** Vertical lines converging (camera pointing up or down), about ±0.15. */
  keystone: number;
  /** Horizontal lines converging (photo taken from one side), about ±0.15. */
  yaw: number;
  /** Sensor noise, in 0–255 units. */
  noise: number;
  /** Lens softness (Gaussian sigma in pixels); 0 for none. */
  softness: number;
  jpegQuality: number;
}

export interface WallWritingSpec {
  /** Drives every detail that the spec does not spell out (texture, drips, grain). */
  seed: number;
  width: number;
  height: number;
  /** The phrase as written on the wall (case included) and how it was split into lines. */
  text: string;
  lines: readonly string[];
  wall: WallStyle;
  writing: WritingStyle;
  light: LightStyle;
  camera: CameraStyle;
  /** True for the deliberately harder pictures (low contrast, small, in shadow). */
  hard: boolean;
}

export interface SpecOverrides extends Partial<
  Omit<WallWritingSpec, 'wall' | 'writing' | 'light' | 'camera'>
> {
  wall?: Partial<WallStyle>;
  writing?: Partial<WritingStyle>;
  light?: Partial<LightStyle>;
  camera?: Partial<CameraStyle>;
}

// ---------------------------------------------------------------------------------------------
// Fonts

interface FontFace {
  /** Module path of the TTF inside its npm package. */
  module: string;
  /** Family and style as fontconfig names them once the file is loaded. */
  face: string;
}

/*
 * Fonts come from npm packages, not from the system: a fresh machine may have none at all.
 * Only one weight per family is loaded, so a face name cannot match some other file.
 */
const FONT_FACES: Record<FontName, FontFace> = {
  'Permanent Marker': {
    module: '@expo-google-fonts/permanent-marker/400Regular/PermanentMarker_400Regular.ttf',
    face: 'Permanent Marker',
  },
  'Rock Salt': {
    module: '@expo-google-fonts/rock-salt/400Regular/RockSalt_400Regular.ttf',
    face: 'Rock Salt',
  },
  Caveat: { module: '@expo-google-fonts/caveat/700Bold/Caveat_700Bold.ttf', face: 'Caveat Bold' },
  'Special Elite': {
    module: '@expo-google-fonts/special-elite/400Regular/SpecialElite_400Regular.ttf',
    face: 'Special Elite',
  },
  'Black Ops One': {
    module: '@expo-google-fonts/black-ops-one/400Regular/BlackOpsOne_400Regular.ttf',
    face: 'Black Ops One',
  },
  'Gochi Hand': {
    module: '@expo-google-fonts/gochi-hand/400Regular/GochiHand_400Regular.ttf',
    face: 'Gochi Hand',
  },
  Oswald: { module: '@expo-google-fonts/oswald/700Bold/Oswald_700Bold.ttf', face: 'Oswald Bold' },
};

export const FONT_NAMES = Object.keys(FONT_FACES) as FontName[];

const require = createRequire(import.meta.url);

const fontFiles = new Map<FontName, string>();

/** The absolute path of a font's TTF file, resolved inside node_modules. */
export function fontFile(font: FontName): string {
  let file = fontFiles.get(font);
  if (file === undefined) {
    file = require.resolve(FONT_FACES[font].module);
    fontFiles.set(font, file);
  }
  return file;
}

/** The Pango font description sharp needs, e.g. 'Caveat Bold 80'. */
export function fontDescription(font: FontName, size: number): string {
  return `${FONT_FACES[font].face} ${Math.round(size)}`;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// ---------------------------------------------------------------------------------------------
// Colours

type Rgb = readonly [number, number, number];

function hex(colour: string): Rgb {
  const value = Number.parseInt(colour.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: Rgb): string {
  const part = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${part(r)}${part(g)}${part(b)}`;
}

function luminance(colour: string): number {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = hex(colour);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio, 1–21. */
export function contrast(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function jitterColour(colour: string, random: Random, amount: number): string {
  const [r, g, b] = hex(colour);
  const light = random.float(-amount, amount);
  return toHex([
    r * (1 + light + random.float(-amount, amount) * 0.4),
    g * (1 + light + random.float(-amount, amount) * 0.4),
    b * (1 + light + random.float(-amount, amount) * 0.4),
  ]);
}

// Italian façades: ochre, Roman yellow, terracotta, faded pinks, sage greens, greys.
const PLASTER = [
  '#d9a05b',
  '#e3c08a',
  '#c9735a',
  '#e8d8c0',
  '#efe6d6',
  '#d4998a',
  '#b8c4a8',
  '#c8b89a',
  '#a9b7bd',
  '#e2b07a',
  '#bfbab0',
  '#d8c9a3',
];
const PLINTH = ['#8a8378', '#6f6a62', '#9c8f7c', '#7a6a5a', '#5f646a'];
const BRICK = ['#9e4a32', '#a8563a', '#8c3f2c', '#b0623f', '#93503a', '#7e3b2b', '#b87350'];
const MORTAR = ['#b9b0a0', '#a39a8c', '#cfc6b5', '#8f877b', '#c2b8a3'];
const CONCRETE = ['#9d9a93', '#8b8a86', '#a8a398', '#7d7b76', '#b3ada2', '#928c82'];
const TILES = ['#f1eee6', '#dfe9ec', '#cfe0d4', '#e9dcc4', '#b7d0dd', '#d7d1c3', '#9fb9a6'];
const GROUT = ['#d8d4cc', '#bdb8ae', '#9a968e', '#e6e2da'];
const WOOD_PAINT = ['#2f5a3f', '#5a3a24', '#2c4a6b', '#7a2e25', '#6b6b4a', '#3d3d3d', '#8a6a45'];
const BARE_WOOD = ['#9a7650', '#8a6744', '#a88560', '#7a5a3a'];
const SHUTTER = ['#8d9094', '#6f7a6e', '#9aa3a8', '#5d6b74', '#7a6e5f', '#b5b3ac', '#4f5a52'];
const RUST = ['#8a4a22', '#7a3f1e', '#9c5a2c'];

const PAINT: Record<WritingKind, readonly string[]> = {
  spray: [
    '#141414',
    '#f2f2ee',
    '#c4161c',
    '#1f4fa8',
    '#1e8a3a',
    '#f2c230',
    '#f07a1a',
    '#e8438f',
    '#6b2d8c',
    '#c9ccd0',
    '#15305e',
    '#7ad13a',
    '#1aa3a3',
  ],
  brush: ['#141414', '#f4f4f0', '#b3161b', '#1d3f8f', '#1c6e35', '#e8b820', '#5a3520'],
  stencil: ['#101010', '#f0f0ec', '#b3161b', '#1d3f8f', '#2a2a2a', '#e8b820'],
  marker: ['#121212', '#1b2f8a', '#b0141a', '#0f5a2a', '#4b1f6b', '#222222'],
  handwriting: ['#161616', '#1a2e86', '#a8141a', '#2a2a2a', '#10552a'],
  chalk: ['#f4f3ee', '#f5e27a', '#f4a6c0', '#a8d8f0', '#b8e6a8', '#ffffff'],
};

function pickPaint(random: Random, kind: WritingKind, wall: string, minContrast: number): string {
  for (const colour of random.shuffle(PAINT[kind])) {
    if (contrast(colour, wall) >= minContrast) return colour;
  }
  return contrast('#141414', wall) > contrast('#f4f4f0', wall) ? '#141414' : '#f4f4f0';
}

// ---------------------------------------------------------------------------------------------
// Choosing a style

const WRITING_BY_WALL: Record<WallKind, readonly (readonly [WritingKind, number])[]> = {
  plaster: [
    ['spray', 5],
    ['marker', 2],
    ['stencil', 1.5],
    ['handwriting', 1.5],
    ['brush', 2],
    ['chalk', 0.5],
  ],
  brick: [
    ['spray', 5],
    ['stencil', 1.5],
    ['brush', 2],
    ['chalk', 1],
    ['marker', 0.5],
  ],
  concrete: [
    ['spray', 5],
    ['stencil', 2],
    ['brush', 1.5],
    ['chalk', 1.5],
    ['marker', 1],
  ],
  tiles: [
    ['marker', 3],
    ['handwriting', 2],
    ['spray', 2],
    ['stencil', 0.5],
  ],
  wood: [
    ['chalk', 2],
    ['marker', 2],
    ['spray', 2.5],
    ['handwriting', 1],
    ['brush', 1],
  ],
  shutter: [
    ['spray', 5],
    ['chalk', 1.5],
    ['marker', 1],
    ['stencil', 1],
    ['brush', 1],
  ],
};

const FONTS_BY_WRITING: Record<WritingKind, readonly (readonly [FontName, number])[]> = {
  // Rock Salt is the hardest to read, for people and OCR alike: it stays the exception.
  spray: [
    ['Permanent Marker', 4],
    ['Rock Salt', 0.6],
    ['Gochi Hand', 1.5],
    ['Oswald', 1],
    ['Black Ops One', 1],
  ],
  brush: [
    ['Permanent Marker', 3],
    ['Gochi Hand', 1.5],
    ['Oswald', 1],
  ],
  stencil: [
    ['Black Ops One', 3],
    ['Special Elite', 1.5],
    ['Oswald', 1.5],
  ],
  marker: [
    ['Permanent Marker', 3],
    ['Gochi Hand', 2],
    ['Rock Salt', 0.6],
    ['Caveat', 1.5],
  ],
  handwriting: [
    ['Caveat', 3],
    ['Gochi Hand', 2],
    ['Rock Salt', 0.7],
  ],
  chalk: [
    ['Gochi Hand', 2],
    ['Caveat', 2],
    ['Rock Salt', 0.5],
    ['Permanent Marker', 1],
  ],
};

/** Splits a phrase into `count` lines of similar length, at word boundaries. */
export function wrapLines(text: string, count: number): string[] {
  const words = text.split(/\s+/).filter((word) => word.length > 0);
  if (count <= 1 || words.length <= 1) return [words.join(' ')];
  let best: string[] = [words.join(' ')];
  let bestScore = Number.POSITIVE_INFINITY;
  // Phrases have few words: trying every split is cheap and finds the most balanced one.
  const search = (start: number, remaining: number, acc: string[]) => {
    if (remaining === 1) {
      const lines = [...acc, words.slice(start).join(' ')];
      const score = Math.max(...lines.map((line) => line.length));
      if (score < bestScore) {
        bestScore = score;
        best = lines;
      }
      return;
    }
    for (let end = start + 1; end <= words.length - remaining + 1; end++) {
      search(end, remaining - 1, [...acc, words.slice(start, end).join(' ')]);
    }
  };
  search(0, Math.min(count, words.length), []);
  return best;
}

/**
 * A varied but plausible style for one picture. `random` decides everything, so a seeded
 * generator gives the same spec every time; overrides pin any part of it (kinds given in the
 * overrides also steer the choices that depend on them, such as fonts and colours).
 */
export function wallWritingSpec(
  random: Random,
  phrase: Phrase | string,
  overrides: SpecOverrides = {},
): WallWritingSpec {
  const text = overrides.text ?? (typeof phrase === 'string' ? phrase : phrase.text);
  // Drawn first, so that overriding any later choice leaves the picture's details alone.
  const seed = random.seed();
  const portrait = random.chance(0.25);
  const width = overrides.width ?? (portrait ? 900 : 1200);
  const height = overrides.height ?? (portrait ? 1200 : 900);
  const hard = overrides.hard ?? random.chance(0.08);

  const wallKind =
    overrides.wall?.kind ??
    random.weighted<WallKind>([
      ['plaster', 3],
      ['brick', 2],
      ['concrete', 1.5],
      ['shutter', 1.5],
      ['wood', 1],
      ['tiles', 1],
    ]);
  const wall: WallStyle = { ...chooseWall(random, wallKind, width), ...overrides.wall };
  const writingKind = overrides.writing?.kind ?? random.weighted(WRITING_BY_WALL[wallKind]);
  const font = overrides.writing?.font ?? random.weighted(FONTS_BY_WRITING[writingKind]);

  const colour = pickPaint(random, writingKind, wall.colour, hard ? 2.2 : 3.2);
  const outline =
    writingKind === 'spray' && random.chance(0.25)
      ? contrast(colour, '#141414') > contrast(colour, '#f2f2ee')
        ? '#141414'
        : '#f2f2ee'
      : undefined;

  const uppercase =
    writingKind === 'stencil' ||
    (writingKind === 'spray' && random.chance(0.5)) ||
    (writingKind === 'brush' && random.chance(0.5)) ||
    (writingKind === 'marker' && random.chance(0.25));
  const cased = uppercase ? text.toLocaleUpperCase('it-IT') : text;
  // Portrait frames are narrow: the same phrase takes one more line there.
  const length = cased.length * (height > width ? 1.6 : 1);
  const lineCount =
    length <= 12
      ? random.chance(0.25)
        ? 2
        : 1
      : length <= 24
        ? random.pick([1, 2, 2])
        : length <= 36
          ? random.pick([2, 2, 3])
          : length <= 60
            ? 3
            : 4;
  const lines = overrides.lines ?? wrapLines(cased, lineCount);

  const writing: WritingStyle = {
    kind: writingKind,
    font,
    colour,
    outline,
    // Single lines may run wider: their letters are otherwise small.
    widthFraction: hard
      ? random.float(0.42, 0.6)
      : lines.length === 1
        ? random.float(0.65, 0.9)
        : random.float(0.55, 0.86),
    rotation: Math.max(-12, Math.min(12, random.normal(0, writingKind === 'stencil' ? 2 : 4.5))),
    drips:
      writingKind === 'spray' ? random.int(0, 9) : writingKind === 'brush' ? random.int(2, 12) : 0,
    fade: hard ? random.float(0.2, 0.4) : random.float(0, 0.25),
    wobble: writingKind === 'stencil' ? 0 : random.float(0.1, 0.8),
    align: random.chance(0.7) ? 'center' : 'left',
    ...overrides.writing,
  };

  const light: LightStyle = {
    angle: random.float(0, Math.PI * 2),
    gradient: random.float(0.05, 0.35),
    vignette: random.float(0.1, 0.45),
    shadow: random.chance(hard ? 0.6 : 0.22) ? random.float(0.2, hard ? 0.55 : 0.42) : 0,
    shadowAngle: random.float(0, Math.PI * 2),
    shadowOffset: random.float(-0.35, 0.35),
    warmth: random.float(-0.05, 0.08),
    exposure: random.float(0.92, 1.08),
    ...overrides.light,
  };

  const camera: CameraStyle = {
    tilt: random.normal(0, 1.2),
    keystone: random.normal(0, 0.05),
    yaw: random.normal(0, 0.05),
    noise: random.float(1.5, hard ? 9 : 6),
    softness: random.chance(0.4) ? random.float(0.3, 0.9) : 0,
    jpegQuality: random.int(hard ? 55 : 68, 92),
    ...overrides.camera,
  };

  return {
    seed: overrides.seed ?? seed,
    width,
    height,
    text: cased,
    lines,
    wall,
    writing,
    light,
    camera,
    hard,
  };
}

function chooseWall(random: Random, kind: WallKind, width: number): WallStyle {
  const wear = random.float(0.1, 1);
  const clutter = random.float(0, 1);
  const ground: GroundKind = random.chance(kind === 'tiles' ? 0.1 : 0.3)
    ? random.weighted<GroundKind>([
        ['asphalt', 2],
        ['cobbles', 2],
        ['slabs', 1],
      ])
    : 'none';
  const base = {
    kind,
    wear,
    clutter,
    plinth: 0,
    plinthColour: random.pick(PLINTH),
    ground,
    groundLevel: random.float(0.8, 0.9),
  };
  switch (kind) {
    case 'plaster':
      return {
        ...base,
        colour: jitterColour(random.pick(PLASTER), random, 0.05),
        accent: random.pick(BRICK),
        scale: Math.round(width * random.float(0.08, 0.12)),
        plinth: ground !== 'none' && random.chance(0.6) ? random.float(0.08, 0.16) : 0,
      };
    case 'brick':
      return {
        ...base,
        colour: jitterColour(random.pick(BRICK), random, 0.05),
        accent: random.pick(MORTAR),
        scale: Math.round(width * random.float(0.075, 0.13)),
      };
    case 'concrete':
      return {
        ...base,
        colour: jitterColour(random.pick(CONCRETE), random, 0.05),
        accent: '#5f5d58',
        scale: Math.round(width * random.float(0.3, 0.55)),
      };
    case 'tiles':
      return {
        ...base,
        colour: jitterColour(random.pick(TILES), random, 0.02),
        accent: random.pick(GROUT),
        scale: Math.round(width * random.float(0.05, 0.085)),
        wear: wear * 0.5,
        clutter: clutter * 0.5,
      };
    case 'wood':
      return {
        ...base,
        colour: jitterColour(random.pick(WOOD_PAINT), random, 0.05),
        accent: random.pick(BARE_WOOD),
        scale: Math.round(width * random.float(0.07, 0.12)),
        clutter: clutter * 0.6,
      };
    case 'shutter':
      return {
        ...base,
        colour: jitterColour(random.pick(SHUTTER), random, 0.05),
        accent: random.pick(RUST),
        scale: Math.round(width * random.float(0.016, 0.026)),
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Noise

/*
 * One table of uniform noise, made once from a fixed seed. Pictures take windows of it at
 * seed-dependent offsets for their per-pixel randomness (grain, sensor noise, chalk and spray
 * mist): a window is free, where a generator call per pixel would not be.
 */
const NOISE_SIZE = 1 << 21;
let noiseTable: Float32Array | undefined;

function noise(): Float32Array {
  if (noiseTable === undefined) {
    const random = new Random(0x6d757269);
    noiseTable = new Float32Array(NOISE_SIZE);
    for (let i = 0; i < NOISE_SIZE; i++) noiseTable[i] = random.next();
  }
  return noiseTable;
}

/** A window of `length` noise values that depends on the random stream. */
function noiseWindow(random: Random, length: number): Float32Array {
  const start = random.int(0, NOISE_SIZE - length - 1);
  return noise().subarray(start, start + length);
}

/** Integer hash of two cell coordinates and a seed → [0, 1): per-brick and per-tile variety. */
function cellHash(a: number, b: number, seed: number): number {
  let h = Math.imul(a, 374761393) ^ Math.imul(b, 668265263) ^ seed;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Fractal value noise in about [-1, 1]; periodic on request, so that it tiles. */
function fbm(
  width: number,
  height: number,
  cellX: number,
  cellY: number,
  octaves: number,
  random: Random,
  periodic = false,
): Float32Array {
  const out = new Float32Array(width * height);
  let amplitude = 1;
  let total = 0;
  for (let octave = 0; octave < octaves; octave++) {
    const cx = Math.max(1, cellX / 2 ** octave);
    const cy = Math.max(1, cellY / 2 ** octave);
    // A periodic grid wraps around (its size divides the field's), so the field tiles seamlessly.
    const gw = periodic ? Math.round(width / cx) : Math.ceil(width / cx) + 2;
    const gh = periodic ? Math.round(height / cy) : Math.ceil(height / cy) + 2;
    const grid = new Float32Array(gw * gh);
    for (let i = 0; i < grid.length; i++) grid[i] = random.next() * 2 - 1;
    for (let y = 0; y < height; y++) {
      const fy = y / cy;
      const y0 = Math.floor(fy);
      let ty = fy - y0;
      ty = ty * ty * (3 - 2 * ty);
      const row0 = (y0 % gh) * gw;
      const row1 = ((y0 + 1) % gh) * gw;
      for (let x = 0; x < width; x++) {
        const fx = x / cx;
        const x0 = Math.floor(fx);
        let tx = fx - x0;
        tx = tx * tx * (3 - 2 * tx);
        const xa = x0 % gw;
        const xb = (x0 + 1) % gw;
        const a = grid[row0 + xa] ?? 0;
        const b = grid[row0 + xb] ?? 0;
        const c = grid[row1 + xa] ?? 0;
        const d = grid[row1 + xb] ?? 0;
        const top = a + (b - a) * tx;
        const i = y * width + x;
        out[i] = (out[i] ?? 0) + amplitude * (top + (c + (d - c) * tx - top) * ty);
      }
    }
    total += amplitude;
    amplitude *= 0.55;
  }
  // Sums of smoothed values bunch up around 0; stretch them back to roughly ±1.
  const gain = 1.8 / total;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * gain;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The wall, on a texture smaller than the picture

/**
 * How many times smaller than the picture the wall texture is painted. Soft surfaces take 3
 * (a ninth of the pixels); surfaces with thin straight lines (grout, slat joints, plank gaps)
 * take 2, or their lines turn into staircases when stretched.
 */
function textureScale(kind: WallKind): number {
  return kind === 'tiles' ? 2 : 3;
}

interface Canvas {
  /** Picture size. */
  width: number;
  height: number;
  /** Texture size (width / scale). */
  scale: number;
  cw: number;
  ch: number;
  /** Interleaved RGB in 0–255 floats, cw × ch. */
  rgb: Float32Array;
  /** Picture coordinates of each texture pixel after the camera transform: where on the wall. */
  wx: Float32Array;
  wy: Float32Array;
  /** Large soft blotches, about [-1, 1]. */
  blotch: Float32Array;
  /** Small-scale roughness, about [-1, 1]. */
  detail: Float32Array;
  /** Per-pixel white noise, [0, 1). */
  grain: Float32Array;
  seed: number;
  /** Pooled arrays this picture holds, returned when it is done with them. */
  scratch: Float32Array[];
}

/*
 * Noise fields come from three large tiles made once (periodic, so windows may wrap around):
 * soft blotches, fine roughness and vertical streaks. A picture copies windows of them at
 * seed-dependent offsets, which costs a memory copy instead of computing fractal noise for
 * every picture.
 */
type TileName = 'blotch' | 'detail' | 'streaks';
const TILE = 1024;
const TILE_CELLS: Record<TileName, readonly [cellX: number, cellY: number, octaves: number]> = {
  blotch: [128, 128, 4],
  detail: [8, 8, 3],
  streaks: [2, 128, 3],
};
const tiles = new Map<TileName, Float32Array>();

function noiseTile(name: TileName): Float32Array {
  let tile = tiles.get(name);
  if (tile === undefined) {
    const [cellX, cellY, octaves] = TILE_CELLS[name];
    tile = fbm(TILE, TILE, cellX, cellY, octaves, new Random(`tile:${name}`), true);
    tiles.set(name, tile);
  }
  return tile;
}

/** A texture-sized window of a noise tile, at an offset drawn from `random`. */
function field(canvas: Canvas, name: TileName, random: Random): Float32Array {
  const tile = noiseTile(name);
  const { cw, ch } = canvas;
  const out = takeScratch(canvas, cw * ch);
  const ox = random.int(0, TILE - 1);
  const oy = random.int(0, TILE - 1);
  for (let y = 0; y < ch; y++) {
    const row = ((y + oy) % TILE) * TILE;
    let x = 0;
    while (x < cw) {
      const start = (x + ox) % TILE;
      const run = Math.min(cw - x, TILE - start);
      out.set(tile.subarray(row + start, row + start + run), y * cw + x);
      x += run;
    }
  }
  return out;
}

/*
 * Texture-sized scratch arrays are handed from one picture to the next instead of being left to
 * the garbage collector: a batch of pictures allocates the same dozen arrays hundreds of times,
 * and collecting them cost more than some of the painting. Every array taken is entirely
 * overwritten before it is read, so reuse cannot change a picture.
 */
const scratchPool = new Map<number, Float32Array[]>();

function takeScratch(canvas: Canvas, length: number): Float32Array {
  const array = scratchPool.get(length)?.pop() ?? new Float32Array(length);
  canvas.scratch.push(array);
  return array;
}

function returnScratch(canvas: Canvas): void {
  for (const array of canvas.scratch) {
    let free = scratchPool.get(array.length);
    if (free === undefined) {
      free = [];
      scratchPool.set(array.length, free);
    }
    if (free.length < 12) free.push(array);
  }
  canvas.scratch.length = 0;
}

/**
 * Lets go of the noise tables and scratch arrays (some 40 MB) once a batch of pictures is done;
 * the next picture rebuilds them.
 */
export function releaseRenderCaches(): void {
  tiles.clear();
  scratchPool.clear();
  noiseTable = undefined;
}

function newCanvas(spec: WallWritingSpec, random: Random): Canvas {
  const { width, height, camera } = spec;
  const scale = textureScale(spec.wall.kind);
  const cw = Math.ceil(width / scale);
  const ch = Math.ceil(height / scale);
  const n = cw * ch;
  const cos = Math.cos((camera.tilt * Math.PI) / 180);
  const sin = Math.sin((camera.tilt * Math.PI) / 180);
  const canvas: Canvas = {
    width,
    height,
    scale,
    cw,
    ch,
    rgb: new Float32Array(0),
    wx: new Float32Array(0),
    wy: new Float32Array(0),
    blotch: new Float32Array(0),
    detail: new Float32Array(0),
    grain: noiseWindow(random, n),
    seed: random.seed(),
    scratch: [],
  };
  const wx = takeScratch(canvas, n);
  const wy = takeScratch(canvas, n);
  for (let y = 0, i = 0; y < ch; y++) {
    const dy = (y + 0.5) * scale - height / 2;
    for (let x = 0; x < cw; x++, i++) {
      const dx = (x + 0.5) * scale - width / 2;
      // Perspective: the far side of the wall looks smaller, so its pattern looks denser.
      const depth = 1 + (camera.keystone * dy) / height + (camera.yaw * dx) / width;
      wx[i] = width / 2 + (dx * cos - dy * sin) / depth;
      wy[i] = height / 2 + (dx * sin + dy * cos) / depth;
    }
  }
  canvas.wx = wx;
  canvas.wy = wy;
  canvas.rgb = takeScratch(canvas, n * 3);
  canvas.blotch = field(canvas, 'blotch', random);
  canvas.detail = field(canvas, 'detail', random);
  return canvas;
}

function smooth(edge: number): number {
  return edge <= -0.5 ? 0 : edge >= 0.5 ? 1 : edge + 0.5;
}

/*
 * The painters below each run one loop over the texture, with everything they need in local
 * variables: they run for hundreds of thousands of pixels per picture.
 */

/** Brick bond; also the brick under peeled plaster. */
function paintBrick(
  wall: { colour: string; accent: string; scale: number },
  canvas: Canvas,
  random: Random,
): void {
  const [br, bg, bb] = hex(wall.colour);
  const [mr, mg, mb] = hex(wall.accent);
  const bw = wall.scale;
  const bh = bw * random.float(0.3, 0.4);
  const mortar = Math.max(3, bw * random.float(0.05, 0.09)) / 2;
  const ox = random.float(0, bw);
  const oy = random.float(0, bh);
  const seed = canvas.seed;
  const { wx, wy, detail, blotch, grain } = canvas;
  // Neighbouring pixels mostly fall in the same brick: its hashes are computed once.
  let lastRow = Number.NaN;
  let lastCol = Number.NaN;
  let rowShift = 0;
  let h = 0;
  let h2 = 0;
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const yy = (wy[i] ?? 0) + oy;
    const row = Math.floor(yy / bh);
    const v = yy - row * bh;
    if (row !== lastRow) {
      rowShift = ox + (row & 1 ? bw / 2 : 0) + cellHash(row, 7, seed) * bw * 0.2;
      lastCol = Number.NaN;
    }
    const xs = (wx[i] ?? 0) + rowShift;
    const col = Math.floor(xs / bw);
    const u = xs - col * bw;
    if (row !== lastRow || col !== lastCol) {
      h = cellHash(row, col, seed);
      h2 = cellHash(col, row, seed ^ 0x5bd1e995);
      lastRow = row;
      lastCol = col;
    }
    const d = detail[i] ?? 0;
    const g = grain[i] ?? 0;
    const b = blotch[i] ?? 0;
    const edge = Math.min(u, bw - u, v, bh - v) - mortar + d * 2.5;
    // Mortar sits back from the face: darker, rough, dusty.
    const ms = (0.7 + 0.18 * d + 0.2 * g) * (1 + 0.1 * b);
    let s = (0.8 + 0.32 * h) * (h2 > 0.9 ? 0.68 : 1) * (1 + 0.16 * d + 0.14 * (g - 0.5));
    s *= 1 + 0.14 * b;
    // A bevel: the top edge catches the light, the bottom edge is in shadow.
    if (edge < 3) s *= v < bh / 2 ? 1.07 : 0.84;
    const t = smooth(edge);
    out[o] = mr * ms + (br * s * (1 + (h2 - 0.5) * 0.14) - mr * ms) * t;
    out[o + 1] = mg * ms + (bg * s * (1 + (h - 0.5) * 0.18) - mg * ms) * t;
    out[o + 2] = mb * ms + (bb * s - mb * ms) * t;
  }
}

function paintPlaster(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { blotch, detail, grain, wy } = canvas;
  const [r, g, b] = hex(wall.colour);
  const [pr, pg, pb] = hex(wall.plinthColour);
  const plinthTop = (wall.groundLevel - wall.plinth) * canvas.height;
  // Peeling only on worn walls, in a few patches; under it the brick or the grey render coat.
  const peel = wall.wear > 0.55 ? field(canvas, 'blotch', random) : new Float32Array(0);
  const peelLevel = 1.05 - (wall.wear - 0.55) * 0.7;
  const under = {
    colour: jitterColour(wall.accent, random, 0.05),
    accent: random.pick(MORTAR),
    scale: Math.round(canvas.width * 0.09),
  };
  const underRandom = random.fork('under');
  if (peel.length > 0) paintBrick(under, canvas, underRandom);
  const rough = random.float(0.06, 0.14);
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const p = peel.length > 0 ? (peel[i] ?? 0) + 0.15 * (detail[i] ?? 0) : -9;
    const d = detail[i] ?? 0;
    // The paint around a peeled patch lifts and casts a thin shadow.
    const lift = p > peelLevel - 0.05 ? 0.82 : 1;
    const s = (1 + 0.11 * (blotch[i] ?? 0) + rough * d + 0.1 * ((grain[i] ?? 0) - 0.5)) * lift;
    let cr = r * s;
    let cg = g * s;
    let cb = b * s;
    if (wall.plinth > 0 && (wy[i] ?? 0) > plinthTop + d * 2) {
      const edge = (wy[i] ?? 0) - plinthTop < 4 ? 1.12 : 1;
      cr = pr * s * edge;
      cg = pg * s * edge;
      cb = pb * s * edge;
    }
    if (p > peelLevel - 0.02) {
      // Where the plaster has come off: at the edge the grey render coat, deeper in the brick
      // painted above; short ramps between them keep the edges from turning into staircases.
      const gs = 0.6 + 0.3 * (grain[i] ?? 0);
      const deep = Math.max(0, Math.min(1, (p - peelLevel - 0.06) * 18));
      const gr = 176 * gs + ((out[o] ?? 0) - 176 * gs) * deep;
      const gg = 170 * gs + ((out[o + 1] ?? 0) - 170 * gs) * deep;
      const gb = 158 * gs + ((out[o + 2] ?? 0) - 158 * gs) * deep;
      const off = Math.max(0, Math.min(1, (p - peelLevel) * 18 + 0.5));
      cr += (gr - cr) * off;
      cg += (gg - cg) * off;
      cb += (gb - cb) * off;
    }
    out[o] = cr;
    out[o + 1] = cg;
    out[o + 2] = cb;
  }
}

function paintConcrete(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { blotch, detail, grain, wx, wy } = canvas;
  const [r, g, b] = hex(wall.colour);
  const panelW = wall.scale;
  const panelH = wall.scale * random.float(0.45, 0.7);
  const ox = random.float(0, panelW);
  const oy = random.float(0, panelH);
  const boards = random.chance(0.5) ? random.float(18, 32) : 0;
  const holes = random.chance(0.7);
  const holeR = random.float(5, 9);
  const seed = canvas.seed;
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const yy = (wy[i] ?? 0) + oy;
    const xx = (wx[i] ?? 0) + ox;
    const prow = Math.floor(yy / panelH);
    const v = yy - prow * panelH;
    const pcol = Math.floor(xx / panelW);
    const u = xx - pcol * panelW;
    const g0 = grain[i] ?? 0;
    const board = boards > 0 ? cellHash(Math.floor(yy / boards), pcol, seed) - 0.5 : 0;
    let s =
      1 +
      0.13 * (blotch[i] ?? 0) +
      0.09 * (detail[i] ?? 0) +
      0.12 * (g0 - 0.5) +
      (cellHash(prow, pcol, seed) - 0.5) * 0.08 +
      board * 0.06;
    // Air bubbles of poured concrete: tiny dark pits.
    if (g0 > 0.993) s *= 0.55;
    const seam = Math.min(u, panelW - u, v, panelH - v);
    if (seam < 2) s *= 0.68;
    else if (seam < 4) s *= 1.07;
    if (holes) {
      const hx = u - panelW * (u < panelW / 2 ? 0.25 : 0.75);
      const hy = v - panelH * (v < panelH / 2 ? 0.25 : 0.75);
      const dist = Math.sqrt(hx * hx + hy * hy);
      if (dist < holeR) s *= 0.42 + 0.3 * (dist / holeR);
      else if (dist < holeR + 2.5) s *= 1.08;
    }
    out[o] = r * s;
    out[o + 1] = g * s;
    out[o + 2] = b * s;
  }
}

function paintTiles(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { blotch, detail, grain, wx, wy } = canvas;
  const [r, g, b] = hex(wall.colour);
  const [gr, gg, gb] = hex(wall.accent);
  const size = wall.scale;
  const tall = random.chance(0.3);
  const tileH = size * (tall ? 2 : 1);
  const grout = random.float(2.5, 4.5) / 2;
  const ox = random.float(0, size);
  const oy = random.float(0, tileH);
  // A row of coloured tiles, as in stairwells and underpasses; only with square tiles.
  const band = !tall && random.chance(0.3) ? random.int(1, 5) : -99;
  const [ar, ag, ab] = hex(random.pick(['#2d5f8a', '#8a3b2d', '#2d6b4a', '#c9a13b', '#333333']));
  const seed = canvas.seed;
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const yy = (wy[i] ?? 0) + oy;
    const xx = (wx[i] ?? 0) + ox;
    const row = Math.floor(yy / tileH);
    const v = yy - row * tileH;
    const col = Math.floor(xx / size);
    const u = xx - col * size;
    const edge = Math.min(u, size - u, v, tileH - v) - grout;
    const g0 = grain[i] ?? 0;
    const gs = 0.78 + 0.2 * g0 + 0.12 * (detail[i] ?? 0);
    const h = cellHash(row, col, seed) - 0.5;
    let s = 1 + h * 0.07 + 0.03 * (blotch[i] ?? 0) + 0.025 * (g0 - 0.5);
    // Glazed tiles are slightly domed: a bright rim top-left, a darker one bottom-right.
    if (edge < 2.5) s *= u < size / 2 && v < tileH / 2 ? 1.05 : 0.9;
    const accent = row % 7 === band || row % 7 === band - 7;
    const t = smooth(edge);
    out[o] = gr * gs + ((accent ? ar : r) * s - gr * gs) * t;
    out[o + 1] = gg * gs + ((accent ? ag : g) * s - gg * gs) * t;
    out[o + 2] = gb * gs + ((accent ? ab : b) * s - gb * gs) * t;
  }
}

function paintWood(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { blotch, detail, grain, wx } = canvas;
  const [r, g, b] = hex(wall.colour);
  const [wr, wg, wb] = hex(wall.accent);
  const plank = wall.scale;
  const ox = random.float(0, plank);
  const fibres = field(canvas, 'streaks', random);
  const wear = field(canvas, 'blotch', random);
  const wearLevel = 1 - wall.wear * 0.8;
  const seed = canvas.seed;
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const xx = (wx[i] ?? 0) + ox;
    const col = Math.floor(xx / plank);
    const u = xx - col * plank;
    const f = fibres[i] ?? 0;
    const h = cellHash(col, 11, seed) - 0.5;
    const g0 = grain[i] ?? 0;
    const gap = Math.min(u, plank - u) - 1.5;
    const edgeShade = gap < 4 ? 0.8 : 1;
    // Wear follows the grain: patches frayed along the fibres.
    const worn = (wear[i] ?? 0) + 0.35 * f + 0.2 * (detail[i] ?? 0);
    // Paint worn through shows bare, greyed wood with strong grain; the edge is a short ramp so
    // it does not turn into a staircase when stretched.
    const bare = Math.max(0, Math.min(1, (worn - wearLevel) * 25));
    const ps = (1 + 0.1 * f + 0.07 * (blotch[i] ?? 0) + 0.05 * (g0 - 0.5) + h * 0.06) * edgeShade;
    const ws = (0.8 + 0.3 * f + 0.08 * g0 + h * 0.1) * edgeShade;
    const cr = r * ps + (wr * ws - r * ps) * bare;
    const cg = g * ps + (wg * ws - g * ps) * bare;
    const cb = b * ps + (wb * ws - b * ps) * bare;
    const t = smooth(gap);
    out[o] = 28 + (cr - 28) * t;
    out[o + 1] = 22 + (cg - 22) * t;
    out[o + 2] = 16 + (cb - 16) * t;
  }
}

const PROFILE_STEPS = 512;

function paintShutter(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { blotch, detail, grain, wy } = canvas;
  const [r, g, b] = hex(wall.colour);
  const [rr, rg, rb] = hex(wall.accent);
  const slat = wall.scale;
  const oy = random.float(0, slat);
  // The profile of a rolling-shutter slat: a rounded face, a dark joint and a bright lip under
  // it, as smooth functions so the joints stay straight lines when stretched. Tabulated, as
  // exp and sin per pixel would cost more than the rest of the wall.
  const jointWidth = 1.5 / slat;
  const profiles = new Float32Array(PROFILE_STEPS + 1);
  for (let k = 0; k <= PROFILE_STEPS; k++) {
    const v = k / PROFILE_STEPS;
    const joint = Math.min(v, 1 - v) / jointWidth;
    const lip = (v - jointWidth * 2.2) / jointWidth;
    profiles[k] =
      (0.84 + 0.28 * Math.sin(Math.PI * v)) * (1 - 0.5 * Math.exp(-joint * joint)) +
      0.16 * Math.exp(-lip * lip);
  }
  // Grime and rust run down in streaks; rust gathers at the joints and near the ground.
  const streaks = field(canvas, 'streaks', random);
  const rust = field(canvas, 'blotch', random);
  const rustLevel = 1.4 - wall.wear * 0.6;
  const height = canvas.height;
  const out = canvas.rgb;
  const n = canvas.cw * canvas.ch;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const y = wy[i] ?? 0;
    const v = ((((y + oy) % slat) + slat) % slat) / slat;
    const profile = profiles[Math.floor(v * PROFILE_STEPS)] ?? 1;
    const g0 = grain[i] ?? 0;
    const st = streaks[i] ?? 0;
    const s =
      profile *
      (1 + 0.08 * (blotch[i] ?? 0) + 0.05 * (detail[i] ?? 0) + 0.06 * (g0 - 0.5)) *
      (1 - 0.14 * Math.max(0, st));
    const rusty =
      (rust[i] ?? 0) +
      0.4 * st +
      (y / height) * 0.5 * wall.wear +
      (v < 0.2 ? 0.25 : 0) +
      0.15 * (detail[i] ?? 0);
    // Rust is dark and dull, never brighter than the metal's own profile allows.
    const t = Math.max(0, Math.min(0.7, (rusty - rustLevel) * 2.5));
    const rs = s * (1 - 0.25 * t);
    out[o] = (r * (1 - t) + rr * t) * rs;
    out[o + 1] = (g * (1 - t) + rg * t) * rs;
    out[o + 2] = (b * (1 - t) + rb * t) * rs;
  }
}

/** The pavement at the foot of the wall, foreshortened: rows get taller towards the camera. */
function paintGround(canvas: Canvas, wall: WallStyle, random: Random): void {
  if (wall.ground === 'none') return;
  const { cw, ch, rgb, wx, wy, grain, detail, blotch, height, width } = canvas;
  const level = wall.groundLevel * height;
  const depth = height - level;
  const seed = canvas.seed ^ 0x9e3779b9;
  const base = hex(
    wall.ground === 'asphalt'
      ? random.pick(['#4a4a4c', '#56554f', '#3e3f42'])
      : wall.ground === 'cobbles'
        ? random.pick(['#5b5a57', '#6a655c', '#4f4e4c'])
        : random.pick(['#8e8a82', '#a09a8e', '#7d7a74']),
  );
  const stone = wall.ground === 'cobbles' ? random.float(34, 48) : random.float(110, 160);
  for (let i = 0; i < cw * ch; i++) {
    // Rows wholly above the ground and its shadow are left alone (the camera keeps rows nearly
    // level, so the two ends of a row bound it).
    if (i % cw === 0 && Math.max(wy[i] ?? 0, wy[i + cw - 1] ?? 0) < level - 48) {
      i += cw - 1;
      continue;
    }
    const y = wy[i] ?? 0;
    const o = i * 3;
    const above = level - y;
    if (above > 0) {
      // Dirt and shadow gather where the wall meets the ground.
      if (above < 40) {
        const f = 1 - 0.35 * (1 - above / 40) ** 2;
        rgb[o] = (rgb[o] ?? 0) * f;
        rgb[o + 1] = (rgb[o + 1] ?? 0) * f;
        rgb[o + 2] = (rgb[o + 2] ?? 0) * f;
      }
      continue;
    }
    const d = -above / depth;
    const g0 = grain[i] ?? 0;
    // Closer to the camera, stones look bigger: rows follow a power of the depth.
    const rowCoord = (d ** 1.4 * depth) / (stone * 0.5);
    const row = Math.floor(rowCoord);
    const scale = 0.6 + 1.4 * d;
    const xCoord =
      ((wx[i] ?? 0) - width / 2) / (stone * scale) + (row & 1 ? 0.5 : 0) + cellHash(row, 3, seed);
    const col = Math.floor(xCoord);
    let s = 0.85 + 0.25 * g0 + 0.12 * (blotch[i] ?? 0);
    if (wall.ground === 'asphalt') {
      s = 0.8 + 0.45 * g0 * g0 + 0.08 * (detail[i] ?? 0);
    } else {
      const u = xCoord - col;
      const v = rowCoord - row;
      const gapX = wall.ground === 'cobbles' ? 0.1 : 0.02;
      const gapY = wall.ground === 'cobbles' ? 0.12 : 0.04;
      s *= 0.8 + 0.4 * cellHash(row, col, seed);
      if (u < gapX || u > 1 - gapX || v < gapY || v > 1 - gapY) s *= 0.5;
      else if (wall.ground === 'cobbles') {
        // Worn, rounded stone tops catch the light.
        s *= 0.85 + 0.35 * Math.sin(Math.PI * u) * Math.sin(Math.PI * v);
      }
    }
    // The far strip of pavement is in the wall's shadow.
    s *= 0.75 + 0.25 * Math.min(1, d * 4);
    rgb[o] = base[0] * s;
    rgb[o + 1] = base[1] * s;
    rgb[o + 2] = base[2] * s;
  }
}

// ---------------------------------------------------------------------------------------------
// Marks already on the wall (texture coordinates)

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** A box of the given size on the wall, away from the main writing when there is room. */
function placeAway(canvas: Canvas, w: number, h: number, avoid: Box, random: Random): Box {
  let box: Box = { left: 0, top: 0, right: w, bottom: h };
  for (let attempt = 0; attempt < 16; attempt++) {
    const left = random.float(-w * 0.25, canvas.cw - w * 0.75);
    const top = random.float(-h * 0.2, canvas.ch * 0.85 - h * 0.8);
    box = { left, top, right: left + w, bottom: top + h };
    if (!overlaps(box, avoid)) return box;
  }
  return box;
}

function eachIn(canvas: Canvas, box: Box, visit: (x: number, y: number, i: number) => void): void {
  const x0 = Math.max(0, Math.floor(box.left));
  const x1 = Math.min(canvas.cw, Math.ceil(box.right));
  const y0 = Math.max(0, Math.floor(box.top));
  const y1 = Math.min(canvas.ch, Math.ceil(box.bottom));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) visit(x, y, y * canvas.cw + x);
  }
}

function darken(rgb: Float32Array, i: number, f: number): void {
  const o = i * 3;
  rgb[o] = (rgb[o] ?? 0) * f;
  rgb[o + 1] = (rgb[o + 1] ?? 0) * f;
  rgb[o + 2] = (rgb[o + 2] ?? 0) * f;
}

function addStains(canvas: Canvas, wall: WallStyle, random: Random): void {
  const { cw, ch, rgb, blotch, detail } = canvas;
  const floor = wall.ground === 'none' ? ch : (wall.groundLevel * canvas.height) / canvas.scale;
  // Rain grime running down from a sill or a gutter above.
  const streaks = Math.round(wall.wear * random.int(0, 6));
  for (let s = 0; s < streaks; s++) {
    const cx = random.float(0, cw);
    const w = random.float(8, 45);
    const len = random.float(0.2, 0.9) * ch;
    const dark = random.float(0.06, 0.2);
    eachIn(canvas, { left: cx - w, top: 0, right: cx + w, bottom: len }, (x, y, i) => {
      const across = 1 - Math.abs(x - cx + (detail[i] ?? 0) * 6) / w;
      if (across > 0) darken(rgb, i, 1 - dark * Math.min(1, across * 2) * (1 - y / len));
    });
  }
  // Damp rising from the pavement.
  if (wall.kind !== 'tiles' && wall.kind !== 'shutter' && random.chance(wall.wear * 0.8)) {
    const level = floor - ch * random.float(0.1, 0.25);
    const dark = random.float(0.1, 0.22);
    eachIn(canvas, { left: 0, top: level - 50, right: cw, bottom: floor }, (_x, y, i) => {
      const edge = level + (blotch[i] ?? 0) * 40 + (detail[i] ?? 0) * 6;
      if (y >= edge) darken(rgb, i, 1 - dark * Math.min(1, 0.6 + (y - edge) / 100));
      else if (y > edge - 3) darken(rgb, i, 1 - dark * 0.8);
    });
  }
  // Water stains with a darker tide line.
  const blots = Math.round(wall.wear * random.int(0, 3));
  for (let s = 0; s < blots; s++) {
    const cx = random.float(0, cw);
    const cy = random.float(0, floor);
    const rx = random.float(20, 90);
    const ry = rx * random.float(0.6, 1.6);
    const dark = random.float(0.04, 0.12);
    const box = {
      left: cx - rx * 1.4,
      top: cy - ry * 1.4,
      right: cx + rx * 1.4,
      bottom: cy + ry * 1.4,
    };
    eachIn(canvas, box, (x, y, i) => {
      const dx = (x - cx) / rx;
      const dy = (y - cy) / ry;
      const d = Math.sqrt(dx * dx + dy * dy) + (blotch[i] ?? 0) * 0.4 + (detail[i] ?? 0) * 0.1;
      // Darker towards the tide line, fading out just past it.
      if (d <= 1.05) darken(rgb, i, 1 - dark * (d > 0.8 ? 1 + (1.05 - d) * 2 : 0.6 + d * 0.5));
    });
  }
}

function addCracks(canvas: Canvas, wall: WallStyle, random: Random): void {
  if (wall.kind !== 'plaster' && wall.kind !== 'concrete') return;
  const count = Math.round(wall.wear * random.int(0, 3));
  const { cw, ch, rgb } = canvas;
  for (let c = 0; c < count; c++) {
    let x = random.float(0, cw);
    let y = random.float(0, ch);
    let angle = random.float(0, Math.PI * 2);
    const steps = random.int(60, 260);
    for (let s = 0; s < steps; s++) {
      angle += random.normal(0, 0.3);
      x += Math.cos(angle);
      y += Math.sin(angle);
      const xi = Math.round(x);
      const yi = Math.round(y);
      if (xi < 0 || xi >= cw || yi < 0 || yi >= ch - 1) continue;
      const i = yi * cw + xi;
      darken(rgb, i, 0.5);
      // The lower lip of the crack catches the light.
      darken(rgb, i + cw, 1.1);
    }
  }
}

/** Painted-over patches: the grey or beige squares over older graffiti. */
function addBuffPatches(canvas: Canvas, wall: WallStyle, avoid: Box, random: Random): void {
  if (wall.kind === 'tiles') return;
  const count = random.chance(wall.clutter * 0.7) ? random.int(1, 2) : 0;
  const [wr, wg, wb] = hex(wall.colour);
  const { rgb, detail } = canvas;
  for (let p = 0; p < count; p++) {
    const [pr, pg, pb] = hex(jitterColour(wall.colour, random, 0.1));
    const w = random.float(0.15, 0.4) * canvas.cw;
    const h = random.float(0.1, 0.3) * canvas.ch;
    const box = placeAway(canvas, w, h, avoid, random);
    const fr = pr / Math.max(1, wr);
    const fg = pg / Math.max(1, wg);
    const fb = pb / Math.max(1, wb);
    eachIn(canvas, box, (x, y, i) => {
      // Roller edges are ragged.
      const edge = Math.min(x - box.left, box.right - x, y - box.top, box.bottom - y);
      if (edge + (detail[i] ?? 0) * 4 < 1) return;
      const o = i * 3;
      rgb[o] = (rgb[o] ?? 0) * fr;
      rgb[o + 1] = (rgb[o + 1] ?? 0) * fg;
      rgb[o + 2] = (rgb[o + 2] ?? 0) * fb;
    });
  }
}

/** Remnants of posters: torn, weathered paper with blocks of faded print and no words. */
function addPosters(canvas: Canvas, wall: WallStyle, avoid: Box, random: Random): void {
  if (wall.kind === 'tiles' || wall.kind === 'wood') return;
  const count = random.chance(wall.clutter * 0.45) ? random.int(1, 3) : 0;
  const { rgb, detail, blotch, grain } = canvas;
  const area = placeAway(canvas, canvas.cw * 0.3, canvas.ch * 0.4, avoid, random);
  for (let p = 0; p < count; p++) {
    const w = random.float(0.12, 0.22) * canvas.cw;
    const h = w * random.float(1.2, 1.45);
    const left = area.left + random.float(-0.3, 0.6) * w;
    const top = area.top + random.float(-0.2, 0.4) * h;
    const box = { left, top, right: left + w, bottom: top + h };
    const paper = hex(
      random.pick(['#ece6d6', '#f3efe4', '#e8dcc0', '#f0e4a8', '#dfe6ea', '#f2d0c0']),
    );
    const ink = hex(random.pick(['#b3261e', '#1d3f8f', '#222222', '#2d6b4a', '#c46a1a']));
    const tearTop = h * random.float(0, 0.3);
    const tearBottom = h * random.float(0.4, 1);
    const blocks: Box[] = [];
    for (let k = random.int(2, 5); k > 0; k--) {
      const bw = w * random.float(0.3, 0.85);
      const bh = h * random.float(0.03, 0.12);
      const bl = left + random.float(0.08, 0.92) * (w - bw);
      const bt = top + random.float(0.06, 0.9) * h;
      blocks.push({ left: bl, top: bt, right: bl + bw, bottom: bt + bh });
    }
    const fade = random.float(0.25, 0.6);
    const age = random.float(0.75, 0.95);
    eachIn(canvas, box, (x, y, i) => {
      const d = detail[i] ?? 0;
      const b = blotch[i] ?? 0;
      const yy = y - top;
      if (yy > tearBottom + d * 25 + b * 40 || yy < tearTop + d * 20 - b * 30) return;
      const o = i * 3;
      let [r, g, bl] = paper;
      for (const block of blocks) {
        if (x >= block.left && x < block.right && y >= block.top && y < block.bottom) {
          r = r * (1 - fade) + ink[0] * fade;
          g = g * (1 - fade) + ink[1] * fade;
          bl = bl * (1 - fade) + ink[2] * fade;
        }
      }
      // Glue and weather: the paper takes on the wall's dirt and yellows.
      const s = age + 0.12 * d + 0.06 * (grain[i] ?? 0) + 0.05 * b;
      rgb[o] = r * s;
      rgb[o + 1] = g * s * 0.98;
      rgb[o + 2] = bl * s * 0.92;
    });
  }
}

/** Stamps a round brush along a path, in texture pixels. */
function stroke(
  canvas: Canvas,
  points: readonly (readonly [number, number])[],
  radius: number,
  colour: Rgb,
  opacity: number,
): void {
  const { cw, ch, rgb } = canvas;
  const coverage = new Map<number, number>();
  for (let k = 1; k < points.length; k++) {
    const [ax, ay] = points[k - 1] ?? [0, 0];
    const [bx, by] = points[k] ?? [0, 0];
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) * 1.5));
    for (let s = 0; s <= steps; s++) {
      const cx = ax + ((bx - ax) * s) / steps;
      const cy = ay + ((by - ay) * s) / steps;
      for (let y = Math.floor(cy - radius - 1); y <= cy + radius + 1; y++) {
        if (y < 0 || y >= ch) continue;
        for (let x = Math.floor(cx - radius - 1); x <= cx + radius + 1; x++) {
          if (x < 0 || x >= cw) continue;
          const a = Math.max(0, Math.min(1, radius + 0.5 - Math.hypot(x - cx, y - cy)));
          if (a <= 0) continue;
          const i = y * cw + x;
          if (a > (coverage.get(i) ?? 0)) coverage.set(i, a);
        }
      }
    }
  }
  for (const [i, a] of coverage) {
    const o = i * 3;
    const t = a * opacity;
    rgb[o] = (rgb[o] ?? 0) * (1 - t) + colour[0] * t;
    rgb[o + 1] = (rgb[o + 1] ?? 0) * (1 - t) + colour[1] * t;
    rgb[o + 2] = (rgb[o + 2] ?? 0) * (1 - t) + colour[2] * t;
  }
}

/**
 * Scribbled signatures (tags): a run of cursive loops with a slant and a swoosh underneath.
 * They read as handwriting at a glance but are not letters, so OCR has nothing to find in them.
 */
function addTags(canvas: Canvas, wall: WallStyle, avoid: Box, random: Random): void {
  const most = wall.kind === 'shutter' ? 6 : wall.kind === 'tiles' ? 2 : 4;
  const count = Math.round(wall.clutter * random.int(0, most));
  for (let t = 0; t < count; t++) {
    const w = random.float(0.1, 0.24) * canvas.cw;
    const h = w * random.float(0.3, 0.5);
    const box = placeAway(canvas, w, h, avoid, random);
    const colour = hex(
      random.pick(['#151515', '#2a2a2a', '#c8c8cc', '#b3161b', '#1d3f8f', '#6b2d8c', '#f2f2ee']),
    );
    const slant = random.float(-0.5, 0.1);
    const base = box.bottom - h * 0.3;
    const loops = random.int(3, 7);
    const advance = w / (loops + 1);
    const points: [number, number][] = [];
    for (let k = 0; k < loops; k++) {
      const tall = h * random.float(0.25, 0.75);
      const loop = advance * random.float(0.4, 1.1);
      for (let s = 0; s <= 12; s++) {
        const a = (s / 12) * Math.PI * 2;
        const lift = tall * (1 - Math.cos(a)) * 0.5;
        const x = box.left + advance * (k + s / 12) - loop * Math.sin(a) * 0.5 + slant * lift;
        points.push([x, base - lift]);
      }
    }
    // The swoosh back under the name.
    const endX = points[points.length - 1]?.[0] ?? box.right;
    for (let s = 0; s <= 10; s++) {
      const f = s / 10;
      points.push([endX - f * w * 1.05, base + h * 0.25 * Math.sin(f * Math.PI) + f * h * 0.05]);
    }
    stroke(canvas, points, random.float(0.8, 2), colour, random.float(0.6, 0.92));
  }
}

// ---------------------------------------------------------------------------------------------
// The writing (picture coordinates)

interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

type Texture = 'paint' | 'spray' | 'ink' | 'chalk';

interface Layer extends Mask {
  colour: Rgb;
  opacity: number;
  texture: Texture;
}

interface Writing {
  /** Where the core layer's top-left corner lands in the picture. */
  left: number;
  top: number;
  /** The letters (and drips), at full resolution. */
  core: Layer;
  /**
   * Overspray mist, at half resolution, aligned with the core's top-left corner. It is laid on
   * the wall texture, not on the picture: a soft mist loses nothing there, and its droplets come
   * out as a few pixels wide, as real ones are.
   */
  halo: Layer | undefined;
  /** A contrasting outline, full resolution, aligned with the core. */
  outline: Layer | undefined;
  /** The inked area, for keeping clutter away. */
  box: Box;
}

function asMask(data: Buffer, width: number, height: number): Mask {
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}

async function renderText(markup: string, font: FontName, size: number): Promise<Mask> {
  const { data, info } = await sharp({
    text: {
      text: markup,
      font: fontDescription(font, size),
      fontfile: fontFile(font),
      rgba: true,
      dpi: 72,
    },
  })
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return asMask(data, info.width, info.height);
}

/** Hand-made letters: each one a little off the baseline and a little off size. */
function lineMarkup(line: string, size: number, wobble: number, random: Random): string {
  if (wobble <= 0) return escapeMarkup(line);
  let markup = '';
  for (const char of line) {
    const rise = Math.round(random.normal(0, size * 0.025 * wobble) * 1024);
    const scale = 1 + random.normal(0, 0.035 * wobble);
    markup += `<span rise="${rise}" size="${Math.round(size * scale * 1024)}">${escapeMarkup(char)}</span>`;
  }
  return markup;
}

/** The rows and columns that actually hold ink. */
function inkBox(mask: Mask): Box {
  let top = mask.height;
  let bottom = 0;
  let left = mask.width;
  let right = 0;
  for (let y = 0; y < mask.height; y++) {
    const row = y * mask.width;
    for (let x = 0; x < mask.width; x++) {
      if ((mask.data[row + x] ?? 0) > 40) {
        if (y < top) top = y;
        if (y > bottom) bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (bottom < top) return { left: 0, top: 0, right: mask.width, bottom: mask.height };
  return { left, top, right: right + 1, bottom: bottom + 1 };
}

/**
 * Paint running down from the lowest ink of a column, with a bead where it stopped. Drawn after
 * the rotation, because drips obey gravity, not the slant of the writing.
 */
function addDrips(mask: Mask, count: number, size: number, random: Random): void {
  const { data, width, height } = mask;
  for (let d = 0; d < count; d++) {
    const x = random.int(4, width - 5);
    let start = -1;
    for (let y = height - 1; y >= 0; y--) {
      if ((data[y * width + x] ?? 0) > 200) {
        start = y;
        break;
      }
    }
    if (start < 0) continue;
    // Most drips stop after a short run; a few run long.
    const radius = Math.max(1.5, size * random.float(0.018, 0.04));
    const run = size * (0.08 + 0.7 * random.next() ** 2.5);
    const end = Math.min(height - radius * 3, start + run);
    // A thinning run, and a round bead centred where it stopped.
    const bead = radius * 1.35;
    for (let y = start; y <= end + bead; y++) {
      const t = (y - start) / Math.max(1, end - start);
      const dy = y - end;
      const r = Math.max(
        y <= end ? radius * (1 - 0.35 * t) : 0,
        Math.sqrt(Math.max(0, bead * bead - dy * dy)),
      );
      for (let xx = Math.floor(x - r - 1); xx <= x + r + 1; xx++) {
        if (xx < 0 || xx >= width || y >= height) continue;
        const a = Math.max(0, Math.min(1, r + 0.5 - Math.abs(xx - x)));
        const i = y * width + xx;
        data[i] = Math.max(data[i] ?? 0, Math.round(a * 255));
      }
    }
  }
}

function maskImage(mask: Mask): Sharp {
  return sharp(mask.data, { raw: { width: mask.width, height: mask.height, channels: 1 } });
}

/**
 * One libvips pipeline per layer: scale, rotate, blur. Each layer starts from the flat block,
 * so there is no round trip between the steps, and soft layers run at half resolution.
 */
async function transformMask(
  block: Mask,
  scale: number,
  degrees: number,
  sigma: number,
): Promise<Mask> {
  let image = maskImage(block);
  if (Math.abs(scale - 1) > 0.001) {
    image = image.resize(
      Math.max(1, Math.round(block.width * scale)),
      Math.max(1, Math.round(block.height * scale)),
      { fit: 'fill' },
    );
  }
  if (Math.abs(degrees) >= 0.05)
    image = image.rotate(degrees, { background: { r: 0, g: 0, b: 0 } });
  if (sigma >= 0.3) image = image.blur(sigma);
  // libvips hands one-band images back as sRGB; extractChannel keeps the single band.
  const { data, info } = await image.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return asMask(data, info.width, info.height);
}

/** The same mask with `rows` empty rows added at the bottom (room for drips). */
function extend(mask: Mask, rows: number): Mask {
  if (rows <= 0) return mask;
  const data = new Uint8Array(mask.width * (mask.height + rows));
  data.set(mask.data);
  return { data, width: mask.width, height: mask.height + rows };
}

/** Outlines: a thickened copy of the letters (blurred, then a steep ramp keeps a soft edge). */
function thicken(mask: Mask): Mask {
  const data = new Uint8Array(mask.data.length);
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.max(0, Math.min(255, ((mask.data[i] ?? 0) - 24) * 9));
  }
  return { data, width: mask.width, height: mask.height };
}

async function layOutWriting(spec: WallWritingSpec, random: Random): Promise<Writing> {
  const { writing, width, height, wall } = spec;
  const lines = spec.lines.length > 0 ? spec.lines : [spec.text];
  const usableHeight = wall.ground === 'none' ? height : height * wall.groundLevel;

  // Measure once at a small size: widths scale with the font size.
  const probe = inkBox(await renderText(escapeMarkup(lines.join('\n')), writing.font, 40));
  const probeW = Math.max(1, probe.right - probe.left);
  const probeH = Math.max(1, probe.bottom - probe.top);
  let size = (40 * writing.widthFraction * width) / probeW;
  size = Math.min(size, (40 * 0.62 * usableHeight) / probeH);
  size = Math.max(size, spec.hard ? 30 : 44);

  const rendered = await Promise.all(
    lines.map((line) =>
      renderText(lineMarkup(line, size, writing.wobble, random.fork(line)), writing.font, size),
    ),
  );
  const boxes = rendered.map(inkBox);
  const gap = Math.round(size * random.float(0.18, 0.4));
  const widest = Math.max(...boxes.map((b) => b.right - b.left));
  // Room for the halo and the outline around the ink.
  const pad = Math.round(size * 0.3);
  const offsets = boxes.map((b) => {
    const base = writing.align === 'center' ? (widest - (b.right - b.left)) / 2 : 0;
    return Math.round(base + random.normal(0, size * 0.15));
  });
  const minOffset = Math.min(0, ...offsets);
  const inkWidth =
    Math.max(...boxes.map((b, k) => (offsets[k] ?? 0) + b.right - b.left)) - minOffset;
  let inkHeight = gap * (boxes.length - 1);
  for (const b of boxes) inkHeight += b.bottom - b.top;
  const blockWidth = inkWidth + pad * 2;
  const block: Mask = {
    data: new Uint8Array(blockWidth * (inkHeight + pad * 2)),
    width: blockWidth,
    height: inkHeight + pad * 2,
  };
  let y = pad;
  rendered.forEach((mask, k) => {
    const b = boxes[k] ?? { left: 0, top: 0, right: 0, bottom: 0 };
    const left = pad + (offsets[k] ?? 0) - minOffset;
    for (let yy = b.top; yy < b.bottom; yy++) {
      const src = yy * mask.width;
      const dst = (y + yy - b.top) * blockWidth + left - b.left;
      for (let xx = b.left; xx < b.right; xx++) {
        const v = mask.data[src + xx] ?? 0;
        if (v > (block.data[dst + xx] ?? 0)) block.data[dst + xx] = v;
      }
    }
    y += b.bottom - b.top + gap;
  });

  // The writing must fit in the frame: a slight shrink is invisible, a word cut off is not.
  const dripRoom = writing.drips > 0 ? size * 1.2 : 0;
  const angle = (Math.abs(writing.rotation) * Math.PI) / 180;
  const inkW = inkWidth * Math.cos(angle) + inkHeight * Math.sin(angle);
  const inkH = inkWidth * Math.sin(angle) + inkHeight * Math.cos(angle);
  const scale = Math.min(1, (width * 0.94) / inkW, (usableHeight * 0.9) / (inkH + dripRoom * 0.3));
  const scaledSize = size * scale;
  const rotation = writing.rotation;
  const soft = writing.kind === 'spray' || writing.kind === 'stencil';
  const coreSigma =
    writing.kind === 'spray'
      ? Math.max(0.8, scaledSize * random.float(0.008, 0.02))
      : writing.kind === 'brush'
        ? 0.9
        : writing.kind === 'chalk'
          ? 0.7
          : writing.kind === 'stencil' || writing.kind === 'marker'
            ? 0.6
            : 0.5;
  const haloSigma = scaledSize * (writing.kind === 'spray' ? random.float(0.04, 0.08) : 0.1);
  const [core, halo, outline] = await Promise.all([
    transformMask(block, scale, rotation, coreSigma),
    soft ? transformMask(block, scale / 2, rotation, haloSigma / 2) : undefined,
    writing.outline === undefined
      ? undefined
      : transformMask(block, scale, rotation, scaledSize * 0.05),
  ]);

  // Drips are added after the rotation, because they obey gravity, not the slant of the text.
  const extra = Math.round(dripRoom * scale);
  const painted = extend(core, extra);
  if (writing.drips > 0) addDrips(painted, writing.drips, scaledSize, random.fork('drips'));

  const freeX = Math.max(0, width - inkW * scale);
  const freeY = Math.max(0, usableHeight - inkH * scale);
  const cx = width / 2 + random.float(-0.35, 0.35) * freeX;
  const cy = usableHeight / 2 + random.float(-0.3, 0.3) * freeY;
  // The block's centre is the ink's centre; drips hang below it.
  const left = Math.round(cx - core.width / 2);
  const top = Math.round(cy - core.height / 2);
  const box: Box = {
    left: cx - (inkW * scale) / 2,
    top: cy - (inkH * scale) / 2,
    right: cx + (inkW * scale) / 2,
    bottom: cy + (inkH * scale) / 2,
  };

  const colour = hex(writing.colour);
  const opacity = 1 - writing.fade;
  const coreOpacity = {
    spray: 0.96,
    brush: 0.97,
    stencil: 1,
    marker: 0.95,
    handwriting: 0.92,
    chalk: 0.92,
  }[writing.kind];
  const coreTexture: Texture =
    writing.kind === 'chalk'
      ? 'chalk'
      : writing.kind === 'marker' || writing.kind === 'handwriting'
        ? 'ink'
        : 'paint';
  return {
    left,
    top,
    core: { ...painted, colour, opacity: opacity * coreOpacity, texture: coreTexture },
    halo:
      halo === undefined
        ? undefined
        : {
            ...halo,
            colour,
            opacity: opacity * (writing.kind === 'spray' ? 0.4 : 0.28),
            texture: 'spray',
          },
    outline:
      outline === undefined || writing.outline === undefined
        ? undefined
        : { ...thicken(outline), colour: hex(writing.outline), opacity, texture: 'paint' },
    box,
  };
}

// ---------------------------------------------------------------------------------------------
// Light, paint and sensor noise

/**
 * Light is smooth, so it is computed and applied at texture resolution, with the sensor noise;
 * the factors are kept so the paint, laid over at full resolution, gets the same light as the
 * wall under it.
 */
function lightWall(
  canvas: Canvas,
  spec: WallWritingSpec,
  random: Random,
): { factors: Float32Array; texture: Uint8ClampedArray } {
  const { width, height, cw, ch, rgb } = canvas;
  const { light } = spec;
  const factors = takeScratch(canvas, cw * ch);
  const texture = new Uint8ClampedArray(cw * ch * 3);
  const dx = Math.cos(light.angle);
  const dy = Math.sin(light.angle);
  const sx = Math.cos(light.shadowAngle);
  const sy = Math.sin(light.shadowAngle);
  const soft = 0.03 + 0.04 * random.next();
  const sensor = noiseWindow(random, cw * ch);
  const amount = spec.camera.noise * 1.7;
  const warmR = 1 + light.warmth;
  const warmB = 1 - light.warmth;
  for (let y = 0, i = 0; y < ch; y++) {
    const ny = ((y + 0.5) * canvas.scale) / height - 0.5;
    for (let x = 0; x < cw; x++, i++) {
      const nx = ((x + 0.5) * canvas.scale) / width - 0.5;
      let f = light.exposure * (1 + light.gradient * (nx * dx + ny * dy) * 2);
      f *= 1 - light.vignette * (nx * nx + ny * ny) * 1.6;
      if (light.shadow > 0) {
        const st = (nx * sx + ny * sy - light.shadowOffset) / soft + 0.5;
        f *= 1 - light.shadow * (st <= 0 ? 0 : st >= 1 ? 1 : st);
      }
      factors[i] = f;
      const o = i * 3;
      // Sensor noise: luminance only, as a phone's denoised, downscaled photo keeps it.
      const n = ((sensor[i] ?? 0.5) - 0.5) * amount;
      texture[o] = (rgb[o] ?? 0) * f * warmR + n;
      texture[o + 1] = (rgb[o + 1] ?? 0) * f + n;
      texture[o + 2] = (rgb[o + 2] ?? 0) * f * warmB + n;
    }
  }
  return { factors, texture };
}

/** Lays the overspray halo on the wall texture (before light, like the wall itself). */
function sprayHalo(canvas: Canvas, writing: Writing, random: Random): void {
  const { halo } = writing;
  if (halo === undefined) return;
  const { cw, ch, rgb, scale } = canvas;
  const mist = noiseWindow(random, cw * ch);
  const [cr, cg, cb] = halo.colour;
  // Texture pixel → halo pixel: halo pixels are 2 picture pixels, texture pixels `scale`.
  const step = scale / 2;
  const x0 = Math.max(0, Math.floor(writing.left / scale));
  const x1 = Math.min(cw, Math.ceil((writing.left + halo.width * 2) / scale));
  const y0 = Math.max(0, Math.floor(writing.top / scale));
  const y1 = Math.min(ch, Math.ceil((writing.top + halo.height * 2) / scale));
  for (let y = y0; y < y1; y++) {
    const hy = Math.floor((y + 0.5) * step - writing.top / 2);
    if (hy < 0 || hy >= halo.height) continue;
    for (let x = x0; x < x1; x++) {
      const hx = Math.floor((x + 0.5) * step - writing.left / 2);
      if (hx < 0 || hx >= halo.width) continue;
      const value = halo.data[hy * halo.width + hx] ?? 0;
      if (value === 0) continue;
      let alpha = (value / 255) * halo.opacity;
      // Overspray is a mist of droplets, not a smooth glow.
      alpha *= (mist[y * cw + x] ?? 0) < 0.3 + alpha * 2 ? 1.3 : 0.1;
      if (alpha > 1) alpha = 1;
      const o = (y * cw + x) * 3;
      const r0 = rgb[o] ?? 0;
      const g0 = rgb[o + 1] ?? 0;
      const b0 = rgb[o + 2] ?? 0;
      rgb[o] = r0 + (cr * 0.8 + r0 * 0.2 - r0) * alpha;
      rgb[o + 1] = g0 + (cg * 0.8 + g0 * 0.2 - g0) * alpha;
      rgb[o + 2] = b0 + (cb * 0.8 + b0 * 0.2 - b0) * alpha;
    }
  }
}

/** Lays the paint over the stretched wall; the wall's texture shows through the paint. */
function paintWriting(
  pixels: Uint8ClampedArray,
  canvas: Canvas,
  factors: Float32Array,
  writing: Writing,
  spec: WallWritingSpec,
  random: Random,
): void {
  const { width, height, cw, ch, detail, grain, blotch, scale } = canvas;
  const { core, outline } = writing;
  const warmR = 1 + spec.light.warmth;
  const warmB = 1 - spec.light.warmth;
  const mist = noiseWindow(random, core.width * core.height);
  // Texture relative to the wall's average brightness (before light), not its absolute one.
  let sum = 0;
  let samples = 0;
  for (let o = 0; o < cw * ch * 3; o += 21, samples++) {
    sum +=
      0.3 * (canvas.rgb[o] ?? 0) +
      0.59 * (canvas.rgb[o + 1] ?? 0) +
      0.11 * (canvas.rgb[o + 2] ?? 0);
  }
  const meanLum = Math.max(20, sum / Math.max(1, samples));
  const outlineData = outline?.data ?? new Uint8Array(0);
  const outlineHeight = outline?.height ?? 0;
  const columns = new Int32Array(width);
  for (let x = 0; x < width; x++) columns[x] = Math.min(cw - 1, Math.floor(x / scale));

  const coreThrough = core.texture === 'ink' ? 0.2 : core.texture === 'chalk' ? 0.25 : 0.45;
  const chalk = core.texture === 'chalk';
  const paint = core.texture === 'paint';
  const [cr, cg, cb] = core.colour;
  const [or, og, ob] = outline?.colour ?? BLACK;
  const coreOpacity = core.opacity / 255;
  const outlineOpacity = (outline?.opacity ?? 0) / 255;

  const y0 = Math.max(0, writing.top);
  const y1 = Math.min(height, writing.top + core.height);
  const x0 = Math.max(0, writing.left);
  const x1 = Math.min(width, writing.left + core.width);
  // The blending is written out inline: this loop runs over up to a million pixels, and helper
  // closures that update shared variables are several times slower in V8.
  for (let y = y0; y < y1; y++) {
    const my = y - writing.top;
    const row = Math.min(ch - 1, Math.floor(y / scale)) * cw;
    const coreRow = my * core.width - writing.left;
    const hasOutline = my < outlineHeight;
    for (let x = x0; x < x1; x++) {
      const m = coreRow + x;
      const coreValue = core.data[m] ?? 0;
      const outlineValue = hasOutline ? (outlineData[m] ?? 0) : 0;
      if ((coreValue | outlineValue) === 0) continue;
      const ci = row + (columns[x] ?? 0);
      const f = factors[ci] ?? 1;
      const o = (y * width + x) * 3;
      let r = pixels[o] ?? 0;
      let g = pixels[o + 1] ?? 0;
      let b = pixels[o + 2] ?? 0;
      const lum = Math.min(1.5, (0.3 * r + 0.59 * g + 0.11 * b) / (meanLum * f));
      // Uneven coverage: the can or the brush running dry here and there.
      const coverage = 0.9 + 0.1 * (blotch[ci] ?? 0);
      if (outlineValue > 0) {
        const alpha = Math.min(1, outlineValue * outlineOpacity * coverage);
        const shade = (0.55 + 0.45 * lum) * f;
        r += (or * shade * warmR - r) * alpha;
        g += (og * shade - g) * alpha;
        b += (ob * shade * warmB - b) * alpha;
      }
      if (coreValue > 0) {
        let alpha = coreValue * coreOpacity;
        if (chalk) {
          // Chalk sticks to the bumps and skips the hollows.
          const bump =
            (mist[m] ?? 0) - 0.5 + 0.8 * (detail[ci] ?? 0) + 0.3 * ((grain[ci] ?? 0) - 0.5);
          alpha *= Math.max(0, Math.min(1, 0.85 + 1.3 * bump));
        } else if (paint) {
          alpha *= coverage;
        }
        if (alpha > 1) alpha = 1;
        const shade = (1 - coreThrough + coreThrough * lum) * f;
        r += (cr * shade * warmR - r) * alpha;
        g += (cg * shade - g) * alpha;
        b += (cb * shade * warmB - b) * alpha;
      }
      pixels[o] = r;
      pixels[o + 1] = g;
      pixels[o + 2] = b;
    }
  }
}

const BLACK: Rgb = [0, 0, 0];

/** Renders one picture as a JPEG. The same spec always gives the same bytes. */
export async function renderWallWriting(spec: WallWritingSpec): Promise<Buffer> {
  const random = new Random(spec.seed);
  const { width, height, wall, camera } = spec;

  // The writing is laid out (by libvips, on its own threads) while the wall is painted.
  const writingPromise = layOutWriting(spec, random.fork('writing'));
  const canvas = newCanvas(spec, random.fork('canvas'));
  const surface = random.fork('surface');
  switch (wall.kind) {
    case 'brick':
      paintBrick(wall, canvas, surface);
      break;
    case 'plaster':
      paintPlaster(canvas, wall, surface);
      break;
    case 'concrete':
      paintConcrete(canvas, wall, surface);
      break;
    case 'tiles':
      paintTiles(canvas, wall, surface);
      break;
    case 'wood':
      paintWood(canvas, wall, surface);
      break;
    case 'shutter':
      paintShutter(canvas, wall, surface);
      break;
  }
  const marks = random.fork('marks');
  addStains(canvas, wall, marks);
  addCracks(canvas, wall, marks);

  const writing = await writingPromise;
  const avoid: Box = {
    left: writing.box.left / canvas.scale,
    top: writing.box.top / canvas.scale,
    right: writing.box.right / canvas.scale,
    bottom: writing.box.bottom / canvas.scale,
  };
  addBuffPatches(canvas, wall, avoid, marks);
  addPosters(canvas, wall, avoid, marks);
  addTags(canvas, wall, avoid, marks);
  paintGround(canvas, wall, random.fork('ground'));
  sprayHalo(canvas, writing, random.fork('halo'));
  const { factors, texture } = lightWall(canvas, spec, random.fork('light'));

  // libvips stretches the wall: a nearest-neighbour enlargement smoothed by a small blur costs
  // little there (a bilinear resize or a composite costs several times more), and the lens
  // softness rides along in the same blur.
  const smoothing = 0.36 * canvas.scale;
  const sigma = Math.sqrt(smoothing * smoothing + camera.softness * camera.softness);
  const stretched = await sharp(texture, {
    raw: { width: canvas.cw, height: canvas.ch, channels: 3 },
  })
    .resize(canvas.cw * canvas.scale, canvas.ch * canvas.scale, { fit: 'fill', kernel: 'nearest' })
    .extract({ left: 0, top: 0, width, height })
    .blur(sigma)
    .raw()
    .toBuffer();
  const pixels = new Uint8ClampedArray(stretched.buffer, stretched.byteOffset, stretched.length);
  paintWriting(pixels, canvas, factors, writing, spec, random.fork('paint'));
  returnScratch(canvas);

  // Huffman table optimisation would make the file 2% smaller at over twice the encoding time.
  return sharp(stretched, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: camera.jpegQuality, optimiseCoding: false })
    .toBuffer();
}
