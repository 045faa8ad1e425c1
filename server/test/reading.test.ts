import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildEvalSet } from '../eval/dataset.js';
import {
  characterErrorRate,
  otherForm,
  pairwise,
  scoreReading,
  searchQuery,
  wordAccuracy,
} from '../eval/metrics.js';
import { mayEndReading, readingScore, wellFormed } from '../src/jobs/image-analysis/ocr.js';
import {
  closeMask,
  lightGain,
  paintCandidates,
  type PaintCandidate,
  rawRgb,
  readingScale,
  TARGET_LETTER_HEIGHT,
} from '../src/jobs/image-analysis/paint.js';
import {
  isItalianWord,
  nearestItalianWord,
  wordLetters,
} from '../src/jobs/image-analysis/words.js';

const require = createRequire(import.meta.url);
const MARKER_FONT =
  require.resolve('@expo-google-fonts/permanent-marker/400Regular/PermanentMarker_400Regular.ttf');

/* Issue 9: how readings are chosen and scored. */

describe('readingScore', () => {
  it('prefers a confident whole reading to a confident scrap or to garbage', () => {
    const whole = readingScore({ text: 'ti amo giulia', confidence: 80 });
    const scrap = readingScore({ text: 'ti', confidence: 95 });
    const garbage = readingScore({ text: 'ee ll mm nn aa rr', confidence: 38 });
    expect(whole).toBeGreaterThan(scrap);
    expect(whole).toBeGreaterThan(garbage);
    expect(readingScore({ text: '', confidence: 0 })).toBe(0);
  });

  it('prefers Italian words to as many letters of scraps at the same confidence', () => {
    const words = readingScore({ text: 'NON SI TOCCA', confidence: 75 });
    const scraps = readingScore({ text: 'NQN SX TQCCZ', confidence: 75 });
    expect(words).toBeGreaterThan(scraps * 2);
  });
});

describe('wellFormed', () => {
  it('accepts a confident reading made of Italian words, and nothing less', () => {
    expect(wellFormed({ text: 'LA COSTITUZIONE\nNON SI TOCCA', confidence: 90 })).toBe(true);
    // Unsure, too short, or mostly scraps of texture: keep reading.
    expect(wellFormed({ text: 'LA COSTITUZIONE', confidence: 60 })).toBe(false);
    expect(wellFormed({ text: 'CIAO', confidence: 95 })).toBe(false);
    expect(wellFormed({ text: 'ee pa Ric sh gu', confidence: 80 })).toBe(false);
  });
});

describe('Italian word list', () => {
  it('knows inflected Italian words and names, folded', () => {
    for (const word of ['muri', 'sono', 'liberta', 'giulia', 'costituzione']) {
      expect(isItalianWord(word)).toBe(true);
    }
    expect(isItalianWord('xqzt')).toBe(false);
  });

  it('mends a word one slip away from an Italian word, and leaves the rest alone', () => {
    expect(nearestItalianWord('guera')).toBe('guerra');
    expect(nearestItalianWord('costituzlone')).toBe('costituzione');
    expect(nearestItalianWord('libertta')).toBe('liberta');
    // Known words, short words, numbers and hopeless strings stay as read.
    expect(nearestItalianWord('amore')).toBeNull();
    expect(nearestItalianWord('uva')).toBeNull();
    expect(nearestItalianWord('2019')).toBeNull();
    expect(nearestItalianWord('xqztk')).toBeNull();
  });

  it('counts the letters of words of three letters or more that it knows', () => {
    expect(wordLetters('Ti amo, Giulia!')).toEqual({ known: 9, other: 2 });
    expect(wordLetters('')).toEqual({ known: 0, other: 0 });
  });
});

describe('closeMask', () => {
  it('fills the gaps texture leaves in a stroke without thickening it', () => {
    // A horizontal stroke 3 px thick with a hole and a 1 px break, on a 12 × 9 mask.
    const width = 12;
    const height = 9;
    const mask = new Uint8Array(width * height);
    for (let y = 3; y <= 5; y += 1) {
      for (let x = 1; x <= 10; x += 1) mask[y * width + x] = 1;
    }
    mask[4 * width + 4] = 0;
    for (let y = 3; y <= 5; y += 1) mask[y * width + 7] = 0;
    const closed = closeMask(mask, width, height, 1);
    expect(closed[4 * width + 4]).toBe(1);
    for (let y = 3; y <= 5; y += 1) expect(closed[y * width + 7]).toBe(1);
    // Nothing grows above, below or beyond the stroke's ends.
    for (let x = 0; x < width; x += 1) {
      expect(closed[2 * width + x]).toBe(0);
      expect(closed[6 * width + x]).toBe(0);
    }
    expect(closed[4 * width]).toBe(0);
    expect(closed[4 * width + 11]).toBe(0);
  });
});

/**
 * A pale wall with a light writing whose right half lies in a cast shadow: as lit, its paint
 * is two colours, the shadowed half close to the lit wall's colour.
 */
async function shadowedWall(): Promise<Buffer> {
  const width = 1200;
  const height = 800;
  const pixels = Buffer.alloc(width * height * 3);
  let state = 11;
  for (let i = 0; i < width * height; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const grain = (state >>> 24) % 16;
    pixels[i * 3] = 120 + grain;
    pixels[i * 3 + 1] = 110 + grain;
    pixels[i * 3 + 2] = 100 + grain;
  }
  const writing = await sharp({
    text: {
      text: '<span foreground="#f4f0e0">NON MOLLARE MAI</span>',
      font: 'Permanent Marker 70',
      fontfile: MARKER_FONT,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  const lit = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .composite([{ input: writing, top: 330, left: 150 }])
    .removeAlpha()
    .raw()
    .toBuffer();
  // The shadow: the right half of the picture gets 45 % of the light.
  for (let y = 0; y < height; y += 1) {
    for (let x = width / 2; x < width; x += 1) {
      for (let c = 0; c < 3; c += 1) {
        const i = (y * width + x) * 3 + c;
        lit[i] = Math.round((lit[i] ?? 0) * 0.45);
      }
    }
  }
  return sharp(lit, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('paint masks', () => {
  /**
   * A rough wall (noise), grey joints running across the picture, a blue sticker and a red
   * writing in the lower half: the writing's mask must come first.
   */
  async function wall(): Promise<Buffer> {
    const width = 1200;
    const height = 800;
    const pixels = Buffer.alloc(width * height * 3);
    let state = 7;
    for (let i = 0; i < width * height; i += 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const grain = (state >>> 24) % 24;
      const joint = i % width < 4 || Math.floor(i / width) % 160 < 4 ? -70 : 0;
      pixels[i * 3] = 205 + grain + joint;
      pixels[i * 3 + 1] = 196 + grain + joint;
      pixels[i * 3 + 2] = 180 + grain + joint;
    }
    const writing = await sharp({
      text: {
        text: '<span foreground="#b01818">NON MOLLARE MAI</span>',
        font: 'Permanent Marker 60',
        fontfile: MARKER_FONT,
        rgba: true,
      },
    })
      .png()
      .toBuffer();
    const sticker = await sharp({
      create: { width: 90, height: 120, channels: 3, background: '#1840c0' },
    })
      .png()
      .toBuffer();
    return sharp(pixels, { raw: { width, height, channels: 3 } })
      .composite([
        { input: writing, top: 480, left: 200 },
        { input: sticker, top: 100, left: 950 },
      ])
      .jpeg({ quality: 85 })
      .toBuffer();
  }

  it('ranks the writing first and measures its letters', async () => {
    const rgb = await rawRgb(await wall(), 800);
    const candidates = paintCandidates(rgb);
    const first = candidates[0];
    expect(first).toBeDefined();
    if (first === undefined) return;
    // The writing sits in the lower half, left of the sticker (800 / 1200 of the coordinates).
    expect(first.box.top).toBeGreaterThan(300);
    expect(first.box.right).toBeLessThan(620);
    expect(first.components).toBeGreaterThanOrEqual(8);
    expect(first.heightAgreement).toBeGreaterThan(0.8);
    // Permanent Marker 60 capitals are about 40 px high, 27 px at 800 / 1200.
    expect(first.letterHeight).toBeGreaterThan(15);
    expect(first.letterHeight).toBeLessThan(45);
    expect(candidates.map((c) => c.score)).toEqual(
      [...candidates.map((c) => c.score)].sort((a, b) => b - a),
    );
    const scaled = first.letterHeight * readingScale(first);
    expect(Math.abs(scaled - TARGET_LETTER_HEIGHT)).toBeLessThan(TARGET_LETTER_HEIGHT * 0.25);
  });

  it('evens out the light falling on the wall', async () => {
    const rgb = await rawRgb(await shadowedWall(), 800);
    const gain = lightGain(rgb);
    // Far from the writing and the shadow's edge, the shadowed wall is raised to the lit
    // one's light: 45 % of the sRGB value is about a fifth of the linear light.
    const litGain = gain[100 * rgb.width + 100] ?? 0;
    const shadowGain = gain[100 * rgb.width + 700] ?? 0;
    expect(shadowGain / litGain).toBeGreaterThan(4);
    expect(shadowGain / litGain).toBeLessThan(6);
  });

  it('makes one mask of a writing half in shadow, and no two masks alike', async () => {
    const rgb = await rawRgb(await shadowedWall(), 800);
    const candidates = paintCandidates(rgb);
    // The writing spans x 100–570 at 800 px, across the shadow's edge at 400: as lit, its two
    // halves are two colours; with the light evened out, one.
    const whole = candidates.find((c) => c.box.left < 200 && c.box.right > 500);
    expect(whole).toBeDefined();
    expect(whole?.components).toBeGreaterThanOrEqual(12);
    // No mask has most of its paint in a better-ranked one.
    for (const [i, mask] of candidates.entries()) {
      for (const better of candidates.slice(0, i)) {
        let shared = 0;
        let paint = 0;
        for (let p = 0; p < mask.mask.length; p += 1) {
          shared += (mask.mask[p] ?? 0) & (better.mask[p] ?? 0);
          paint += mask.mask[p] ?? 0;
        }
        expect(shared / paint).toBeLessThanOrEqual(0.8);
      }
    }
  });
});

describe('when a reading may end', () => {
  /** A candidate whose mask is the given columns of a 10 × 1 picture (the rest unused). */
  function columns(...on: number[]): PaintCandidate {
    const mask = new Uint8Array(10);
    for (const x of on) mask[x] = 1;
    return { mask, width: 10, height: 1 } as PaintCandidate;
  }

  it('does not end on a mask that is mostly part of one read after it', () => {
    const half = columns(0, 1, 2, 3, 4);
    const whole = columns(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    const other = columns(8, 9);
    // The part first: its reading may be the writing cut short, so the whole is read too.
    expect(mayEndReading([half, whole, other])).toEqual([false, true, true]);
    // The whole first: a later part adds nothing to wait for.
    expect(mayEndReading([whole, half])).toEqual([true, true]);
    // Disjoint masks (one clustering's) end the reading as before.
    expect(mayEndReading([half, other])).toEqual([true, true]);
    // Sharing less than SAME_MASK_SHARE (0.8) of its paint is another mask, not a part.
    expect(mayEndReading([columns(0, 1, 2, 3, 4), columns(1, 2, 3, 4, 5, 6)])).toEqual([
      true,
      true,
    ]);
  });

  it('waits for the whole of a writing half in shadow when its lit half ranks first', async () => {
    const candidates = paintCandidates(await rawRgb(await shadowedWall(), 800)).slice(0, 3);
    // As made: the lit half's mask (x 100–400 at 800 px) ranks above the whole writing's, so
    // a confident reading of the half must not end the reading before the whole is read.
    expect(candidates[0]?.box.right).toBeLessThan(420);
    expect(candidates[1]?.box.left).toBeLessThan(200);
    expect(candidates[1]?.box.right).toBeGreaterThan(500);
    expect(mayEndReading(candidates).slice(0, 2)).toEqual([false, true]);
  });
});

describe('evaluation scores', () => {
  it('scores readings on folded text, by words and by characters', () => {
    const exact = scoreReading('Città, ti amo!', 'CITTA TI AMO');
    expect(wordAccuracy(exact)).toBe(1);
    expect(characterErrorRate(exact)).toBe(0);
    const slip = scoreReading('ti amo giulia', 'ti amo giuiia');
    expect(wordAccuracy(slip)).toBeCloseTo(2 / 3);
    expect(slip.characterErrors).toBe(1);
    // Nothing read: every word and character is an error, never more.
    expect(wordAccuracy(scoreReading('ti amo', ''))).toBe(0);
    expect(characterErrorRate(scoreReading('ti amo', 'x y z w v u t s r q'))).toBe(1);
  });

  it('counts pairwise precision and recall', () => {
    const truth = new Map([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
      [5, 3],
    ]);
    const result = pairwise(
      [
        [1, 2],
        [3, 4],
      ],
      (id) => truth.get(id) ?? 0,
      [1, 2, 3, 4, 5],
    );
    expect(result).toMatchObject({ truePairs: 3, predictedPairs: 2, hits: 1 });
    expect(result.precision).toBe(0.5);
    expect(result.recall).toBeCloseTo(1 / 3);
  });

  it('asks for another Italian form of the words, without accents', () => {
    expect(otherForm('muro')).toBe('muri');
    expect(otherForm('parola')).toBe('parole');
    expect(otherForm('Libertà')).toBe('liberta');
    expect(searchQuery('Ti amo', () => 0)).toBeNull();
    expect(searchQuery('Ogni muro ha una voce', () => 0)).toBe('muri voce');
  });

  it('builds the same labelled set for the same seed', () => {
    const a = buildEvalSet(40, 'test');
    const b = buildEvalSet(40, 'test');
    expect(a).toEqual(b);
    expect(a).toHaveLength(40);
    expect(buildEvalSet(40, 'other')[0]?.text).not.toBe(undefined);
    // Copies share their writing; different writings on one wall share the wall only.
    const byWriting = new Map<number, number>();
    for (const item of a) byWriting.set(item.writing, (byWriting.get(item.writing) ?? 0) + 1);
    expect(Math.max(...byWriting.values())).toBe(3);
    const shared = a.filter((item) => item.role === 'shared-wall');
    expect(shared.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shared.map((item) => item.writing)).size).toBe(shared.length);
  });
});
