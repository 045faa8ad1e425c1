import { foldText } from '../src/lib/text.js';

/*
 * The scores of issue 9, as pure functions.
 *
 * OCR is scored on folded text (lib/text.ts foldText: case, accents, punctuation and spacing
 * removed), because that is what grouping and search use: reading 'Città!' as 'citta' costs
 * nothing downstream. Word accuracy is 1 − word error rate (word-level Levenshtein distance
 * over the number of true words, so missing, extra and wrong words all count), character
 * error rate is the character-level Levenshtein distance over the true length. Both are summed
 * over the set before dividing, so a long writing weighs more than a short one.
 */

export function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export interface TextScore {
  words: number;
  wordErrors: number;
  characters: number;
  characterErrors: number;
}

export function scoreReading(truth: string, read: string): TextScore {
  const t = foldText(truth);
  const r = foldText(read);
  const tw = t === '' ? [] : t.split(' ');
  const rw = r === '' ? [] : r.split(' ');
  return {
    words: tw.length,
    wordErrors: Math.min(tw.length, editDistance(tw, rw)),
    characters: t.length,
    characterErrors: Math.min(t.length, editDistance(Array.from(t), Array.from(r))),
  };
}

export function addScores(scores: readonly TextScore[]): TextScore {
  return scores.reduce(
    (sum, s) => ({
      words: sum.words + s.words,
      wordErrors: sum.wordErrors + s.wordErrors,
      characters: sum.characters + s.characters,
      characterErrors: sum.characterErrors + s.characterErrors,
    }),
    { words: 0, wordErrors: 0, characters: 0, characterErrors: 0 },
  );
}

export function wordAccuracy(score: TextScore): number {
  return score.words === 0 ? 1 : 1 - score.wordErrors / score.words;
}

export function characterErrorRate(score: TextScore): number {
  return score.characters === 0 ? 0 : score.characterErrors / score.characters;
}

/** Pairwise precision and recall of predicted groups against true groups (by item key). */
export function pairwise(
  predicted: ReadonlyArray<readonly number[]>,
  truthOf: (id: number) => number,
  allIds: readonly number[],
): { precision: number; recall: number; truePairs: number; predictedPairs: number; hits: number } {
  const groupOf = new Map<number, number>();
  predicted.forEach((group, g) => {
    for (const id of group) groupOf.set(id, g);
  });
  let truePairs = 0;
  let predictedPairs = 0;
  let hits = 0;
  for (let i = 0; i < allIds.length; i += 1) {
    for (let j = i + 1; j < allIds.length; j += 1) {
      const a = allIds[i] ?? 0;
      const b = allIds[j] ?? 0;
      const same = truthOf(a) === truthOf(b);
      const ga = groupOf.get(a);
      const grouped = ga !== undefined && ga === groupOf.get(b);
      if (same) truePairs += 1;
      if (grouped) predictedPairs += 1;
      if (same && grouped) hits += 1;
    }
  }
  return {
    precision: predictedPairs === 0 ? 1 : hits / predictedPairs,
    recall: truePairs === 0 ? 1 : hits / truePairs,
    truePairs,
    predictedPairs,
    hits,
  };
}

/** Words that say nothing about a writing: a query of them alone is not a fair test. */
const STOP_WORDS = new Set(
  'che chi con del della delle dei degli per non sei sono una uno come sempre tutto tutti mai più piu noi voi loro questa questo quando dove siamo ancora nel nella alla alle anche ogni'.split(
    ' ',
  ),
);

/**
 * The other Italian form of a word: singular ↔ plural by its ending (amore → amori,
 * parola → parole, muri → muro), accents dropped. Returns the word unchanged when its
 * ending has no regular counterpart or the word is invariable (città).
 */
export function otherForm(word: string): string {
  const plain = word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  // Words stressed on the last vowel (città, libertà) are the same in both numbers.
  if (plain.length < 4 || /\p{M}$/u.test(word.normalize('NFD'))) return plain;
  const stem = plain.slice(0, -1);
  switch (plain.at(-1)) {
    case 'o':
      return `${stem}i`;
    case 'a':
      return `${stem}e`;
    case 'e':
      return `${stem}i`;
    case 'i':
      return `${stem}o`;
    default:
      return plain;
  }
}

/**
 * A query for an image: one or two of its content words (four letters or more, not a stop
 * word), the first in its other singular/plural form, all without accents. Null when the
 * writing has no such word (numbers, initials).
 */
export function searchQuery(text: string, pick: (n: number) => number): string | null {
  const words = [
    ...new Set(
      text
        .split(/[^\p{L}]+/u)
        .map((word) => word.toLowerCase())
        .filter((word) => word.length >= 4 && !STOP_WORDS.has(word)),
    ),
  ];
  if (words.length === 0) return null;
  const first = words.splice(pick(words.length), 1)[0] ?? '';
  const query = [otherForm(first)];
  if (words.length > 0) {
    const second = words[pick(words.length)] ?? '';
    query.push(second.normalize('NFKD').replace(/\p{M}+/gu, ''));
  }
  return query.join(' ');
}
