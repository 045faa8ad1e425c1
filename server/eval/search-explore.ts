/*
 * Exploration of search's slip tolerance on stored readings (issue 9, step 7): reads the
 * per-picture analyses written by `npm run eval -- --dump FILE`, asks the evaluation's own
 * queries (same seed, same order) of an in-memory model of the search, and says how many of
 * the queries the product misses would be found if long words could carry two slips.
 *
 *   npx tsx eval/search-explore.ts FILE [--seed muri] [--misses]
 *
 * The model: a picture matches strictly when its reading or its alternates hold every query
 * stem; the fallback takes the others holding at least half of the query words, each whole or
 * within its allowed slips of a word or stem of the reading, best first by words matched, then
 * slips, then how near the reading comes to the words it lacks, then newest, as
 * search.service.ts ranks them. Strict matches are not ranked here (bm25 and ts_rank_cd are
 * the engines'): a picture among more than five strict matches is counted apart. The model's
 * figure for the product's rule is printed beside the eval's, so the two can be compared.
 */
import fs from 'node:fs/promises';
import { Random } from '../src/demo/random.js';
import { NEAR_LIMIT, nearness, slipDistance } from '../src/modules/search/search.fuzzy.js';
import { queryWords, wordsAndStems } from '../src/modules/search/search.text.js';
import { buildEvalSet } from './dataset.js';
import { searchQuery } from './metrics.js';

interface Dumped {
  id_image: number;
  extracted_text: string | null;
  /** The OCR's alternates (absent from dumps made before they existed). */
  ocr_alternates?: string | null;
  truth: string;
}

interface Doc {
  id: number;
  stems: Set<string>;
  forms: string[];
  /** The reading's folded words, which the product's nearness compares. */
  words: string[];
}

/** Slips allowed for a query word or stem of `length` letters under a rule. */
type SlipRule = (length: number) => number;

const current: SlipRule = (length) => (length >= 5 && length <= 24 ? 1 : 0);
const twoFrom =
  (n: number): SlipRule =>
  (length) =>
    length >= n && length <= 24 ? 2 : current(length);

/** The fewest slips with which `doc` holds the query word, or Infinity. */
function slipsIn(doc: Doc, word: string, stem: string, rule: SlipRule): number {
  if (doc.stems.has(stem)) return 0;
  const wordLimit = rule(Array.from(word).length);
  const stemLimit = rule(Array.from(stem).length);
  let best = Infinity;
  for (const form of doc.forms) {
    if (wordLimit > 0) {
      const d = slipDistance(word, form, wordLimit);
      if (d <= wordLimit && d < best) best = d;
    }
    if (stemLimit > 0) {
      const d = slipDistance(stem, form, stemLimit);
      if (d <= stemLimit && d < best) best = d;
    }
  }
  return best === Infinity ? Infinity : Math.max(1, best);
}

type Outcome = 'strict' | 'strict, ranked' | 'looser' | 'missed';

function ask(
  docs: readonly Doc[],
  target: number,
  query: string,
  rule: SlipRule,
  nearFirst = false,
): Outcome {
  const words = queryWords(query);
  const strict = docs.filter((doc) => words.every(({ stem }) => doc.stems.has(stem)));
  if (strict.some((doc) => doc.id === target)) {
    return strict.length <= 5 ? 'strict' : 'strict, ranked';
  }
  const needed = Math.ceil(words.length / 2);
  const looser: Array<{ id: number; words: number; slips: number; near: number }> = [];
  for (const doc of docs) {
    if (strict.includes(doc)) continue;
    let matched = 0;
    let slips = 0;
    let near = 0;
    for (const { word, stem } of words) {
      const s = slipsIn(doc, word, stem, rule);
      if (s !== Infinity) {
        matched += 1;
        slips += s;
      } else if (nearFirst) {
        // How near the unmatched word comes (up to three slips): a ranking to try.
        near += closest(doc, word, stem);
      }
    }
    if (matched >= needed && matched > 0) looser.push({ id: doc.id, words: matched, slips, near });
  }
  // Same publication time for every picture of the set: newest is the highest id.
  looser.sort((a, b) => b.words - a.words || a.slips - b.slips || a.near - b.near || b.id - a.id);
  const rank = looser.findIndex((hit) => hit.id === target);
  return rank >= 0 && strict.length + rank < 5 ? 'looser' : 'missed';
}

/** The query word's nearness to the picture's reading (slips, up to 3), as the product's. */
function closest(doc: Doc, word: string, stem: string): number {
  return doc.stems.has(stem) ? 0 : nearness(word, stem, doc.words);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: search-explore.ts FILE [--seed S] [--misses]');
  const seedAt = process.argv.indexOf('--seed');
  const seed = seedAt > 0 ? (process.argv[seedAt + 1] ?? 'muri') : 'muri';
  const rows = (JSON.parse(await fs.readFile(file, 'utf8')) as Dumped[]).sort(
    (a, b) => a.id_image - b.id_image,
  );
  const items = buildEvalSet(rows.length, seed);
  const docs: Doc[] = rows.map((row) => {
    // The product indexes the alternates too (at the lowest weight, which this model ignores).
    const pairs = wordsAndStems(`${row.extracted_text ?? ''} ${row.ocr_alternates ?? ''}`);
    return {
      id: row.id_image,
      stems: new Set(pairs.map(([, stem]) => stem)),
      forms: [...new Set(pairs.flat())],
      words: [...new Set(pairs.map(([word]) => word))],
    };
  });
  const random = new Random(`eval-queries:${seed}`);
  const queries: Array<{ index: number; query: string }> = [];
  for (const item of items) {
    if (rows[item.index]?.truth !== item.text)
      throw new Error(`dump row ${item.index} is not item ${item.index}`);
    const query = searchQuery(item.text, (n) => random.int(0, n - 1));
    if (query !== null) queries.push({ index: item.index, query });
  }
  const rules: Record<string, SlipRule> = {
    'one slip from 5 letters (product)': current,
    'and two from 7': twoFrom(7),
    'and two from 8': twoFrom(8),
    'and two from 9': twoFrom(9),
    'and two from 10': twoFrom(10),
  };
  const baseline = new Map<number, Outcome>();
  for (const [name, rule] of Object.entries(rules)) {
    const counts = new Map<Outcome, number>();
    const gained: string[] = [];
    for (const { index, query } of queries) {
      const doc = docs[index] as Doc;
      const outcome = ask(docs, doc.id, query, rule, true);
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      if (rule === current) baseline.set(index, outcome);
      else if (baseline.get(index) === 'missed' && outcome !== 'missed') {
        gained.push(`'${query}' in '${rows[index]?.extracted_text ?? ''}'`);
      }
    }
    const found = (counts.get('strict') ?? 0) + (counts.get('looser') ?? 0);
    console.log(
      `${name.padEnd(36)} found ${found} of ${queries.length} (strict ${counts.get('strict') ?? 0}, ` +
        `looser ${counts.get('looser') ?? 0}; among > 5 strict ${counts.get('strict, ranked') ?? 0}; ` +
        `missed ${counts.get('missed') ?? 0})`,
    );
    for (const line of gained) console.log(`    gained ${line}`);
  }
  // The ranking before step 12: pictures matching the same words with the same slips newest
  // first, without looking how near their unmatched words come.
  let newestFound = 0;
  const newestChanged: string[] = [];
  for (const { index, query } of queries) {
    const doc = docs[index] as Doc;
    const outcome = ask(docs, doc.id, query, current, false);
    if (outcome === 'strict' || outcome === 'looser') newestFound += 1;
    if (baseline.get(index) === 'missed' && outcome !== 'missed') {
      newestChanged.push(`gained '${query}' in '${rows[index]?.extracted_text ?? ''}'`);
    }
    if (baseline.get(index) === 'looser' && outcome === 'missed') {
      newestChanged.push(`lost '${query}' in '${rows[index]?.extracted_text ?? ''}'`);
    }
  }
  console.log(`one slip, without nearness (newest)  found ${newestFound} of ${queries.length}`);
  for (const line of newestChanged) console.log(`    ${line}`);
  // The misses of the product's rule, by how far the query's words are from the reading.
  const table = new Map<string, number>();
  for (const { index, query } of queries) {
    if (baseline.get(index) !== 'missed') continue;
    const doc = docs[index] as Doc;
    const distances = queryWords(query).map(({ word, stem }) => {
      const d = closest(doc, word, stem);
      return `${d > NEAR_LIMIT ? '>3' : String(d)}${d === 2 ? `(${Array.from(word).length})` : ''}`;
    });
    const key = distances
      .map((d) => d.replace(/\(\d+\)/, ''))
      .sort()
      .join(' + ');
    table.set(key, (table.get(key) ?? 0) + 1);
    if (process.argv.includes('--misses')) {
      console.log(
        `miss [${distances.join(', ')}] '${query}' in '${rows[index]?.extracted_text ?? ''}'`,
      );
    }
  }
  console.log(
    'misses of the product rule by the slips of each query word to the closest read form:',
  );
  for (const [key, n] of [...table].sort((a, b) => b[1] - a[1]))
    console.log(`  ${key.padEnd(16)} ${n}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
