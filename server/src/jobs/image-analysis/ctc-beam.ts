import { foldWord } from './words.js';

/*
 * CTC prefix beam search over a recogniser's per-step character probabilities (scene-text.ts),
 * free or held to a lexicon (docs/READING.md, step 13). Free, it gives the likeliest
 * transcriptions of a line, summing every alignment of each where greedy decoding keeps one.
 * Held to a lexicon (word beam search, after Scheidl, Fiel and Sablatnig 2018), every run of
 * letters must spell words of the list: a prefix grows only along the list's words, and a word
 * complete may be followed at once by the next one, the space the recogniser dropped between
 * painted words put back. The network's own probabilities then weigh a word the free search's
 * beam had already let go ('PRIVILEGI', where all eight free readings spelled 'PRIVILELI').
 */

export interface Reading {
  text: string;
  /** Natural log of the reading's probability under the network (all its alignments). */
  logProbability: number;
}

/**
 * A recognised line: the probability of each class at each step, row after row. Class 0 is
 * CTC's blank, the others are `characters` (whose first entry, the blank's, is '').
 */
export interface LineScores {
  data: Float32Array;
  steps: number;
  characters: readonly string[];
}

export interface LexiconNode {
  children: Map<string, LexiconNode>;
  /** A word of the list ends here. */
  word: boolean;
  /** An elided form ends here ("l'", "dell'"): complete only before an apostrophe. */
  elided: boolean;
}

export interface BeamOptions {
  /** Prefixes kept at each step. */
  width: number;
  /** Readings returned, likeliest first. */
  readings: number;
  /** A character less likely than this at a step is not tried there (it holds no mass). */
  minStepProbability: number;
  /** The words every run of letters must spell; free when absent. */
  lexicon?: LexiconNode;
  /**
   * Natural log a space put back between two words costs: without a cost, a word that is two
   * words of the list glued ('questa': 'quest' 'a') would be parted as readily as kept.
   */
  spaceCost?: number;
}

/** A lexicon of folded words, and of the elided forms complete only before an apostrophe. */
export function buildLexicon(words: Iterable<string>, elided: Iterable<string> = []): LexiconNode {
  const root: LexiconNode = { children: new Map(), word: false, elided: false };
  const nodeOf = (word: string): LexiconNode => {
    let node = root;
    for (const letter of word) {
      let child = node.children.get(letter);
      if (child === undefined) {
        child = { children: new Map(), word: false, elided: false };
        node.children.set(letter, child);
      }
      node = child;
    }
    return node;
  };
  for (const word of words) if (/^[a-z]+$/.test(word)) nodeOf(word).word = true;
  for (const word of elided) if (/^[a-z]+$/.test(word)) nodeOf(word).elided = true;
  return root;
}

interface Beam {
  text: string;
  /** The class last read (-1 before any). */
  last: number;
  /**
   * Probability of the prefix ending in a blank, and in its last class, divided by the scale
   * the search keeps (its log is added back to the readings).
   */
  pb: number;
  pn: number;
  /** Where the lexicon is: the word being spelled (the root between words). */
  node: LexiconNode | undefined;
}

const APOSTROPHE = /^['’]$/u;

/** Each class's letter folded (lower case, no accent), '' for what is not a letter. */
const lettersOf = new WeakMap<readonly string[], readonly string[]>();

function foldedLetters(characters: readonly string[]): readonly string[] {
  let letters = lettersOf.get(characters);
  if (letters === undefined) {
    letters = characters.map((c) => (/^\p{L}$/u.test(c) ? foldWord(c) : ''));
    lettersOf.set(characters, letters);
  }
  return letters;
}

/** Greedy decoding: the likeliest class at each step, repeats and blanks removed. */
export function greedyDecode(scores: LineScores): { text: string; confidence: number } {
  const { data, steps, characters } = scores;
  const classes = characters.length;
  let text = '';
  let sum = 0;
  let count = 0;
  let previous = -1;
  for (let t = 0; t < steps; t += 1) {
    const row = t * classes;
    let best = 0;
    let bestScore = data[row] ?? 0;
    for (let k = 1; k < classes; k += 1) {
      const score = data[row + k] ?? 0;
      if (score > bestScore) {
        best = k;
        bestScore = score;
      }
    }
    if (best !== 0 && best !== previous) {
      text += characters[best] ?? '';
      sum += bestScore;
      count += 1;
    }
    previous = best;
  }
  return { text, confidence: count === 0 ? 0 : sum / count };
}

/** The `options.readings` likeliest transcriptions of a line, each with its log probability. */
export function prefixBeamSearch(scores: LineScores, options: BeamOptions): Reading[] {
  const { data, steps, characters } = scores;
  const classes = characters.length;
  const letters = foldedLetters(characters);
  const root = options.lexicon;
  const spaceFactor = Math.exp(-(options.spaceCost ?? 0));
  let beams: Beam[] = [{ text: '', last: -1, pb: 1, pn: 0, node: root }];
  // The log of what the probabilities were divided by to keep them in range on long lines.
  let logScale = 0;
  for (let t = 0; t < steps; t += 1) {
    const row = t * classes;
    const blank = data[row] ?? 0;
    const candidates: number[] = [];
    for (let k = 1; k < classes; k += 1) {
      if ((data[row + k] ?? 0) >= options.minStepProbability) candidates.push(k);
    }
    // Keyed by the class last read and the text: the same text may end in a real space or in
    // a letter followed by a space put back, and CTC's repeat rule depends on which.
    const next = new Map<string, Beam>();
    const add = (
      text: string,
      last: number,
      node: LexiconNode | undefined,
      pb: number,
      pn: number,
    ) => {
      if (pb === 0 && pn === 0) return;
      const key = `${last}\u0000${text}`;
      const entry = next.get(key);
      if (entry === undefined) next.set(key, { text, last, pb, pn, node });
      else {
        entry.pb += pb;
        entry.pn += pn;
      }
    };
    for (const beam of beams) {
      const { text, last, pb, pn, node } = beam;
      // The prefix stays as it is: a blank, or its last class repeated.
      add(text, last, node, (pb + pn) * blank, last > 0 ? pn * (data[row + last] ?? 0) : 0);
      for (const k of candidates) {
        const p = data[row + k] ?? 0;
        // The same class again only after a blank; without one it is the repeat above.
        const mass = k === last ? pb * p : (pb + pn) * p;
        const character = characters[k] ?? '';
        if (root === undefined || node === undefined) {
          add(text + character, k, undefined, 0, mass);
          continue;
        }
        const letter = letters[k] ?? '';
        if (letter !== '') {
          const within = node.children.get(letter);
          if (within !== undefined) add(text + character, k, within, 0, mass);
          // A word complete, and the next begins without the space the recogniser dropped.
          const starting = root.children.get(letter);
          if (node !== root && node.word && starting !== undefined) {
            add(`${text} ${character}`, k, starting, 0, mass * spaceFactor);
          }
        } else if (node === root || node.word || (node.elided && APOSTROPHE.test(character))) {
          add(text + character, k, root, 0, mass);
        }
      }
    }
    beams = [...next.values()].sort((a, b) => b.pb + b.pn - (a.pb + a.pn)).slice(0, options.width);
    let total = 0;
    for (const beam of beams) total += beam.pb + beam.pn;
    if (total > 0 && total < 1e-30) {
      for (const beam of beams) {
        beam.pb /= total;
        beam.pn /= total;
      }
      logScale += Math.log(total);
    }
  }
  // Readings of the same text through different last classes are one reading; a word left
  // half spelled at the end is no reading of the lexicon.
  const chances = new Map<string, number>();
  for (const beam of beams) {
    if (root !== undefined && beam.node !== root && beam.node?.word !== true) continue;
    chances.set(beam.text, (chances.get(beam.text) ?? 0) + beam.pb + beam.pn);
  }
  return [...chances]
    .filter(([, chance]) => chance > 0)
    .map(([text, chance]) => ({ text, logProbability: Math.log(chance) + logScale }))
    .sort((a, b) => b.logProbability - a.logProbability)
    .slice(0, options.readings);
}
