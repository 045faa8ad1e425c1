import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createInteractionsService } from '../../server/src/modules/interactions/interactions.service.js';
import { createViewRecorder } from '../../server/src/modules/interactions/view-recorder.js';
import { createViewerKeys } from '../../server/src/modules/interactions/viewer-key.js';
import { createFileUrlSigner } from '../../server/src/modules/images/file-urls.js';
import { createImagesService } from '../../server/src/modules/images/images.service.js';
import { systemClock } from '../../server/src/lib/clock.js';
import { createUsersService } from '../../server/src/modules/users/users.service.js';
import { dropCatalogue, generateCatalogue, openCatalogue } from './generate.js';
import { POSTGRES_URL_OPTION, failer, parseEngine } from './options.js';

/*
 * Times the part of a user's erasure that forgets their interactions (interactions.forgetUser:
 * the rows, the counters of every image they touched, the account), for a user who viewed
 * and liked `--touched` images of a generated catalogue, then the deletion of an image's row
 * (its interactions go by foreign key). forgetUser's transaction holds SQLite's write
 * lock (and the touched images' rows on PostgreSQL) the whole time.
 *
 *   npm run bench:erasure -- [--engine sqlite|postgres] [--images 100000] [--touched 50000]
 */

const fail = failer('erasure');
const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    images: { type: 'string', default: '100000' },
    touched: { type: 'string', default: '50000' },
    'postgres-url': POSTGRES_URL_OPTION,
  },
});
const engine = parseEngine(values.engine, fail);
const images = Number.parseInt(values.images, 10);
const touched = Number.parseInt(values.touched, 10);
if (!Number.isInteger(images) || images < 100) fail('--images must be a whole number ≥ 100');
if (!Number.isInteger(touched) || touched < 1 || touched > images) {
  fail('--touched must be a whole number between 1 and --images');
}

const catalogue = await generateCatalogue({ engine, images, postgresUrl: values['postgres-url'] });
const database = openCatalogue(catalogue);
try {
  const { db, dialect } = database;
  const userId = catalogue.meta.userId;
  // A view and a like of the user on each of the newest `touched` images.
  await sql`
    INSERT INTO interactions (id_image, id_utente, id_tipo_interazione, created_at)
    SELECT id_image, ${userId}, t.type, ${new Date().toISOString()}
    FROM images, (SELECT 1 AS type UNION ALL SELECT 7) t
    WHERE id_image > (SELECT max(id_image) FROM images) - ${touched}
      AND NOT EXISTS (
        SELECT 1 FROM interactions held
        WHERE held.id_image = images.id_image AND held.id_utente = ${userId}
          AND held.id_tipo_interazione = t.type
      )
  `.execute(db);
  if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  process.stdout.write("The user's interactions added; forgetting them…\n");
  const [{ count }] = (
    await sql<{
      count: number;
    }>`SELECT count(*) AS count FROM interactions WHERE id_utente = ${userId}`.execute(db)
  ).rows as [{ count: number }];

  const fileUrls = createFileUrlSigner('bench-secret-bench-secret-bench-secret');
  const imagesService = createImagesService(db, systemClock, fileUrls);
  const users = createUsersService(db, dialect, systemClock, { onRenamed: async () => {} });
  const interactions = createInteractionsService(
    db,
    systemClock,
    imagesService,
    createViewerKeys('bench-secret-bench-secret-bench-secret'),
    createViewRecorder(db, { error: (details, message) => console.error(message, details) }, 1000),
  );

  const started = performance.now();
  await interactions.forgetUser(userId, (trx) => users.deleteAccount(userId, trx));
  const took = performance.now() - started;
  await interactions.close();
  process.stdout.write(
    `${engine}, ${String(images)} images; the user had ${String(count)} interactions on ` +
      `${String(touched)} images; forgetUser ${took.toFixed(0)} ms\n`,
  );

  // An image's deletion, which takes its interactions by foreign key, as moderation's does.
  const deletions: number[] = [];
  for (let id = 1; id <= 20; id += 1) {
    const began = performance.now();
    await db.deleteFrom('images').where('id_image', '=', id).execute();
    deletions.push(performance.now() - began);
  }
  deletions.sort((a, b) => a - b);
  process.stdout.write(
    `deleting an image row: median ${(deletions[10] ?? 0).toFixed(1)} ms, ` +
      `slowest ${(deletions[19] ?? 0).toFixed(1)} ms (20 images)\n`,
  );
} finally {
  await database.close();
  await dropCatalogue(catalogue, values['postgres-url']);
}
