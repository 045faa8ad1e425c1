import {
  ALPHABET,
  foldWord,
  isItalianWord,
  nearestItalianWord,
  segmentWords,
  withAccents,
  wordRank,
} from './words.js';

/*
 * A recognised line made into Italian words (docs/READING.md, step 9). The scene-text
 * recogniser reads letters well but words less so: it drops the space between two painted
 * words ('siamoqui', 'TIAMO'), takes a capital I for an l or a T, a G for a 6 or a Z for a 3,
 * and misses accents. Each token that is not a word is cut into the cheapest sequence of
 * pieces, each piece a word of the list, an elided article, a word one confusion or one slip
 * away, or a number, and that wins when it costs less than the token as read. The costs are a
 * prior: a word costs 1, likelier readings of a piece less than unlikelier ones, and an
 * unknown token more the longer it is, since a long token that is no word is mostly words glued
 * together.
 */

/** What each kind of piece costs (see the header): a word of the lists, and its kin. */
const WORD_COST = 1;
const SHORT_WORD_COST = 1.3;
const LETTER_WORD_COST = 1.2;
const NUMBER_COST = 1;
const ELIDED_COST = 1.2;
const CONFUSED_COST = 1.6;
const TWICE_CONFUSED_COST = 2;
const MENDED_COST = 2.5;
/**
 * A token found only in the Wikipedia list ('ii', 'll', 'ahra'): those lists hold numerals and
 * fragments that are likelier a confusion of a common word than what was written.
 */
const RARE_WORD_COST = 1.7;
/** A token left unknown costs more the longer it is: long unknown tokens are mostly merges. */
const UNKNOWN_BASE_COST = 1;
const UNKNOWN_LETTER_COST = 1 / 3;
/** Pieces longer than this are not looked up: no Italian word is longer. */
const MAX_PIECE = 24;
/** Shorter pieces have too many neighbours one slip away to guess which was meant. */
const MIN_MENDED_PIECE = 5;

/**
 * Letters an article or preposition loses before a vowel ("l'esame", "dell'anno", "c'è"): a
 * recogniser that drops the apostrophe reads them glued to the next word.
 */
export const ELIDED: ReadonlySet<string> = new Set([
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
const VOWEL_NEXT = /^[aeiouh]/;

/**
 * Pronouns Italian joins to the end of an imperative, infinitive or gerund ('amami', 'saperli',
 * 'ribellati', 'aspettami'): the word lists hold few of these forms, and without them such a
 * word looks like two glued together.
 */
const CLITICS = [
  'gliela',
  'glielo',
  'gliene',
  'gli',
  'mi',
  'ti',
  'ci',
  'vi',
  'si',
  'li',
  'lo',
  'la',
  'le',
  'ne',
];

/** Whether a folded word is a verb form with a pronoun joined ('saper' + 'li' from 'sapere'). */
function withClitic(word: string): boolean {
  for (const clitic of CLITICS) {
    if (!word.endsWith(clitic) || word.length < clitic.length + 3) continue;
    const stem = word.slice(0, -clitic.length);
    // A short stem is an imperative ('ama', 'di') or an infinitive without its 'e' ('dir'):
    // the lists' short fragments ending otherwise ('gio') would make a misread 'giomi'
    // (giorni) a verb with 'mi' joined, and leave it unmended.
    if (stem.length < 4 && !/[aeir]$/.test(stem)) continue;
    if (isItalianWord(stem) || isItalianWord(`${stem}e`)) return true;
  }
  return false;
}

/**
 * What the recogniser reads for what was painted, each way round: a capital I for an l or a T
 * ('llmondo', 'GTUSTO', 'RTBELLATT'), a V for a U, an h for an n, rn for m, and digits for
 * the letters they resemble in painted capitals ('6UERRA', 'me33e', 'CORS0', '70RNERO').
 */
const CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['l', 'i'],
  ['i', 'l'],
  ['t', 'i'],
  ['i', 't'],
  ['v', 'u'],
  ['u', 'v'],
  ['h', 'n'],
  ['n', 'h'],
  ['rn', 'm'],
  ['m', 'rn'],
  ['cl', 'd'],
  ['0', 'o'],
  ['1', 'i'],
  ['1', 'l'],
  ['2', 'z'],
  ['3', 'z'],
  ['3', 'e'],
  ['4', 'a'],
  ['5', 's'],
  ['6', 'g'],
  ['7', 't'],
  ['8', 'b'],
  ['9', 'g'],
];

interface Piece {
  cost: number;
  word: string;
}

/** A word one confusion (CONFUSIONS) away from the piece, else one two away, else null. */
function confused(piece: string, words: ReadonlySet<string>): Piece | null {
  let twice: Piece | null = null;
  for (const once of variants(piece)) {
    if (words.has(once)) return { cost: CONFUSED_COST, word: once };
    if (twice === null) {
      for (const again of variants(once)) {
        if (words.has(again)) {
          twice = { cost: TWICE_CONFUSED_COST, word: again };
          break;
        }
      }
    }
  }
  return twice;
}

function* variants(piece: string): Generator<string> {
  for (const [read, meant] of CONFUSIONS) {
    for (let at = piece.indexOf(read); at !== -1; at = piece.indexOf(read, at + 1)) {
      yield piece.slice(0, at) + meant + piece.slice(at + read.length);
    }
  }
}

/** The cheapest reading of one piece of a token, or null when it is none of the kinds. */
function pieceOf(piece: string, followedBy: string, words: ReadonlySet<string>): Piece | null {
  if (/^[0-9]+$/.test(piece)) return { cost: NUMBER_COST, word: piece };
  if (words.has(piece) || withClitic(piece)) {
    const cost =
      piece.length === 1 ? LETTER_WORD_COST : piece.length === 2 ? SHORT_WORD_COST : WORD_COST;
    return { cost, word: piece };
  }
  if (ELIDED.has(piece) && VOWEL_NEXT.test(followedBy)) return { cost: ELIDED_COST, word: piece };
  if (piece.length >= 2) {
    const reading = confused(piece, words);
    if (reading !== null) return reading;
  }
  if (piece.length >= MIN_MENDED_PIECE && /^[a-z]+$/.test(piece)) {
    const mended = nearestItalianWord(piece);
    if (mended !== null) return { cost: MENDED_COST, word: mended };
  }
  return null;
}

/**
 * The words a folded token of letters and digits most likely stands for, or null when it is
 * best left as read: a common word, a number, or a token nothing explains better.
 */
export function segmentToken(folded: string): readonly string[] | null {
  const known = segmented.get(folded);
  if (known !== undefined) return known;
  const pieces = segmentAnew(folded);
  // A photo's lines have eight readings that share most of their tokens: segment each once.
  if (segmented.size >= SEGMENTED_LIMIT) segmented.clear();
  segmented.set(folded, pieces);
  return pieces;
}

/** Tokens already segmented (segmentToken is pure: the word lists never change). */
const segmented = new Map<string, readonly string[] | null>();
const SEGMENTED_LIMIT = 50_000;

function segmentAnew(folded: string): string[] | null {
  if (!/^[a-z0-9]+$/.test(folded) || /^[0-9]+$/.test(folded)) return null;
  const words = segmentWords();
  if (words.has(folded) || withClitic(folded)) return null;
  const n = folded.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const choice = new Array<{ from: number; word: string } | undefined>(n + 1);
  cost[0] = 0;
  for (let end = 1; end <= n; end += 1) {
    for (let start = Math.max(0, end - MAX_PIECE); start < end; start += 1) {
      const before = cost[start] ?? Infinity;
      if (before === Infinity) continue;
      const piece = pieceOf(folded.slice(start, end), folded.slice(end), words);
      if (piece === null) continue;
      const total = before + piece.cost;
      if (total >= (cost[end] ?? Infinity)) continue;
      cost[end] = total;
      choice[end] = { from: start, word: piece.word };
    }
  }
  const asIs = isItalianWord(folded) ? RARE_WORD_COST : UNKNOWN_BASE_COST + n * UNKNOWN_LETTER_COST;
  const whole =
    /^[a-z]+$/.test(folded) && !isItalianWord(folded) ? nearestItalianWord(folded) : null;
  // A token that is no word of any list and is one slip from one is that word misread, even
  // when it is short enough that leaving it costs less than a slip: measured on the whole
  // evaluation set, mending such tokens reads more words right than leaving them.
  const best = Math.min(asIs, whole === null ? Infinity : MENDED_COST);
  if ((cost[n] ?? Infinity) >= best) return whole === null ? null : [whole];
  const pieces: string[] = [];
  for (let end = n; end > 0;) {
    const step = choice[end];
    if (step === undefined) return null;
    pieces.unshift(step.word);
    end = step.from;
  }
  return pieces;
}

/**
 * A line as read, made into Italian words: punctuation glued between two words opens a space
 * ('Fra,ci'), the parts of a word that something in front of it parted are joined
 * (joinParted), apostrophes and hyphens part a token into pieces mended one by one, and each
 * piece that is not a word is segmented or mended (segmentToken), given the accents Italian
 * spells it with, and written in the case it was read in.
 */
export function mendLine(line: string): string {
  const tokens = line
    .replace(/([\p{L}\p{N}][.,;:!?]+)(?=[\p{L}\p{N}])/gu, '$1 ')
    .split(/\s+/)
    .filter((token) => token !== '');
  return joinParted(tokens)
    .map((token) => token.replace(/[\p{L}\p{N}]+/gu, mendRun))
    .join(' ');
}

/** The shortest word two parted pieces are joined into; shorter joins are mostly chance. */
const MIN_JOINED = 5;

/**
 * Two tokens in a row that are parts of one word, joined: a pole or a sticker in front of a
 * writing hides a letter and parts the word around it ('INS EME' for INSIEME, 'STE LE' for
 * STELLE), as wide letter spacing parts it too. Joined when at least one of the two is no
 * word of the spoken list and the two with one letter between them spell one, or neither is
 * and the two as they are spell one (the commonest word if several do).
 */
function joinParted(tokens: readonly string[]): string[] {
  const words = segmentWords();
  const joined: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const first = tokens[i] ?? '';
    const second = /^(\p{L}+)(\P{L}*)$/u.exec(tokens[i + 1] ?? '');
    const word =
      /^\p{L}+$/u.test(first) && second !== null
        ? partedWord(foldWord(first), foldWord(second[1] ?? ''), words)
        : null;
    if (word === null || second === null) {
      joined.push(first);
      continue;
    }
    const missing = word.slice(first.length, word.length - (second[1] ?? '').length);
    const upper = first === first.toUpperCase();
    joined.push(
      first + (upper ? missing.toUpperCase() : missing) + (second[1] ?? '') + (second[2] ?? ''),
    );
    i += 1;
  }
  return joined;
}

function partedWord(head: string, tail: string, words: ReadonlySet<string>): string | null {
  // A letter alone is mostly a word of its own ('ama e fai'): a part only beside no word at all.
  if (head.length === 1 && isItalianWord(tail)) return null;
  if (tail.length === 1 && isItalianWord(head)) return null;
  if (words.has(head) && words.has(tail)) return null;
  let best: string | null = null;
  let bestRank = Infinity;
  const consider = (candidate: string) => {
    const rank = wordRank(candidate);
    if (candidate.length < MIN_JOINED || !words.has(candidate) || rank === undefined) return;
    if (rank < bestRank) {
      best = candidate;
      bestRank = rank;
    }
  };
  // Glued as they are, a word and a piece are likelier a word and a misread one ('Gra no').
  if (!words.has(head) && !words.has(tail)) consider(head + tail);
  for (const letter of ALPHABET) consider(head + letter + tail);
  return best;
}

/** One run of letters and digits, mended and re-cased. */
function mendRun(run: string): string {
  const folded = foldWord(run);
  const pieces = (segmentToken(folded) ?? [folded]).map(withAccents);
  if (pieces.length === 1 && pieces[0] === folded) return run;
  const upper = /\p{Lu}/u.test(run) && run === run.toUpperCase() && /\p{L}.*\p{L}/u.test(run);
  const capital = !upper && /^\p{Lu}/u.test(run);
  return pieces
    .map((piece, index) =>
      upper
        ? piece.toUpperCase()
        : capital && index === 0
          ? piece.charAt(0).toUpperCase() + piece.slice(1)
          : piece,
    )
    .join(' ');
}

/**
 * Letters of a reading in tokens that are Italian words, or words glued together that part
 * into words of the list (segmentToken): how Italian a reading is, to choose between the
 * recogniser's likeliest readings of a line (ocr.ts).
 */
export function wordLetters(text: string): number {
  const words = segmentWords();
  let letters = 0;
  for (const token of foldWord(text).split(/[^a-z0-9]+/)) {
    if (token === '') continue;
    const pieces = segmentToken(token);
    const italian =
      pieces === null
        ? words.has(token) || isItalianWord(token) || withClitic(token)
        : pieces.every((piece) => words.has(piece));
    if (italian) letters += token.length;
  }
  return letters;
}
