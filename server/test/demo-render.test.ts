import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, PHRASES, TAGS, THEMES } from '../src/demo/phrases.js';
import { createRandom, Random } from '../src/demo/random.js';
import {
  FONT_NAMES,
  fontDescription,
  fontFile,
  renderWallWriting,
  wallWritingSpec,
  wrapLines,
  type WallKind,
  type WritingKind,
} from '../src/demo/render.js';

describe('demo random', () => {
  it('repeats the same stream for the same seed', () => {
    const a = createRandom('muro');
    const b = createRandom('muro');
    const values = Array.from({ length: 20 }, () => a.next());
    expect(values).toEqual(Array.from({ length: 20 }, () => b.next()));
    expect(new Set(values).size).toBe(20);
  });

  it('keeps its helpers within their bounds', () => {
    const random = new Random(7);
    for (let k = 0; k < 1000; k++) {
      const int = random.int(3, 9);
      expect(Number.isInteger(int) && int >= 3 && int <= 9).toBe(true);
      const float = random.float(-2, 2);
      expect(float >= -2 && float < 2).toBe(true);
    }
    expect(['a', 'b', 'c']).toContain(random.pick(['a', 'b', 'c']));
    expect(new Random(1).chance(0)).toBe(false);
    expect(new Random(1).chance(1)).toBe(true);
  });
});

describe('demo phrases', () => {
  it('has at least 150 distinct phrases over at least 12 categories', () => {
    expect(PHRASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(PHRASES.map((p) => p.text)).size).toBe(PHRASES.length);
    expect(new Set(PHRASES.map((p) => p.category)).size).toBeGreaterThanOrEqual(12);
    expect(CATEGORIES).toEqual(THEMES.map((t) => t.category));
    for (const category of CATEGORIES) expect(category).toMatch(/^messaggi?o?_\p{Ll}+$/u);
  });

  it('tags every phrase with 1–4 tags from the vocabulary', () => {
    const vocabulary = new Set<string>(TAGS);
    expect(vocabulary.size).toBe(TAGS.length);
    for (const phrase of PHRASES) {
      expect(phrase.tags.length, phrase.text).toBeGreaterThanOrEqual(1);
      expect(phrase.tags.length, phrase.text).toBeLessThanOrEqual(4);
      expect(new Set(phrase.tags).size, phrase.text).toBe(phrase.tags.length);
      for (const tag of phrase.tags)
        expect(vocabulary.has(tag), `${phrase.text}: ${tag}`).toBe(true);
    }
  });
});

describe('demo fonts', () => {
  it('resolves every font file and renders each font differently', async () => {
    const renders = new Map<string, string>();
    for (const font of FONT_NAMES) {
      const file = fontFile(font);
      expect(existsSync(file), file).toBe(true);
      const { data, info } = await sharp({
        text: {
          text: 'Città libertà perché',
          font: fontDescription(font, 40),
          fontfile: file,
          rgba: true,
          dpi: 72,
        },
      })
        .extractChannel(3)
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(info.width).toBeGreaterThan(100);
      let inked = 0;
      for (const value of data) if (value > 128) inked++;
      expect(inked, font).toBeGreaterThan(500);
      renders.set(font, `${info.width}x${info.height}:${data.toString('base64')}`);
    }
    // A face name that fontconfig did not match falls back to one default font, so two fonts
    // would render alike: seven different renders mean seven fonts really in use.
    expect(new Set(renders.values()).size).toBe(FONT_NAMES.length);
  });
});

describe('wrapLines', () => {
  it('splits at words into balanced lines', () => {
    expect(wrapLines('Forza Roma', 1)).toEqual(['Forza Roma']);
    const lines = wrapLines('Il cielo è di tutti', 2);
    expect(lines.join(' ')).toBe('Il cielo è di tutti');
    expect(Math.max(...lines.map((line) => line.length))).toBe(10);
    expect(wrapLines('Dove finisce il cielo comincia il mare', 3)).toHaveLength(3);
    expect(wrapLines('Ciao', 3)).toEqual(['Ciao']);
  });
});

describe('renderWallWriting', () => {
  it('gives byte-identical JPEGs for the same seed', async () => {
    const phrase = PHRASES[0]!;
    const first = await renderWallWriting(wallWritingSpec(new Random('stesso'), phrase));
    const second = await renderWallWriting(wallWritingSpec(new Random('stesso'), phrase));
    expect(first.equals(second)).toBe(true);
  });

  it('does not depend on what was rendered before (reused scratch memory)', async () => {
    const x = wallWritingSpec(new Random('prima'), PHRASES[2]!, { wall: { kind: 'plaster' } });
    const y = wallWritingSpec(new Random('dopo'), PHRASES[3]!, { wall: { kind: 'shutter' } });
    const first = await renderWallWriting(x);
    const [, again] = await Promise.all([renderWallWriting(y), renderWallWriting(x)]);
    expect(again.equals(first)).toBe(true);
  });

  it('gives different pictures for different seeds', async () => {
    const phrase = PHRASES[1]!;
    const a = await renderWallWriting(wallWritingSpec(new Random('uno'), phrase));
    const b = await renderWallWriting(wallWritingSpec(new Random('due'), phrase));
    expect(a.equals(b)).toBe(false);
  });

  it('writes valid JPEGs of the size in the spec, for every wall and writing kind', async () => {
    const walls: WallKind[] = ['plaster', 'brick', 'concrete', 'tiles', 'wood', 'shutter'];
    const writings: WritingKind[] = ['spray', 'marker', 'stencil', 'chalk', 'handwriting', 'brush'];
    const random = new Random('tipi');
    for (let k = 0; k < walls.length; k++) {
      const portrait = k % 2 === 1;
      const spec = wallWritingSpec(random, random.pick(PHRASES), {
        width: portrait ? 900 : 1200,
        height: portrait ? 1200 : 900,
        wall: { kind: walls[k]! },
        writing: { kind: writings[k]! },
      });
      const jpeg = await renderWallWriting(spec);
      expect(jpeg.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
      const metadata = await sharp(jpeg).metadata();
      expect(metadata.format).toBe('jpeg');
      expect(metadata.width).toBe(spec.width);
      expect(metadata.height).toBe(spec.height);
      // Not a flat rectangle: the picture has real variation in it.
      const stats = await sharp(jpeg).stats();
      expect(stats.channels[0]!.stdev).toBeGreaterThan(5);
    }
  });

  it('keeps specs within their documented bounds', () => {
    const random = new Random('limiti');
    for (let k = 0; k < 200; k++) {
      const spec = wallWritingSpec(random, random.pick(PHRASES));
      expect(Math.abs(spec.writing.rotation)).toBeLessThanOrEqual(12);
      expect(spec.lines.join(' ')).toBe(spec.text.split(/\s+/).join(' '));
      expect(spec.lines.length).toBeGreaterThanOrEqual(1);
      expect([900, 1200]).toContain(spec.width);
      expect(spec.camera.jpegQuality).toBeGreaterThanOrEqual(55);
      expect(spec.camera.jpegQuality).toBeLessThanOrEqual(92);
    }
  });
});
