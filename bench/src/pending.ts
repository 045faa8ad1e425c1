import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { systemClock } from '../../server/src/lib/clock.js';
import { foldText } from '../../server/src/lib/text.js';
import { createDuplicateIndex } from '../../server/src/modules/duplicates/duplicates.index.js';
import { createDuplicatesService } from '../../server/src/modules/duplicates/duplicates.service.js';
import { createFileUrlSigner } from '../../server/src/modules/images/file-urls.js';
import { createImagesService } from '../../server/src/modules/images/images.service.js';
import { createTaxonomyService } from '../../server/src/modules/taxonomy/taxonomy.service.js';
import { dropCatalogue, generateCatalogue, openCatalogue } from './generate.js';
import { POSTGRES_URL_OPTION, failer, parseEngine } from './options.js';

/*
 * Times the back-office's pending queue in process: the list (GET /admin/pending-images, which
 * reloads after every decision) and one image's moderation hints (GET
 * /admin/pending-images/{id}/hints, asked for by the detail dialog: possible duplicates, a
 * suggested category and tags from approved images whose text is alike), for as many different
 * pending images as there are runs. A generated catalogue gets each image's title as its read
 * text, its duplicate index built, and its newest `--pending` images turned back to pending;
 * the median and slowest are printed.
 *
 *   npm run bench:pending -- [--engine sqlite|postgres] [--images 20000] [--pending 1000] [--runs 5]
 */

const fail = failer('pending');
const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    images: { type: 'string', default: '20000' },
    pending: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '5' },
    'postgres-url': POSTGRES_URL_OPTION,
  },
});
const engine = parseEngine(values.engine, fail);
const wholeNumber = (name: string, value: string, least: number): number => {
  const parsed = Number.parseInt(value, 10);
  if (!Number.isInteger(parsed) || parsed < least)
    fail(`--${name} must be a whole number ≥ ${String(least)}`);
  return parsed;
};
const images = wholeNumber('images', values.images, 100);
const pendingCount = wholeNumber('pending', values.pending, 1);
const runs = wholeNumber('runs', values.runs, 1);
if (pendingCount >= images) fail('--pending must be fewer than --images');

const catalogue = await generateCatalogue({ engine, images, postgresUrl: values['postgres-url'] });
const database = openCatalogue(catalogue);
try {
  const { db, dialect } = database;
  // The generated titles are phrases with a numbered variant: read text as the reader stores
  // it, so the duplicate keys and the hints see catalogue-like texts.
  const titles = await db.selectFrom('images').select(['id_image', 'titolo_img']).execute();
  for (let start = 0; start < titles.length; start += 1000) {
    await db.transaction().execute(async (trx) => {
      for (const row of titles.slice(start, start + 1000)) {
        const text = row.titolo_img ?? '';
        await trx
          .updateTable('images')
          .set({ extracted_text: text, text_folded: foldText(text), ocr_confidence: 90 })
          .where('id_image', '=', row.id_image)
          .execute();
      }
    });
  }
  const lastId = Math.max(...titles.map((row) => row.id_image));
  await sql`UPDATE images SET status = 'pending', published_at = NULL
    WHERE id_image > ${lastId - pendingCount}`.execute(db);
  const indexStarted = performance.now();
  const indexed = await createDuplicateIndex(db).reindexAll();
  process.stdout.write(
    `Duplicate index: ${String(indexed.images)} images, ${String(indexed.pairs)} pairs ` +
      `(${((performance.now() - indexStarted) / 1000).toFixed(1)} s)\n`,
  );

  // Planner statistics for the tables filled since the catalogue was analysed, as autovacuum
  // would have them on a server that ran for a while.
  if (dialect === 'postgres') await sql`ANALYZE`.execute(db);

  const fileUrls = createFileUrlSigner('bench-secret-bench-secret-bench-secret');
  const taxonomy = createTaxonomyService(db, dialect, systemClock);
  const imagesService = createImagesService(db, systemClock, fileUrls);
  const duplicates = createDuplicatesService(db, systemClock, { fileUrls, taxonomy });

  const time = async (label: string, work: (run: number) => Promise<unknown>): Promise<void> => {
    const ms: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await work(run);
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    const median = ms[Math.floor(ms.length / 2)] ?? 0;
    const slowest = ms[ms.length - 1] ?? 0;
    process.stdout.write(
      `${label.padEnd(28)} median ${median.toFixed(1).padStart(8)} ms   slowest ${slowest.toFixed(1).padStart(8)} ms\n`,
    );
  };

  const pending = await imagesService.pending();
  process.stdout.write(
    `${engine}, ${String(images)} images, ${String(pending.length)} pending, ${String(runs)} runs\n`,
  );
  const ids = pending.map((image) => image.id_image);
  await time('the list', () => imagesService.pending());
  // Spread over the queue: each run asks for another image's hints.
  await time("one image's hints", (run) =>
    duplicates.hintsForImage(ids[Math.floor((run * ids.length) / runs)] ?? 0),
  );
} finally {
  await database.close();
  await dropCatalogue(catalogue, values['postgres-url']);
}
