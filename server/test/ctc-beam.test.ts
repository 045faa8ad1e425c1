import { describe, expect, it } from 'vitest';
import {
  buildLexicon,
  greedyDecode,
  prefixBeamSearch,
  type LineScores,
} from '../src/jobs/image-analysis/ctc-beam.js';

/*
 * The recogniser's decoding on hand-made probabilities (docs/READING.md, step 13): each step
 * gives its likeliest characters, the blank taking what is left.
 */

const CHARACTERS = ['', ...Array.from('abcdeilmnoprstu'), "'", ' '];

/**
 * Steps given as {character: probability}; the blank gets the rest of each step, or what the
 * key '' gives it.
 */
function line(steps: ReadonlyArray<Readonly<Record<string, number>>>): LineScores {
  const classes = CHARACTERS.length;
  const data = new Float32Array(steps.length * classes);
  steps.forEach((step, t) => {
    let used = 0;
    for (const [character, probability] of Object.entries(step)) {
      if (character === '') continue;
      const k = CHARACTERS.indexOf(character);
      if (k < 1) throw new Error(`no class for ${character}`);
      data[t * classes + k] = probability;
      used += probability;
    }
    data[t * classes] = step[''] ?? Math.max(0, 1 - used);
  });
  return { data, steps: steps.length, characters: CHARACTERS };
}

/** One step sure of a character, then a blank. */
function spelled(text: string): Array<Record<string, number>> {
  return Array.from(text).flatMap((character) => [{ [character]: 1 }, {}]);
}

const FREE = { width: 16, readings: 8, minStepProbability: 0.001 };

describe('CTC decoding', () => {
  it('reads the likeliest character at each step greedily, repeats merged', () => {
    const scores = line([{ c: 0.9 }, { c: 0.8 }, {}, { i: 0.7 }, { a: 0.6 }, { o: 0.3 }]);
    const { text, confidence } = greedyDecode(scores);
    expect(text).toBe('cia');
    // The blank (0.7) beats 'o' at the last step; the characters kept average 0.9, 0.7, 0.6.
    expect(confidence).toBeCloseTo((0.9 + 0.7 + 0.6) / 3, 5);
  });

  it('sums every alignment of a reading, where greedy keeps one', () => {
    // Greedy reads 'a' then a blank then 'b' ('ab'); 'b' alone is likelier over all alignments.
    const scores = line([{ a: 0.4, b: 0.3 }, { b: 0.35 }, { b: 0.45 }]);
    const readings = prefixBeamSearch(scores, FREE);
    const probability = (text: string) =>
      Math.exp(readings.find((reading) => reading.text === text)?.logProbability ?? -Infinity);
    // 'b': any non-empty run of b with blanks around it, over three steps.
    const blank = [0.3, 0.65, 0.55];
    const b = [0.3, 0.35, 0.45];
    let expected = 0;
    for (let start = 0; start < 3; start += 1) {
      for (let end = start; end < 3; end += 1) {
        let p = 1;
        for (let t = 0; t < 3; t += 1) p *= t >= start && t <= end ? (b[t] ?? 0) : (blank[t] ?? 0);
        expected += p;
      }
    }
    expect(probability('b')).toBeCloseTo(expected, 6);
    expect(readings[0]?.text).toBe('b');
  });

  it('keeps its figures on long lines, where probabilities fall under a double', () => {
    const steps: Array<Record<string, number>> = [
      { c: 0.6, o: 0.3 },
      { i: 0.8 },
      {},
      { a: 0.5, o: 0.4 },
    ];
    const short = prefixBeamSearch(line(steps), FREE);
    // 800 steps more of a blank at 0.1 multiply every reading's probability by 0.1^800.
    const long = prefixBeamSearch(
      line([...steps, ...Array.from({ length: 800 }, () => ({ '': 0.1 }))]),
      FREE,
    );
    expect(long.map((reading) => reading.text)).toEqual(short.map((reading) => reading.text));
    long.forEach((reading, index) => {
      const before = short[index]?.logProbability ?? 0;
      // Float32 holds 0.1 to seven digits: 800 of them drift by about 1e-5.
      expect(reading.logProbability).toBeCloseTo(before + 800 * Math.log(0.1), 3);
    });
  });
});

describe('CTC decoding held to a lexicon', () => {
  const lexicon = buildLexicon(['torino', 'sorelle', 'per', 'esame'], ['l']);

  it('finds the word the free search let go, with its own probability', () => {
    // 'TONINO' at every step, the 'r' a close second at the third letter.
    const steps = spelled('tonino');
    steps[4] = { n: 0.6, r: 0.4 };
    const scores = line(steps);
    const free = prefixBeamSearch(scores, { ...FREE, width: 1, readings: 1 });
    expect(free.map((reading) => reading.text)).toEqual(['tonino']);
    const held = prefixBeamSearch(scores, { ...FREE, width: 1, readings: 1, lexicon });
    expect(held.map((reading) => reading.text)).toEqual(['torino']);
    expect(held[0]?.logProbability).toBeCloseTo(Math.log(0.4), 5);
  });

  it('puts back the space between glued words, at its cost', () => {
    const scores = line(spelled('sorelleper'));
    const held = prefixBeamSearch(scores, { ...FREE, lexicon, spaceCost: 2 });
    expect(held[0]?.text).toBe('sorelle per');
    expect(held[0]?.logProbability).toBeCloseTo(-2, 5);
  });

  it('ends an elided form only at an apostrophe', () => {
    expect(prefixBeamSearch(line(spelled("l'esame")), { ...FREE, lexicon })[0]?.text).toBe(
      "l'esame",
    );
    expect(prefixBeamSearch(line(spelled('l esame')), { ...FREE, lexicon })).toEqual([]);
  });

  it('gives no reading that leaves a word half spelled', () => {
    expect(prefixBeamSearch(line(spelled('tori')), { ...FREE, lexicon })).toEqual([]);
  });
});
