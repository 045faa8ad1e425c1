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
import { readingScore } from '../src/jobs/image-analysis/ocr.js';

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
