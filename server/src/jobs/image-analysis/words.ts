import { dictionary } from '@zxcvbn-ts/language-it';

/*
 * An Italian word list for judging and mending OCR readings (issue 9, docs/READING.md step 3).
 *
 * The list is the one @zxcvbn-ts/language-it ships (MIT licence): about 19,500 common words of
 * spoken Italian, 45,000 of Italian Wikipedia and 9,200 first names, each list ordered by
 * frequency. It holds inflected forms ('sono', 'siamo', 'muri'), which a reading needs, and a
 * licence the project can ship; the Hunspell and cspell Italian dictionaries are GPL and
 * morph-it is CC BY-SA. It was chosen without looking at the evaluation set's texts (which
 * are the demo phrases: using those would be reading the answers).
 *
 * Words are compared folded (lower case, no accents), as grouping and search compare them.
 */

/** Folded word → rank (lower is more frequent), built on first use. */
let ranks: Map<string, number> | undefined;

/** Single letters that are Italian words on their own ('e', 'è', 'a', 'o', 'i'). */
const SHORT_WORDS = ['e', 'a', 'o', 'i'];

function wordRanks(): Map<string, number> {
  if (ranks !== undefined) return ranks;
  const built = new Map<string, number>();
  let rank = 0;
  for (const list of [dictionary.commonWords, dictionary.wikipedia, dictionary.firstnames]) {
    for (const entry of list) {
      rank += 1;
      // Entries such as "l'" or "dell'" hold a word and an apostrophe; keep the word part.
      for (const part of foldWord(entry).split(/[^a-z0-9]+/)) {
        if (part !== '' && !built.has(part)) built.set(part, rank);
      }
    }
  }
  for (const word of SHORT_WORDS) built.set(word, 0);
  ranks = built;
  return built;
}

/** Lower case, accents removed: 'Città' → 'citta'. */
export function foldWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A folded word's place among the commonest (0 the commonest), or undefined for no word. */
export function wordRank(folded: string): number | undefined {
  return wordRanks().get(folded);
}

/** Whether a folded word is an Italian word of the list. */
export function isItalianWord(folded: string): boolean {
  return wordRanks().has(folded);
}

/** The letters of folded words. */
export const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
/** Shorter words have too many neighbours one letter away to guess which was meant. */
const MIN_CORRECTED_LENGTH = 4;

/**
 * The most frequent Italian word one edit (a letter changed, added or dropped) away from a
 * folded word that is not itself a word of the list, or null when there is none. OCR slips
 * are mostly one letter ('dovme' for 'dorme', 'guera' for 'guerra'), and of the words one slip
 * away the most frequent is the likeliest to have been written. Words shorter than four
 * letters, numbers and known words are left alone.
 */
export function nearestItalianWord(folded: string): string | null {
  if (folded.length < MIN_CORRECTED_LENGTH || !/^[a-z]+$/.test(folded)) return null;
  const known = wordRanks();
  if (known.has(folded)) return null;
  let best: string | null = null;
  let bestRank = Infinity;
  const consider = (candidate: string) => {
    if (candidate.length < 3) return;
    const rank = known.get(candidate);
    if (rank !== undefined && rank < bestRank) {
      best = candidate;
      bestRank = rank;
    }
  };
  for (let i = 0; i <= folded.length; i += 1) {
    const head = folded.slice(0, i);
    const tail = folded.slice(i);
    for (const letter of ALPHABET) consider(head + letter + tail);
    if (i < folded.length) {
      const rest = folded.slice(i + 1);
      consider(head + rest);
      for (const letter of ALPHABET) consider(head + letter + rest);
    }
  }
  return best;
}

/**
 * The words a glued token may be cut into: the list of spoken Italian, and its first names
 * among the commonest 2,000, without the Wikipedia list; words of three letters or less only
 * among the commonest 1,000 of spoken Italian. The rest of the lists holds short fragments of
 * names and of other languages ('iamo', 'eun', 'ser', 'lu') that would cut a token anywhere.
 */
let segmentable: Set<string> | undefined;
const SHORT_PIECE_RANK = 1000;
const NAME_RANK = 2000;

export function segmentWords(): ReadonlySet<string> {
  if (segmentable !== undefined) return segmentable;
  const words = new Set<string>(SHORT_WORDS);
  dictionary.commonWords.forEach((entry, rank) => {
    for (const part of foldWord(entry).split(/[^a-z0-9]+/)) {
      if (part.length >= 4 || (part.length >= 2 && rank < SHORT_PIECE_RANK)) words.add(part);
    }
  });
  dictionary.firstnames.slice(0, NAME_RANK).forEach((entry) => {
    const part = foldWord(entry);
    if (part.length >= 4) words.add(part);
  });
  segmentable = words;
  return words;
}

/** Folded word → its spelling with accents, for the words written only with them. */
let accents: Map<string, string> | undefined;

function accentedForms(): Map<string, string> {
  if (accents !== undefined) return accents;
  // The spoken list spells many words without their accents ('perche', 'citta'); whether a
  // word is also written without them is asked of the Wikipedia list, which spells carefully.
  const written = new Set(dictionary.wikipedia.map((entry) => entry.toLowerCase()));
  const built = new Map<string, string>();
  for (const entry of [...dictionary.commonWords, ...dictionary.wikipedia]) {
    const spelled = entry.toLowerCase();
    const folded = foldWord(spelled);
    // 'papa' and 'papà' are both words: a reading without the accent stays as read.
    if (folded === spelled || !/^[a-z]+$/.test(folded) || written.has(folded)) continue;
    if (!built.has(folded)) built.set(folded, spelled);
  }
  accents = built;
  return built;
}

/**
 * The word with the accents Italian spells it with, when it is only ever written with them
 * ('liberta' → 'libertà', 'perche' → 'perché'): the recogniser often misses an accent, and
 * a reading shown to people (alt text, the back-office) should be spelled right. Folded text,
 * which grouping and search use, is the same either way.
 */
export function withAccents(word: string): string {
  return accentedForms().get(word) ?? word;
}
