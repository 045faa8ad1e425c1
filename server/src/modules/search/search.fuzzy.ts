/*
 * The pure side of search's fallback (issue 9, step 5): which indexed terms count as a query
 * word read with a slip. No database here; search.repository.ts stores and looks up the keys.
 *
 * The vocabulary is a deletion-neighbourhood index (SymSpell, Garbe 2012): every indexed stem
 * of FUZZY_MIN_LENGTH to FUZZY_MAX_LENGTH letters is stored under itself and under each string
 * made by deleting one of its letters. Two strings within one edit (a letter wrong, missing or
 * extra, or two neighbours swapped) always share such a key, so looking up the query stem's own
 * keys (length + 1 of them, by primary key) finds every term within one slip, whatever the
 * size of the vocabulary; OSA distance then drops the few keys shared by terms two edits apart.
 *
 * Why this and not trigrams: a stem of 4–6 letters, the common case ('mur', 'parol', 'amor'),
 * has 4–6 padded trigrams and one slip destroys up to three of them, so a trigram prefilter
 * either misses the slip or lets half the vocabulary through; PostgreSQL's pg_trgm also needs
 * an extension (a superuser), which search has avoided so far. FTS5's fts5vocab and
 * PostgreSQL's ts_stat list the terms, but only by reading all of them (ts_stat reads every
 * document), which a request at a million images cannot afford. The deletion keys cost about
 * length + 1 rows per distinct term, written once when a term is first seen, and one indexed
 * IN lookup per query word; both engines hold the same rows, so they find the same terms.
 */

/** Shorter stems get no slip: one edit in 'mur' or 'zanz' is a different word as often as not. */
export const FUZZY_MIN_LENGTH = 5;
/** Longer stems are OCR runs of joined words or garbage: nobody types them, no keys for them. */
export const FUZZY_MAX_LENGTH = 24;
/** Terms a query word may stand for, nearest first: keeps the fallback's OR query bounded. */
export const MAX_NEIGHBOURS = 32;

/** How many slips a query stem may carry: none when short, one from FUZZY_MIN_LENGTH letters. */
export function allowedSlips(stem: string): number {
  const length = Array.from(stem).length;
  return length >= FUZZY_MIN_LENGTH && length <= FUZZY_MAX_LENGTH ? 1 : 0;
}

/** Whether a document term gets keys in the vocabulary (the same bounds as the queries). */
export function hasFuzzyKeys(term: string): boolean {
  // Terms one letter shorter than a query stem are within one slip of it (a missing letter).
  const length = Array.from(term).length;
  return length >= FUZZY_MIN_LENGTH - 1 && length <= FUZZY_MAX_LENGTH;
}

/** The term itself and every one-letter deletion of it, distinct (by code point). */
export function deletionKeys(term: string): string[] {
  const letters = Array.from(term);
  const keys = new Set<string>([term]);
  for (let i = 0; i < letters.length; i += 1) {
    keys.add(letters.slice(0, i).join('') + letters.slice(i + 1).join(''));
  }
  return [...keys];
}

/** Room for the code points of two strings and three rows of their alignment. */
interface Scratch {
  s: Int32Array;
  t: Int32Array;
  before: Int32Array;
  previous: Int32Array;
  current: Int32Array;
}

function scratchFor(length: number): Scratch {
  return {
    s: new Int32Array(length),
    t: new Int32Array(length),
    before: new Int32Array(length + 1),
    previous: new Int32Array(length + 1),
    current: new Int32Array(length + 1),
  };
}

/**
 * slipDistance's room for words and stems. The fallback measures thousands of pairs a search
 * (nearness), and arrays made per call were a third of its time with the garbage they left;
 * reused, a call allocates nothing. A longer string (an OCR run of joined words) gets room of
 * its own for that call, so this stays small. Safe to share: slipDistance is synchronous and
 * calls nothing that could re-enter it.
 */
const SHARED_SCRATCH = scratchFor(64);

/** Writes the code points of `text` into `into` and returns how many there are. */
function codePoints(text: string, into: Int32Array): number {
  let length = 0;
  for (const char of text) into[length++] = char.codePointAt(0) ?? 0;
  return length;
}

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbours, which OCR
 * and typing both make), or `limit + 1` when it exceeds `limit`. Compares code points.
 */
export function slipDistance(a: string, b: string, limit: number): number {
  // A string has at most as many code points as UTF-16 units.
  const room = Math.max(a.length, b.length);
  const scratch = room <= SHARED_SCRATCH.s.length ? SHARED_SCRATCH : scratchFor(room);
  const { s, t } = scratch;
  const m = codePoints(a, s);
  const n = codePoints(b, t);
  if (Math.abs(m - n) > limit) return limit + 1;
  let { before, previous, current } = scratch;
  for (let j = 0; j <= n; j += 1) previous[j] = j;
  for (let i = 1; i <= m; i += 1) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= n; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  const distance = previous[n] ?? limit + 1;
  return distance <= limit ? distance : limit + 1;
}

/** A term of the vocabulary standing for a query word, with the slips between them. */
export interface Neighbour {
  term: string;
  slips: number;
}

/** A form of the vocabulary (a document's folded word or stem) and the stem it is indexed as. */
export interface VocabularyForm {
  form: string;
  term: string;
}

/** The keys to look up for a query word: those of the word and of its stem that may slip. */
export function queryKeys(word: string, stem: string): string[] {
  const keys = new Set<string>();
  if (allowedSlips(word) > 0) for (const key of deletionKeys(word)) keys.add(key);
  if (allowedSlips(stem) > 0) for (const key of deletionKeys(stem)) keys.add(key);
  return [...keys];
}

/**
 * The terms found under a query word's keys that stand for it: a form within the word's
 * allowed slips of the folded word, or of its stem. Both, because the stemmer is thrown by a
 * slip in an ending ('ringraziamento' → 'ringraz', but a misread 'ringraziamemto' →
 * 'ringraziamemt') and is not consistent across number either ('pellicano' → 'pellic',
 * 'pellicani' → 'pellican'), while a slip in the root leaves the endings alike. The query's
 * own stem is excluded (the exact word is matched on its own); any other term counts at
 * least one slip. Nearest then alphabetical, at most MAX_NEIGHBOURS.
 */
export function neighboursOf(
  word: string,
  stem: string,
  candidates: Iterable<VocabularyForm>,
): Neighbour[] {
  const wordLimit = allowedSlips(word);
  const stemLimit = allowedSlips(stem);
  const best = new Map<string, number>();
  for (const { form, term } of candidates) {
    if (term === stem) continue;
    let slips = Infinity;
    if (wordLimit > 0) {
      const distance = slipDistance(word, form, wordLimit);
      if (distance <= wordLimit) slips = distance;
    }
    if (stemLimit > 0) {
      const distance = slipDistance(stem, form, stemLimit);
      if (distance <= stemLimit && distance < slips) slips = distance;
    }
    if (slips === Infinity) continue;
    slips = Math.max(1, slips);
    if (slips < (best.get(term) ?? Infinity)) best.set(term, slips);
  }
  return [...best]
    .map(([term, slips]) => ({ term, slips }))
    .sort((a, b) => a.slips - b.slips || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
    .slice(0, MAX_NEIGHBOURS);
}

/** How far the fallback looks for a near reading of a query word it did not match. */
export const NEAR_LIMIT = 3;

/**
 * How near a reading comes to a query word it does not hold: the fewest slips (OSA) between
 * the word or its stem and any of the reading's folded words or stems, up to NEAR_LIMIT, or
 * NEAR_LIMIT + 1 when none is that near. 'muori' in 'poi buoni' is 2.
 */
export function nearness(word: string, stem: string, forms: readonly string[]): number {
  let best = NEAR_LIMIT + 1;
  for (const form of forms) {
    // Lengths too far apart are never near: most forms stop here, before any alignment.
    if (Math.abs(form.length - word.length) <= NEAR_LIMIT) {
      best = Math.min(best, slipDistance(word, form, NEAR_LIMIT));
    }
    if (Math.abs(form.length - stem.length) <= NEAR_LIMIT) {
      best = Math.min(best, slipDistance(stem, form, NEAR_LIMIT));
    }
    if (best === 0) break;
  }
  return best;
}
