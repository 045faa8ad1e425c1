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

/** Whether a folded word is an Italian word of the list. */
export function isItalianWord(folded: string): boolean {
  return wordRanks().has(folded);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
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
 * Letters of a text in Italian words of three letters or more, and the other letters. Short
 * words are counted as other letters: 'la', 'se', 'pa' are words, but also what wall texture
 * reads as most often.
 */
export function wordLetters(text: string): { known: number; other: number } {
  let known = 0;
  let other = 0;
  for (const word of foldWord(text).split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    if (word.length >= 3 && isItalianWord(word)) known += word.length;
    else other += word.length;
  }
  return { known, other };
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

function segmentWords(): Set<string> {
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

/**
 * Letters a word loses before a vowel ("l'esame", "dell'anno", "c'è"): a recogniser that drops
 * the apostrophe reads them glued to the next word.
 */
const ELIDED = new Set([
  'l',
  'd',
  'c',
  'dell',
  'all',
  'nell',
  'sull',
  'dall',
  'quest',
  'quell',
  'un',
]);
const VOWELS = /^[aeiouh]/;

/** What a piece of a token costs in segmentation: one a word, more for the likelier slips. */
const WORD_COST = 1;
const SHORT_WORD_COST = 1.3;
const LETTER_WORD_COST = 1.2;
const ELIDED_COST = 1.2;
const MENDED_COST = 2.5;
/** A token left unknown costs more the longer it is: long unknown tokens are mostly merges. */
const UNKNOWN_BASE_COST = 1;
const UNKNOWN_LETTER_COST = 1 / 3;

/**
 * The words a folded token of letters most likely stands for, when it is not an Italian word
 * itself: words glued together (a scene-text recogniser often drops the space between two
 * painted words: 'siamoqui', 'tiaspettero', 'lesame'), one word with a slip ('chiedond'), or
 * both ('domanieunaltroghorno'). The cheapest segmentation into words of the list, elided
 * articles and words one slip from the list wins against the token as read; null when the
 * token is a word or nothing beats it.
 */
export function segmentToken(folded: string): string[] | null {
  if (!/^[a-z]+$/.test(folded)) return null;
  if (wordRanks().has(folded)) return null;
  const known = segmentWords();
  const n = folded.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const choice = new Array<{ from: number; word: string } | undefined>(n + 1);
  cost[0] = 0;
  for (let end = 1; end <= n; end += 1) {
    for (let start = Math.max(0, end - 24); start < end; start += 1) {
      const before = cost[start] ?? Infinity;
      if (before === Infinity) continue;
      const piece = folded.slice(start, end);
      let pieceCost = Infinity;
      let word = piece;
      if (known.has(piece)) {
        pieceCost =
          piece.length === 1 ? LETTER_WORD_COST : piece.length === 2 ? SHORT_WORD_COST : WORD_COST;
      }
      if (ELIDED.has(piece) && end < n && VOWELS.test(folded.slice(end))) {
        pieceCost = Math.min(pieceCost, ELIDED_COST);
      }
      if (pieceCost === Infinity && piece.length >= MIN_CORRECTED_LENGTH + 1) {
        const mended = nearestItalianWord(piece);
        if (mended !== null) {
          pieceCost = MENDED_COST;
          word = mended;
        }
      }
      if (before + pieceCost < (cost[end] ?? Infinity)) {
        cost[end] = before + pieceCost;
        choice[end] = { from: start, word };
      }
    }
  }
  const asIs = UNKNOWN_BASE_COST + n * UNKNOWN_LETTER_COST;
  const wholeMended = nearestItalianWord(folded);
  const best = Math.min(asIs, wholeMended === null ? Infinity : MENDED_COST);
  if ((cost[n] ?? Infinity) >= best) return wholeMended === null ? null : [wholeMended];
  const words: string[] = [];
  for (let end = n; end > 0;) {
    const step = choice[end];
    if (step === undefined) return null;
    words.unshift(step.word);
    end = step.from;
  }
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
    // 'passera' and 'passerà' are both words: a reading without the accent stays as read.
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
function withAccents(word: string): string {
  return accentedForms().get(word) ?? word;
}

/**
 * A recognised line made into Italian words: punctuation glued between two words opens a
 * space ('Fra,ci'), a number glued to a word is parted from it ('90ANNI'), and tokens that are
 * not words are segmented or mended (segmentToken), in the case they were written in.
 */
export function mendLine(line: string): string {
  const spaced = line
    .replace(/([\p{L}\p{N}][.,;:!?]+)(?=[\p{L}\p{N}])/gu, '$1 ')
    .replace(/(\p{N}{2,})(?=\p{L}{3,})/gu, '$1 ')
    .replace(/(\p{L}{3,})(?=\p{N}{2,})/gu, '$1 ');
  return spaced
    .split(/\s+/)
    .filter((token) => token !== '')
    .map((token) => {
      const match = /^([^\p{L}]*)(\p{L}+)([^\p{L}]*)$/u.exec(token);
      if (match === null) return token;
      const [, before = '', core = '', after = ''] = match;
      const folded = foldWord(core);
      const words = (segmentToken(folded) ?? [folded]).map(withAccents);
      if (words.length === 1 && words[0] === folded) return token;
      const upper = core.length > 1 && core === core.toUpperCase();
      const capital = !upper && core[0] !== undefined && core[0] !== core[0].toLowerCase();
      const cased = words.map((word, index) =>
        upper
          ? word.toUpperCase()
          : capital && index === 0
            ? word.charAt(0).toUpperCase() + word.slice(1)
            : word,
      );
      return before + cased.join(' ') + after;
    })
    .join(' ');
}
