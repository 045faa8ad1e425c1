/*
 * The order of search's fallback (search.service.ts, looserMatches), without the database:
 * the candidates of every word's lists, best first by more words matched, then fewer slips,
 * then rarer words matched, then the most recently uploaded (higher id).
 *
 * Why not an object per candidate in a Map and one sort with a comparator, as before: a slip in
 * a common word brings its neighbour's whole list (the candidate cap), so a two-word fallback
 * ranks about 6,000 candidates at 1M images, and that took 2–3 ms of a ~16 ms search in the
 * process (docs/PERFORMANCE.md, "Search's fallback: its order from its lists' own"). The lists
 * come highest id first, so merging them meets every candidate once, in id order, with all the
 * words it holds; the candidates fall into a few groups of equal rank (the words held and their
 * slips fix it) and each group fills up already in id order. Only the groups are compared.
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

/** The most query words the fallback ranks (search.text.ts gives a query at most as many). */
export const MAX_FALLBACK_WORDS = WORD_BITS;

/**
 * One list the fallback read: a query word (its place) with this many slips, and the ids of
 * the images holding it, highest first, each once (as approvedWithAnyOf gives them).
 */
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

/** A group of candidates of one state, highest id first. */
interface Group {
  state: number;
  words: number;
  slips: number;
  /** Summed log of how many photos hold each word held (lower: rarer words). */
  commonness: number;
  ids: number[];
}

/**
 * Ranks the images of `lists` holding at least `needed` of `wordCount` query words (of those
 * whose bits are in `counted`, every word by default), without
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
  counted: number = (1 << wordCount) - 1,
): FallbackOrder {
  if (wordCount > MAX_FALLBACK_WORDS) throw new RangeError('too many words for the fallback');
  const holding = new Array<number>(wordCount).fill(0);
  const byState = new Map<number, number[]>();
  // Plain indexed loops: this runs once per candidate, and iterators allocate.
  const heads = new Int32Array(lists.length);
  for (;;) {
    // The highest id at the head of any list is the next candidate, met in every list it is in.
    let id = -1;
    for (let index = 0; index < lists.length; index += 1) {
      const ids = lists[index]?.ids ?? [];
      const at = heads[index] ?? 0;
      // Bounds checked first: a read past an array's end is V8's slow path.
      if (at < ids.length && (ids[at] ?? -1) > id) id = ids[at] ?? -1;
    }
    if (id < 0) break;
    let state = 0;
    for (let index = 0; index < lists.length; index += 1) {
      const list = lists[index];
      const at = heads[index] ?? 0;
      if (list === undefined || at >= list.ids.length || list.ids[at] !== id) continue;
      if (at + 1 < list.ids.length && (list.ids[at + 1] ?? id) >= id) {
        throw new RangeError('a list is not highest id first');
      }
      heads[index] = at + 1;
      const bit = 1 << list.word;
      if ((state & bit) !== 0) continue;
      state += bit + list.slips * SLIP_UNIT;
      holding[list.word] = (holding[list.word] ?? 0) + 1;
    }
    const words = popcount(state & WORDS_MASK);
    if (popcount(state & counted) < needed || exclude.has(id)) continue;
    if (words === wordCount && state < SLIP_UNIT) continue;
    const group = byState.get(state);
    if (group === undefined) byState.set(state, [id]);
    else group.push(id);
  }

  const commonness = holding.map((count) => Math.log(count));
  const groups: Group[] = [...byState].map(([state, ids]) => {
    let sum = 0;
    for (let word = 0; word < wordCount; word += 1) {
      if ((state & (1 << word)) !== 0) sum += commonness[word] ?? 0;
    }
    const words = popcount(state & WORDS_MASK);
    return { state, words, slips: state >>> WORD_BITS, commonness: sum, ids };
  });
  groups.sort((a, b) => b.words - a.words || a.slips - b.slips || a.commonness - b.commonness);

  const order: FallbackOrder = { ids: [], rank: [], matched: [] };
  const emit = (id: number, matched: number, rank: number) => {
    order.ids.push(id);
    order.rank.push(rank);
    order.matched.push(matched);
  };
  let rank = -1;
  for (let start = 0; start < groups.length;) {
    const first = groups[start];
    if (first === undefined) break;
    let end = start + 1;
    while (end < groups.length && sameRank(first, groups[end])) end += 1;
    rank += 1;
    if (end - start === 1) {
      for (const id of first.ids) emit(id, first.state & WORDS_MASK, rank);
    } else {
      // States of equal rank (two words held by as many photos) interleave by id: rare.
      const members = groups
        .slice(start, end)
        .flatMap(({ state, ids }) => ids.map((id) => ({ id, matched: state & WORDS_MASK })))
        .sort((a, b) => b.id - a.id);
      for (const { id, matched } of members) emit(id, matched, rank);
    }
    start = end;
  }
  return order;
}

function sameRank(a: Group, b: Group | undefined): boolean {
  return (
    b !== undefined && a.words === b.words && a.slips === b.slips && a.commonness === b.commonness
  );
}

function popcount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}
