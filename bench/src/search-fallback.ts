import { parseArgs } from 'node:util';
import { MULTI_WORD_PATHS } from '../../server/src/modules/search/search.repository.js';
import { createSearchService } from '../../server/src/modules/search/search.service.js';
import { dropCatalogue, generateCatalogue, openCatalogue, readCatalogue } from './generate.js';
import { POSTGRES_URL_OPTION, failer, parseEngine } from './options.js';

/*
 * Times searches in process, on a generated catalogue, one at a time: the common word whole
 * (strict, no fallback), words held by about 1 %, 0.5 % and 0.1 % of the images and by a few
 * (issue 8, goal 3 on PostgreSQL: a word's newest matches are costly when they are scattered),
 * the common word with a slip (the fallback; its neighbour's list stops at the candidate cap),
 * a rare word with a slip, a word found nowhere, and two-word queries, strict and with a slip.
 * Each query runs `--runs` times (15) in each order, after one untimed search that warms the
 * connection; the median, the 95th percentile and the slowest are printed. Not a load test
 * (see run.ts for those).
 *
 *   npm run bench:search-fallback -- [--engine sqlite|postgres] [--images 10000] [--runs 15]
 *   npm run bench:search-fallback -- --data /tmp/muri-bench-XXXX   (a kept catalogue, e.g. 1M)
 *   npm run bench:search-fallback -- --data … --only 'parole,sempre parole' --orders newest
 *   npm run bench:search-fallback -- --data … --path lookups   (PostgreSQL: force one way of
 *     reading several words, to compare it with the one chosen per query)
 */

const fail = failer('search-fallback');
const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    images: { type: 'string', default: '10000' },
    data: { type: 'string' },
    runs: { type: 'string', default: '15' },
    only: { type: 'string' },
    orders: { type: 'string', default: 'relevance,newest' },
    path: { type: 'string' },
    'postgres-url': POSTGRES_URL_OPTION,
  },
});
const engine = parseEngine(values.engine, fail);
const images = Number.parseInt(values.images, 10);
if (!Number.isInteger(images) || images < 100) fail('--images must be a whole number ≥ 100');
const postgresUrl = values['postgres-url'];

const multiWordPath =
  values.path === undefined
    ? undefined
    : (MULTI_WORD_PATHS.find((known) => known === values.path) ??
      fail(`--path takes ${MULTI_WORD_PATHS.join(', ')}`));

const RUNS = Number.parseInt(values.runs, 10);
if (!Number.isInteger(RUNS) || RUNS < 1) fail('--runs must be a whole number ≥ 1');

// A kept catalogue (`npm run bench -- --size 1m --generate-only`) is read, not generated, and
// left in place at the end.
const catalogue =
  values.data === undefined
    ? await generateCatalogue({ engine, images, postgresUrl })
    : await readCatalogue(values.data);
const database = openCatalogue(catalogue);
try {
  const search = createSearchService(database.db, database.dialect, { multiWordPath });
  const common = catalogue.meta.commonWord;
  // The common word with its third letter wrong: one slip from a third of the catalogue.
  const slipped = `${common.slice(0, 2)}x${common.slice(3)}`;
  // Shares at 1M in the generated catalogue: 'silenzio' 1.0 %, 'parole' 0.5 %, 'stencil' (a
  // tag) 0.14 %, 'russo9427' (part of a username) 31 images.
  const all = [
    common,
    'silenzio',
    'parole',
    'stencil',
    'russo9427',
    slipped,
    `${common} parole`,
    // Two words of one phrase ('Il vento porta via le parole…'): found together.
    'vento parole',
    // Two common words ('amore' is in 12 % of the images at 1M): both lists merged.
    `amore ${common}`,
    // Two words each in more than 10,000 images that seldom meet among the newest (at 1M,
    // 3,437 of the 10,306 images holding 'silenzio' hold the common word; 2,111 hold both
    // 'amore' and 'amicizia', which are in 118,492 and 82,443 images).
    `${common} silenzio`,
    `${common} vento`,
    'amore amicizia',
    'luce stelle',
    // Three common words.
    `amore ${common} luce`,
    `${slipped} parole`,
    'librta',
    'ombrellone',
    'muri parlantx',
  ];
  const only = values.only?.split(',');
  const queries = only === undefined ? all : all.filter((query) => only.includes(query));
  const orders = values.orders
    .split(',')
    .map((order) =>
      order === 'relevance' || order === 'newest'
        ? order
        : fail('--orders takes relevance and newest, comma-separated'),
    );
  console.log(
    `${String(catalogue.meta.images)} images on ${database.dialect}; common word '${common}' ` +
      `in ${(100 * catalogue.meta.commonWordShare).toFixed(0)} % of them`,
  );
  // Untimed, a search for a word no image holds: a new PostgreSQL backend's first statements
  // fill its catalogue caches (about 20 ms more on the first search at 1M; docs/PERFORMANCE.md,
  // "Search ranked from a cold cache"), which the server's long-lived pool pays once. Timed,
  // they were the first query's slowest run, and its p95 at 15 runs. It reads the search
  // tables' indexes, not the queries' own pages.
  for (const order of orders) await search.search('qxqxqx', 0, 120, order);
  for (const query of queries) {
    for (const order of orders) {
      const times: number[] = [];
      let total = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now();
        total = (await search.search(query, 0, 120, order)).total;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(RUNS / 2)] ?? 0;
      const p95 = times[Math.ceil(RUNS * 0.95) - 1] ?? 0;
      const slowest = times[RUNS - 1] ?? 0;
      console.log(
        `  ${query.padEnd(24)} ${order.padEnd(9)} total ${String(total).padStart(5)}  ` +
          `median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
      );
    }
  }
} finally {
  await database.close();
  if (values.data === undefined) await dropCatalogue(catalogue, postgresUrl);
}
