import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createRandom } from '../../server/src/demo/random.js';
import {
  MULTI_WORD_PATHS,
  createSearchRepository,
  type SearchOrder,
} from '../../server/src/modules/search/search.repository.js';
import { openCatalogue, readCatalogue } from './generate.js';
import { failer } from './options.js';

/*
 * Strict searches of random pairs and triples of the dense words (the words kept as bitmaps),
 * on a kept PostgreSQL catalogue, in process, one at a time: issue 8, goal 3 for the queries of
 * common words, whose cost depends on how often their images meet. Each query's first page of
 * 120 runs `--runs` times (5) in each order; the distribution of the queries' medians is
 * printed, with the slowest queries by name. `--check` also compares each query's first page
 * and the page at 1,900 with those of the lookups path (the plainest way of reading them), and
 * exits with 1 when one differs. Numbers (stems of digits) are left out.
 *
 *   npm run bench:dense-queries -- --data /tmp/muri-bench-XXXX [--queries 150] [--runs 5]
 *     [--seed dense] [--orders newest,relevance] [--path intersect] [--check]
 */

const fail = failer('dense-queries');
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    queries: { type: 'string', default: '150' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: 'dense' },
    orders: { type: 'string', default: 'newest,relevance' },
    path: { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const data = values.data ?? fail('--data <kept PostgreSQL catalogue> is required');
const QUERIES = Number.parseInt(values.queries, 10);
const RUNS = Number.parseInt(values.runs, 10);
if (!Number.isInteger(QUERIES) || QUERIES < 1) fail('--queries must be a whole number ≥ 1');
if (!Number.isInteger(RUNS) || RUNS < 1) fail('--runs must be a whole number ≥ 1');
const multiWordPath =
  values.path === undefined
    ? undefined
    : (MULTI_WORD_PATHS.find((known) => known === values.path) ??
      fail(`--path takes ${MULTI_WORD_PATHS.join(', ')}`));
const orders = values.orders
  .split(',')
  .map((order): SearchOrder =>
    order === 'relevance' || order === 'newest'
      ? order
      : fail('--orders takes relevance and newest, comma-separated'),
  );

const catalogue = await readCatalogue(data);
const database = openCatalogue(catalogue);
if (database.dialect !== 'postgres') fail('dense words are kept on PostgreSQL only');
try {
  const dense = (
    await sql<{ term: string }>`
      SELECT term FROM search_dense_terms WHERE term !~ '[0-9]' ORDER BY term COLLATE "C"
    `.execute(database.db)
  ).rows.map((row) => row.term);
  if (dense.length < 3) fail('the catalogue has fewer than three dense words');
  const random = createRandom(values.seed);
  // Four pairs to a triple, as people type.
  const queries: string[][] = [];
  while (queries.length < QUERIES) {
    const size = random.next() < 0.8 ? 2 : 3;
    const terms = new Set<string>();
    while (terms.size < size) terms.add(random.pick(dense));
    queries.push([...terms]);
  }
  const repo = createSearchRepository(
    database.db,
    'postgres',
    multiWordPath === undefined ? {} : { multiWordPath },
  );
  const reference = createSearchRepository(database.db, 'postgres', { multiWordPath: 'lookups' });
  const page = (terms: string[], order: SearchOrder, skip: number) =>
    ({ terms, prefixLast: false, skip, limit: 120, order }) as const;

  console.log(
    `${String(QUERIES)} queries of ${String(dense.length)} dense words, ${String(RUNS)} runs each, ` +
      `path ${multiWordPath ?? 'chosen per query'}`,
  );
  let differing = 0;
  for (const order of orders) {
    const medians: Array<{ query: string; ms: number }> = [];
    for (const terms of queries) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now();
        await repo.searchApprovedImages(page(terms, order, 0));
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      medians.push({ query: terms.join(' '), ms: times[Math.floor(RUNS / 2)] ?? 0 });
      if (values.check) {
        for (const skip of [0, 1900]) {
          const [got, wanted] = [
            await repo.searchApprovedImages(page(terms, order, skip)),
            await reference.searchApprovedImages(page(terms, order, skip)),
          ];
          if (JSON.stringify(got) !== JSON.stringify(wanted)) {
            differing += 1;
            console.log(
              `  differs from the lookups: ${terms.join(' ')}, ${order}, skip ${String(skip)}`,
            );
          }
        }
      }
    }
    const sorted = medians.map(({ ms }) => ms).sort((a, b) => a - b);
    const at = (share: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)] ?? 0;
    const sum = sorted.reduce((total, ms) => total + ms, 0);
    const slowest = [...medians].sort((a, b) => b.ms - a.ms).slice(0, 3);
    console.log(
      `  ${order.padEnd(9)} medians: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ` +
        `slowest ${at(1).toFixed(1)} ms, over 20 ms ${String(sorted.filter((ms) => ms > 20).length)}, ` +
        `sum ${sum.toFixed(0)} ms; slowest: ${slowest.map(({ query, ms }) => `${query} ${ms.toFixed(1)}`).join(', ')}`,
    );
  }
  if (values.check) {
    console.log(
      differing === 0
        ? '  every page as the lookups read it'
        : `  ${String(differing)} pages differ`,
    );
    if (differing > 0) process.exitCode = 1;
  }
} finally {
  await database.close();
}
