/*
 * `npm run eval` (issue 9): builds the labelled evaluation set, runs the product's own
 * pipeline over it and prints how well the walls are read.
 *
 *   npm run eval -- [--size 320] [--seed muri] [--engine sqlite|postgres]
 *                   [--only ocr|duplicates|search] [--json file] [--no-cache] [--save dir]
 *                   [--parallel 1] [--dump file]
 *
 * The pipeline is the real one, end to end: each picture goes through processAllSizes (the
 * stored WebP original, as an upload would), into a fresh database (a temporary SQLite file,
 * or a throwaway PostgreSQL database on postgres://postgres@127.0.0.1:5432/postgres, or
 * EVAL_DATABASE_URL), and the image-analysis job itself runs on it: OCR, folding, pHash,
 * the search re-index and the duplicate index, exactly as handlers.ts wires them. Duplicates
 * are then read with the service the admin screen uses, and search with the service behind
 * GET /search.
 *
 * OCR is slow (seconds per picture on a busy machine), so its answers are cached on disk by
 * picture bytes and by the source of jobs/image-analysis: a change of the OCR code makes
 * every reading fresh, while a second engine or a change of grouping reuses the readings.
 * --no-cache ignores the cache. --parallel N reads the pictures with N OCR threads before the
 * jobs run (the jobs then find their readings in the cache): the same readings, sooner on a
 * machine with cores to spare.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import * as demoRepo from '../src/demo/demo.repository.js';
import { releaseRenderCaches } from '../src/demo/render.js';
import { createImageAnalysisJob } from '../src/jobs/image-analysis/image-analysis.job.js';
import { createOcrEngine, type OcrEngine, type OcrResult } from '../src/jobs/image-analysis/ocr.js';
import { readerOf } from '../src/jobs/image-analysis/reader.js';
import type { JobContext } from '../src/jobs/worker.js';
import { systemClock } from '../src/lib/clock.js';
import { processAllSizes } from '../src/lib/imaging.js';
import { createDuplicatesService } from '../src/modules/duplicates/duplicates.service.js';
import { createFileUrlSigner } from '../src/modules/images/file-urls.js';
import { newStoredFilename, writeImageFiles } from '../src/modules/images/images.storage.js';
import { createSearchService } from '../src/modules/search/search.service.js';
import { throwawayPostgres } from '../test/helpers/database.js';
import { createTaxonomyService } from '../src/modules/taxonomy/taxonomy.service.js';
import { Random } from '../src/demo/random.js';
import { buildEvalSet, renderEvalItem, type EvalItem } from './dataset.js';
import {
  addScores,
  characterErrorRate,
  pairwise,
  scoreReading,
  searchQuery,
  wordAccuracy,
  type TextScore,
} from './metrics.js';

type Only = 'ocr' | 'duplicates' | 'search';

interface Options {
  size: number;
  seed: string;
  engine: 'sqlite' | 'postgres';
  only: Only | null;
  json: string | null;
  cache: boolean;
  save: string | null;
  parallel: number;
  dump: string | null;
}

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ANALYSIS_DIR = path.join(HERE, '../src/jobs/image-analysis');
const CACHE_DIR = path.join(os.tmpdir(), 'muri-eval-ocr-cache');
/** Pictures rendered at once: the renderer keeps both cores busy with two or three. */
const RENDER_PARALLEL = 2;

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    size: 320,
    seed: 'muri',
    engine: 'sqlite',
    only: null,
    json: null,
    cache: true,
    save: null,
    parallel: 1,
    dump: null,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      const next = argv[i + 1];
      if (next === undefined) throw new Error(`${String(arg)} needs a value`);
      i += 1;
      return next;
    };
    switch (arg) {
      case '--size':
        options.size = Math.max(10, Number.parseInt(value(), 10) || 320);
        break;
      case '--seed':
        options.seed = value();
        break;
      case '--engine': {
        const engine = value();
        if (engine !== 'sqlite' && engine !== 'postgres')
          throw new Error(`unknown engine ${engine}`);
        options.engine = engine;
        break;
      }
      case '--only': {
        const only = value();
        if (only !== 'ocr' && only !== 'duplicates' && only !== 'search') {
          throw new Error(`--only takes ocr, duplicates or search, not ${only}`);
        }
        options.only = only;
        break;
      }
      case '--json':
        options.json = value();
        break;
      case '--save':
        options.save = value();
        break;
      case '--parallel':
        options.parallel = Math.max(1, Number.parseInt(value(), 10) || 1);
        break;
      case '--dump':
        options.dump = value();
        break;
      case '--no-cache':
        options.cache = false;
        break;
      default:
        throw new Error(`unknown option ${String(arg)}`);
    }
  }
  return options;
}

/** A key that changes whenever any file of the analysis code changes. */
async function analysisCodeKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await fs.readdir(ANALYSIS_DIR)).sort()) {
    hash.update(name);
    hash.update(await fs.readFile(path.join(ANALYSIS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

interface OcrStats {
  fresh: number;
  cached: number;
  seconds: number;
}

/** The product's OCR engine behind a disk cache; counts the time of fresh readings. */
function cachedOcr(
  engine: OcrEngine,
  codeKey: string,
  useCache: boolean,
  stats: OcrStats,
): OcrEngine {
  return {
    async recognize(image) {
      const key = createHash('sha256').update(codeKey).update(image).digest('hex');
      const file = path.join(CACHE_DIR, `${key}.json`);
      if (useCache) {
        try {
          const hit = JSON.parse(await fs.readFile(file, 'utf8')) as OcrResult;
          stats.cached += 1;
          return hit;
        } catch {
          // Not cached yet.
        }
      }
      const started = performance.now();
      const result = await engine.recognize(image);
      stats.seconds += (performance.now() - started) / 1000;
      stats.fresh += 1;
      await fs.mkdir(CACHE_DIR, { recursive: true });
      await fs.writeFile(file, JSON.stringify(result));
      return result;
    },
    terminate: () => engine.terminate(),
  };
}

/** Several OCR engines (threads) as one: each reading goes to the next engine in turn. */
function pooledOcr(engines: readonly OcrEngine[]): OcrEngine {
  let next = 0;
  return {
    recognize(image) {
      const engine = engines[next % engines.length];
      next += 1;
      if (engine === undefined) throw new Error('no OCR engine');
      return engine.recognize(image);
    },
    async terminate() {
      await Promise.all(engines.map((engine) => engine.terminate()));
    },
  };
}

/** A fresh database for this run and how to throw it away. */
async function throwawayDatabase(
  engine: Options['engine'],
  dataDir: string,
): Promise<{ config: DatabaseConfig; drop: () => Promise<void> }> {
  if (engine === 'sqlite') {
    return {
      config: { kind: 'sqlite', file: path.join(dataDir, 'eval.sqlite') },
      drop: async () => undefined,
    };
  }
  return throwawayPostgres(process.env['EVAL_DATABASE_URL'] ?? DEFAULT_POSTGRES, 'mp_eval');
}

async function inPool<T>(items: readonly T[], parallel: number, run: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

function styleTable(
  rows: ReadonlyArray<{ item: EvalItem; score: TextScore }>,
  by: (item: EvalItem) => string,
) {
  const groups = new Map<string, TextScore[]>();
  for (const { item, score } of rows) {
    const key = by(item);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [score]);
    else list.push(score);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, scores]) => {
      const sum = addScores(scores);
      return {
        key,
        images: scores.length,
        wordAccuracy: wordAccuracy(sum),
        cer: characterErrorRate(sum),
      };
    });
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const items = buildEvalSet(options.size, options.seed);
  const started = performance.now();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-eval-'));
  const database = await throwawayDatabase(options.engine, dataDir);
  const handle = openDatabase(database.config);
  const stats: OcrStats = { fresh: 0, cached: 0, seconds: 0 };
  const engines = Array.from({ length: options.parallel }, () => createOcrEngine());
  const ocr = cachedOcr(pooledOcr(engines), await analysisCodeKey(), options.cache, stats);
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    size: items.length,
    seed: options.seed,
    engine: options.engine,
    machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}, ${os.platform()} ${os.release()}, node ${process.version}`,
  };
  try {
    const { db } = handle;
    await migrateToLatest(db);
    const now = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({
        username: 'eval',
        username_key: 'eval',
        email: 'eval@example.invalid',
        email_key: 'eval@example.invalid',
        password_hash: '!',
        is_active: 1,
        is_superuser: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id_utente')
      .executeTakeFirstOrThrow();

    // 1. Pictures → stored images, in set order, so image ids follow item indexes.
    const ids = new Array<number>(items.length);
    const originals = new Array<Buffer>(items.length);
    const renderStarted = performance.now();
    const files = new Array<Buffer>(items.length);
    await inPool(items, RENDER_PARALLEL, async (item) => {
      files[item.index] = await renderEvalItem(item);
    });
    releaseRenderCaches();
    const renderSeconds = (performance.now() - renderStarted) / 1000;
    if (options.save !== null) {
      await fs.mkdir(options.save, { recursive: true });
      for (const item of items) {
        const file = files[item.index];
        if (file !== undefined) {
          await fs.writeFile(
            path.join(options.save, `${String(item.index).padStart(3, '0')}.jpg`),
            file,
          );
        }
      }
    }
    for (const item of items) {
      const file = files[item.index];
      if (file === undefined) throw new Error(`picture ${item.index} was not rendered`);
      const processed = await processAllSizes(file);
      originals[item.index] = processed.original;
      const filename = newStoredFilename();
      await writeImageFiles(dataDir, filename, {
        original: processed.original,
        display: processed.display,
        thumb: processed.thumb,
      });
      ids[item.index] = await demoRepo.insertImageRow(db, {
        filename,
        original_filename: `eval-${item.index}.jpg`,
        // No title: what the image is found by is what the OCR read.
        titolo_img: null,
        id_utente: user.id_utente,
        id_categoria: 1,
        status: 'approved',
        mime_type: 'image/webp',
        size_bytes: processed.original.length,
        width: processed.width,
        height: processed.height,
        placeholder: processed.placeholder,
        created_at: now,
        published_at: now,
      });
    }
    const itemOf = new Map(items.map((item) => [ids[item.index] ?? 0, item]));

    // 2. The analysis job, wired as in jobs/handlers.ts.
    const search = createSearchService(db, handle.dialect);
    const duplicates = createDuplicatesService(db, systemClock, {
      fileUrls: createFileUrlSigner('eval-secret-eval-secret-eval-secret-0123'),
      taxonomy: createTaxonomyService(db, handle.dialect, systemClock),
    });
    const job = createImageAnalysisJob(db, {
      dataDir,
      reader: readerOf(ocr),
      afterAnalysis: async (id) => {
        if (options.only === null || options.only === 'search') await search.reindexImage(id);
        if (options.only === null || options.only === 'duplicates') await duplicates.indexImage(id);
      },
    });
    const quiet = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const analysisStarted = performance.now();
    if (options.parallel > 1) {
      // Fills the cache with the stored originals' readings, N at a time; the jobs below read
      // the very same bytes from disk, so they find every reading there.
      let read = 0;
      await inPool(originals, options.parallel, async (original) => {
        await ocr.recognize(original);
        read += 1;
        if (read % 20 === 0) process.stderr.write(`  read ${read}/${originals.length}\r`);
      });
    }
    for (const [n, id] of ids.entries()) {
      const ctx: JobContext = {
        job: { id: n + 1, name: job.name, attempt: 1, maxAttempts: 1 },
        clock: systemClock,
        log: quiet,
      };
      await job.run({ id_image: id }, ctx);
      if ((n + 1) % 20 === 0) process.stderr.write(`  analysed ${n + 1}/${ids.length}\r`);
    }
    process.stderr.write('\n');
    const analysisSeconds = (performance.now() - analysisStarted) / 1000;
    report['seconds'] = {
      render: round(renderSeconds),
      analysis: round(analysisSeconds),
      ocrPerImage: stats.fresh === 0 ? null : round(stats.seconds / stats.fresh, 2),
      ocrFresh: stats.fresh,
      ocrCached: stats.cached,
    };

    const rows = await db
      .selectFrom('images')
      .select(['id_image', 'extracted_text'])
      .orderBy('id_image')
      .execute();
    const readings = new Map(rows.map((row) => [row.id_image, row.extracted_text ?? '']));
    if (options.dump !== null) {
      // What the analysis stored for each picture, with its truth: rules for grouping and
      // search can then be compared on the same readings without running the pipeline again
      // (eval/duplicates-explore.ts).
      const analyses = await db
        .selectFrom('images')
        .select([
          'id_image',
          'extracted_text',
          'text_folded',
          'ocr_confidence',
          'ocr_alternates',
          'phash',
        ])
        .orderBy('id_image')
        .execute();
      const dump = analyses.map((row) => {
        const item = itemOf.get(row.id_image);
        return {
          ...row,
          writing: item?.writing ?? null,
          wall: item?.wall ?? null,
          role: item?.role ?? null,
          truth: item?.text ?? null,
        };
      });
      await fs.writeFile(options.dump, JSON.stringify(dump));
    }

    console.log(
      `Evaluation set: ${items.length} pictures, seed '${options.seed}', engine ${options.engine}`,
    );
    console.log(`Machine: ${String(report['machine'])}`);
    console.log(
      `Rendering ${round(renderSeconds)} s; analysis ${round(analysisSeconds)} s ` +
        `(${stats.fresh} fresh OCR readings, ${stats.cached} from cache` +
        (stats.fresh > 0
          ? `, ${(stats.seconds / stats.fresh).toFixed(2)} s per fresh reading)`
          : ')'),
    );

    if (options.only === null || options.only === 'ocr') {
      const scored = items.map((item) => ({
        item,
        score: scoreReading(item.text, readings.get(ids[item.index] ?? 0) ?? ''),
      }));
      const total = addScores(scored.map((row) => row.score));
      const empty = scored.filter(
        (row) => (readings.get(ids[row.item.index] ?? 0) ?? '').trim() === '',
      ).length;
      console.log('\nOCR');
      console.log(
        `  word accuracy ${percent(wordAccuracy(total))}, character error rate ${percent(characterErrorRate(total))}, ` +
          `no text read on ${empty} of ${items.length}`,
      );
      const tables = {
        writing: styleTable(scored, (item) => item.spec.writing.kind),
        font: styleTable(scored, (item) => item.spec.writing.font),
        wall: styleTable(scored, (item) => item.spec.wall.kind),
        size: styleTable(scored, (item) => item.size),
        condition: styleTable(scored, (item) =>
          item.post.occlusion !== null
            ? 'occluded'
            : Math.abs(item.spec.writing.rotation) > 8
              ? 'rotated >8°'
              : item.spec.camera.softness > 0.8
                ? 'blurred'
                : item.spec.hard
                  ? 'hard (faint, shadow)'
                  : 'other',
        ),
      };
      for (const [name, table] of Object.entries(tables)) {
        console.log(`  by ${name}:`);
        for (const row of table) {
          console.log(
            `    ${row.key.padEnd(22)} ${String(row.images).padStart(4)}  words ${percent(row.wordAccuracy).padStart(7)}  CER ${percent(row.cer).padStart(7)}`,
          );
        }
      }
      report['ocr'] = {
        wordAccuracy: round(wordAccuracy(total), 4),
        cer: round(characterErrorRate(total), 4),
        empty,
        ...tables,
      };
    }

    if (options.only === null || options.only === 'duplicates') {
      const groups = await duplicates.listGroups();
      const predicted = groups.map((group) => group.images.map((image) => image.id_image));
      const result = pairwise(predicted, (id) => itemOf.get(id)?.writing ?? -id, ids);
      // Which truth-different pairs were grouped, by role: shared walls are the hard case.
      let sharedWallMerges = 0;
      for (const group of predicted) {
        for (const a of group) {
          for (const b of group) {
            const ia = itemOf.get(a);
            const ib = itemOf.get(b);
            if (
              a < b &&
              ia !== undefined &&
              ib !== undefined &&
              ia.writing !== ib.writing &&
              ia.wall === ib.wall
            ) {
              sharedWallMerges += 1;
            }
          }
        }
      }
      console.log('\nDuplicates (pairwise)');
      console.log(
        `  precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
          `(${result.hits} of ${result.truePairs} true pairs found, ${result.predictedPairs} pairs grouped, ` +
          `${sharedWallMerges} from different writings on one wall)`,
      );
      report['duplicates'] = { ...result, sharedWallMerges, groups: predicted.length };
    }

    if (options.only === null || options.only === 'search') {
      const random = new Random(`eval-queries:${options.seed}`);
      let asked = 0;
      let found = 0;
      const misses: string[] = [];
      for (const item of items) {
        const query = searchQuery(item.text, (n) => random.int(0, n - 1));
        if (query === null) continue;
        asked += 1;
        const page = await search.search(query, 0, 5);
        if (page.ids.includes(ids[item.index] ?? 0)) found += 1;
        else misses.push(`'${query}' for '${item.text}'`);
      }
      console.log('\nSearch (image in the top 5)');
      console.log(`  ${found} of ${asked} queries, ${percent(asked === 0 ? 1 : found / asked)}`);
      for (const miss of misses.slice(0, 8)) console.log(`    missed ${miss}`);
      if (misses.length > 8) console.log(`    … ${misses.length - 8} more in --json`);
      report['search'] = { asked, found, rate: round(asked === 0 ? 1 : found / asked, 4), misses };
    }
    console.log(`\nTotal ${round((performance.now() - started) / 1000)} s`);
    if (options.json !== null) await fs.writeFile(options.json, JSON.stringify(report, null, 2));
  } finally {
    await ocr.terminate();
    await handle.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
