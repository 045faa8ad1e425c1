import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dropCatalogue, generateCatalogue, readCatalogue, type Catalogue } from './generate.js';
import {
  drain,
  ensureServerBuild,
  load,
  mb,
  ms,
  printTable,
  startServer,
  type LoadResult,
  type RequestShape,
  type ServerHandle,
} from './load.js';
import { createTokenService } from '../../server/src/modules/auth/tokens.js';
import { failer, parseEngine, parseSize, POSTGRES_URL_OPTION } from './options.js';

/*
 * `npm run bench -- [--size 100k|1m] [--engine sqlite|postgres] [--only a,b] [--seconds 10]
 *   [--connections 100] [--data <dir>] [--keep] [--generate-only] [--public-cache-ms 0]
 *   [--accept-encoding 'br, gzip']`
 *
 * Fills a fresh database (generate.ts), starts the built server with the reference route
 * (bench-server.mjs) and runs each scenario for a bounded time, then prints one table. Issue 8
 * asks for ratios on noisy machines, so the gallery and the reference route run back to back
 * and their ratio is printed, as is the deep page's p99 over the first page's.
 * Not part of `npm test`.
 */

const GALLERY = 120;
/** Issue 8, goal 2: the 8,000th page (or the last one of a smaller catalogue). */
const DEEP_PAGE = 8_000;

const fail = failer('bench');

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    engine: { type: 'string', default: 'sqlite' },
    only: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    data: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
    'public-cache-ms': { type: 'string' },
    /** Sent with every request, as a browser sends it (`br, gzip`); none by default. */
    'accept-encoding': { type: 'string' },
    'postgres-url': POSTGRES_URL_OPTION,
  },
});

const images = parseSize(values.size, fail);
const engine = parseEngine(values.engine, fail);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const only = values.only === undefined ? undefined : new Set(values.only.split(','));

interface Scenario {
  name: string;
  path: string;
  request?: RequestShape;
}

/**
 * A logged-in visitor's Authorization header, signed with the secret the server generated in
 * its data folder at start. Logged-in viewers are never served the answers kept for anonymous
 * visitors (server/src/plugins/public-cache.ts), so their scenario measures the full work.
 */
function loggedIn(catalogue: Catalogue, userId: number): RequestShape {
  const secret = fs.readFileSync(path.join(catalogue.dataDir, 'jwt-secret'), 'utf8').trim();
  const token = createTokenService(secret).sign({ userId, version: 0 });
  return { headers: { authorization: `Bearer ${token}` } };
}

/** The scenario's request with `--accept-encoding`, when given. */
function withEncoding(request: RequestShape | undefined): RequestShape | undefined {
  const accepted = values['accept-encoding'];
  if (accepted === undefined) return request;
  return { ...request, headers: { ...request?.headers, 'accept-encoding': accepted } };
}

async function json(server: ServerHandle, urlPath: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.origin}${urlPath}`);
  if (!response.ok) throw new Error(`${urlPath}: ${String(response.status)}`);
  return (await response.json()) as Record<string, unknown>;
}

async function scenarios(server: ServerHandle, catalogue: Catalogue): Promise<Scenario[]> {
  const { meta } = catalogue;
  const lastPage = Math.ceil(meta.images / GALLERY);
  const deep = Math.min(DEEP_PAGE, lastPage);
  const list: Scenario[] = [
    { name: 'reference', path: '/api/bench/reference' },
    { name: 'gallery', path: `/api/images?limit=${String(GALLERY)}` },
    {
      name: 'gallery-logged-in',
      path: `/api/images?limit=${String(GALLERY)}`,
      request: loggedIn(catalogue, meta.userId),
    },
    { name: 'category', path: `/api/categories/${String(meta.categoryId)}/images?limit=120` },
    { name: 'tag', path: `/api/tags/${String(meta.tagId)}/images?limit=120` },
    { name: 'profile', path: `/api/users/${String(meta.userId)}/images?limit=30` },
    {
      name: `deep-skip(p${String(deep)})`,
      path: `/api/images?limit=120&skip=${String((deep - 1) * GALLERY)}`,
    },
  ];
  // The cursor of the deep page is the one the page before hands out (fetched once, by skip).
  const before = await json(server, `/api/images?limit=120&skip=${String((deep - 2) * GALLERY)}`);
  if (typeof before.next_cursor === 'string') {
    list.push({
      name: `deep-cursor(p${String(deep)})`,
      path: `/api/images?limit=120&cursor=${encodeURIComponent(before.next_cursor)}`,
    });
  }
  list.push(
    {
      name: 'search-relevance',
      path: `/api/search?query=${encodeURIComponent(meta.commonWord)}`,
    },
    {
      name: 'search-newest',
      path: `/api/search?query=${encodeURIComponent(meta.commonWord)}&order=newest`,
    },
    { name: 'trending', path: '/api/trending-images' },
    { name: 'detail', path: `/api/images/${String(meta.imageId)}` },
  );
  return list.filter((s) => only === undefined || only.has(s.name.replace(/\(.*$/, '')));
}

async function main(): Promise<void> {
  ensureServerBuild();
  const postgresUrl = values['postgres-url'];
  let catalogue: Catalogue;
  if (values.data !== undefined) {
    catalogue = await readCatalogue(path.resolve(values.data));
    process.stdout.write(`Reusing the catalogue in ${catalogue.dataDir}\n`);
  } else {
    process.stdout.write(`Generating ${String(images)} images on ${engine}…\n`);
    catalogue = await generateCatalogue({ engine, images, postgresUrl });
    const { meta } = catalogue;
    process.stdout.write(
      `Generated in ${meta.seconds.toFixed(1)} s: ${String(meta.images)} images, ` +
        `${String(meta.interactions)} interactions; common word '${meta.commonWord}' in ` +
        `${(meta.commonWordShare * 100).toFixed(1)} % of images. Data: ${catalogue.dataDir}\n`,
    );
  }
  const keep = values.keep || values.data !== undefined || values['generate-only'];
  if (values['generate-only']) return;

  process.stdout.write(
    `Machine: ${String(os.availableParallelism())} cores, ${mb(os.totalmem())}, Node ${process.version}; ` +
      `${String(seconds)} s per scenario, ${String(connections)} connections\n`,
  );
  const server = await startServer({
    DATA_DIR: catalogue.dataDir,
    LOG_LEVEL: values['log-level'],
    ...(catalogue.databaseUrl === undefined ? {} : { DATABASE_URL: catalogue.databaseUrl }),
    // 0 measures the queries themselves rather than the kept public answers.
    ...(values['public-cache-ms'] === undefined
      ? {}
      : { PUBLIC_CACHE_MS: values['public-cache-ms'] }),
  });
  const results: LoadResult[] = [];
  try {
    for (const scenario of await scenarios(server, catalogue)) {
      // A short warm-up: the first requests fill caches and JIT-compile, which is not what a
      // server that has been running looks like.
      const request = withEncoding(scenario.request);
      await load(server, scenario.name, scenario.path, { seconds: 1, connections, request });
      await drain(server);
      const result = await load(server, scenario.name, scenario.path, {
        seconds,
        connections,
        request,
      });
      await drain(server);
      results.push(result);
      process.stdout.write(
        `  ${scenario.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${ms(result.p99)} ms\n`,
      );
    }
    const peak = server.peakRss();
    printTable(results);
    const find = (prefix: string) => results.find((r) => r.name.startsWith(prefix));
    const reference = find('reference');
    const gallery = find('gallery');
    for (const page of [gallery, find('gallery-logged-in')]) {
      if (reference !== undefined && page !== undefined) {
        process.stdout.write(
          `\n${page.name} / reference throughput: ${((page.requestsPerSecond / reference.requestsPerSecond) * 100).toFixed(0)} %`,
        );
      }
    }
    process.stdout.write('\n');
    for (const deep of [find('deep-skip'), find('deep-cursor')]) {
      if (deep !== undefined && gallery !== undefined) {
        process.stdout.write(
          `${deep.name} p99 / first page p99: ${(deep.p99 / gallery.p99).toFixed(2)}×\n`,
        );
      }
    }
    process.stdout.write(`server peak RSS over the whole run (VmHWM): ${mb(peak)}\n`);
  } finally {
    await server.stop();
    if (!keep) await dropCatalogue(catalogue, postgresUrl);
    else process.stdout.write(`Catalogue kept: --data ${catalogue.dataDir}\n`);
  }
}

await main();
