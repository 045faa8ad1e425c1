/*
 * The order of search's fallback (search.service.ts, looserMatches), without the database:
 * the candidates of every word's lists, best first by more words matched, then fewer slips,
 * then rarer words matched, then the most recently uploaded (higher id).
 *
 * Why not an object per candidate and one sort with a comparator: a slip in a common word
 * brings its neighbour's whole list (the candidate cap), so a two-word fallback ranks about
 * 6,000 candidates at 1M images, and that sort alone cost ~2 ms a search in the process
 * (docs/PERFORMANCE.md, "Search's fallback: its order without a comparator"). Here a
 * candidate is one number in a Map (the words it holds, one bit each, and its slips); the
 * candidates fall into a few groups of equal rank (the words held and their slips fix it), and
 * only the groups are compared; within a group the ids are sorted as numbers, natively.
 *
 * The most recently uploaded (higher id) first among equals, in both search orders, not by
 * publication as the strict matches are: reading thousands of candidates' publication cost
 * more than the rest of the search at 1M images on PostgreSQL (docs/PERFORMANCE.md, "Search's
 * fallback without the images table"); photos are approved in about the order they arrive, so
 * the two orders seldom differ.
 */

/** The query words a candidate holds: one bit each, by their place in the query. */
const WORD_BITS = 12;
const WORDS_MASK = (1 << WORD_BITS) - 1;
/** A candidate's state is its words' bits, then its slips above them. */
const SLIP_UNIT = 1 << WORD_BITS;
/** A candidate packed with its state in one float: id × STATE_RANGE + state, exact below 2^53. */
const STATE_RANGE = 1 << 16;

/** The most query words the fallback ranks (a query's words beyond it are not searched). */
export const MAX_FALLBACK_WORDS = WORD_BITS;

/** One list the fallback read: a query word (its place) with this many slips, ids highest first. */
export interface FallbackList {
  word: number;
  slips: number;
  ids: readonly number[];
}

/**
 * The fallback's candidates in order. `rank[i]` numbers the groups of equal rank from 0 (best),
 * for a later order within them (nearness, looserMatches); `matched[i]` is the words' bits.
 * Parallel arrays rather than an object per candidate: there are thousands.
 */
export interface FallbackOrder {
  ids: number[];
  rank: number[];
  matched: number[];
}

/**
 * Ranks the images of `lists` holding at least `needed` of `wordCount` query words, without
 * those in `exclude` and those holding every word with no slip (strict matches). A word's
 * lists come fewest slips first; an image in several of them counts with the first. A word
 * found in fewer photos tells more about which one was meant (as bm25's inverse document
 * frequency): its log count, summed over the words held in the query's order so that equal
 * sets of words give equal sums, ranks lower sums first. The count includes every image of the
 * word's lists, and stops at the candidate cap as they do.
 */
export function orderFallback(
  lists: readonly FallbackList[],
  wordCount: number,
  needed: number,
  exclude: ReadonlySet<number>,
): FallbackOrder {
  if (wordCount > MAX_FALLBACK_WORDS) throw new RangeError('too many words for the fallback');
  // Every word's most slips, summed, must fit above the words' bits.
  const mostSlips = new Array<number>(wordCount).fill(0);
  for (const { word, slips } of lists) mostSlips[word] = Math.max(mostSlips[word] ?? 0, slips);
  if (mostSlips.reduce((a, b) => a + b, 0) * SLIP_UNIT + WORDS_MASK >= STATE_RANGE) {
    throw new RangeError('too many slips for the fallback');
  }
  const states = new Map<number, number>();
  const holding = new Array<number>(wordCount).fill(0);
  for (const { word, slips, ids } of lists) {
    const bit = 1 << word;
    const add = bit + slips * SLIP_UNIT;
    for (const id of ids) {
      const state = states.get(id);
      if (state === undefined) states.set(id, add);
      else if ((state & bit) === 0) states.set(id, state + add);
      else continue;
      holding[word] = (holding[word] ?? 0) + 1;
    }
  }
  const commonness = holding.map((count) => Math.log(count));

  // Each state's members, packed with their state; a state is a group of equal rank.
  const members = new Map<number, number[]>();
  for (const [id, state] of states) {
    const words = popcount(state & WORDS_MASK);
    if (words < needed || exclude.has(id)) continue;
    if (words === wordCount && state < SLIP_UNIT) continue;
    const list = members.get(state);
    if (list === undefined) members.set(state, [id * STATE_RANGE + state]);
    else list.push(id * STATE_RANGE + state);
  }
  const groups = [...members.keys()].map((state) => {
    let sum = 0;
    for (let word = 0; word < wordCount; word += 1) {
      if ((state & (1 << word)) !== 0) sum += commonness[word] ?? 0;
    }
    return { state, words: popcount(state & WORDS_MASK), slips: state >>> WORD_BITS, sum };
  });
  groups.sort((a, b) => b.words - a.words || a.slips - b.slips || a.sum - b.sum);

  const order: FallbackOrder = { ids: [], rank: [], matched: [] };
  let rank = -1;
  for (let start = 0; start < groups.length;) {
    // States of equal rank (two words held by as many photos) interleave by id, as one group.
    const first = groups[start];
    if (first === undefined) break;
    let end = start + 1;
    while (end < groups.length && sameRank(first, groups[end])) end += 1;
    const packed = Float64Array.from(
      groups.slice(start, end).flatMap(({ state }) => members.get(state) ?? []),
    ).sort();
    rank += 1;
    for (let i = packed.length - 1; i >= 0; i -= 1) {
      const value = packed[i] ?? 0;
      const state = value % STATE_RANGE;
      order.ids.push((value - state) / STATE_RANGE);
      order.rank.push(rank);
      order.matched.push(state & WORDS_MASK);
    }
    start = end;
  }
  return order;
}

function sameRank(
  a: { words: number; slips: number; sum: number },
  b: { words: number; slips: number; sum: number } | undefined,
): boolean {
  return b !== undefined && a.words === b.words && a.slips === b.slips && a.sum === b.sum;
}

function popcount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}
