import { ConfigError, loadConfig, type AppConfig, type LogLevel } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { systemClock } from '../lib/clock.js';
import { createJobHandlers } from './handlers.js';
import { createOcrEngine } from './image-analysis/ocr.js';
import { createWorker, type JobLogger } from './worker.js';
import { createMailer } from '../modules/mail/mailer.js';

/*
 * The job worker as a process of its own (D10): `node dist/jobs/run-worker.js` (or `tsx
 * src/jobs/run-worker.ts`) with the server's environment. It shares the database with the
 * servers, claims jobs with row locks, and on SIGTERM/SIGINT finishes the jobs in hand before
 * exiting. Useful when OCR should not compete with requests for the servers' CPU.
 */

/** Jobs in hand get this long to finish after a stop signal (the grace of the server too). */
const STOP_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = createJsonLogger(config.logLevel);
  const database = openDatabase(config.database);
  // Running migrations here too lets the worker start first; Kysely's lock serialises them.
  await migrateToLatest(database.db);

  const ocr = createOcrEngine();
  const worker = createWorker({
    database,
    clock: systemClock,
    log,
    handlers: createJobHandlers(database, {
      dataDir: config.dataDir,
      ocr,
      mailer: createMailer(config),
    }),
    concurrency: 2,
  });
  worker.start();

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing jobs in hand');
    void (async () => {
      try {
        await worker.stop(STOP_TIMEOUT_MS);
        await ocr.terminate();
        await database.close();
      } catch (error) {
        log.error({ err: error }, 'error while stopping');
        process.exitCode = 1;
      }
      process.exit();
    })();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const LEVELS: Record<Exclude<LogLevel, 'silent'>, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/** JSON lines in pino's shape, like the server's logs, without a logging library. */
function createJsonLogger(level: LogLevel): JobLogger {
  const threshold = level === 'silent' ? Number.POSITIVE_INFINITY : LEVELS[level];
  const write =
    (name: keyof typeof LEVELS) =>
    (fields: object, msg: string): void => {
      if (LEVELS[name] < threshold) return;
      const entry: Record<string, unknown> = {
        level: LEVELS[name],
        time: Date.now(),
        pid: process.pid,
        ...fields,
        msg,
      };
      const err = entry['err'];
      if (err instanceof Error) {
        entry['err'] = { type: err.name, message: err.message, stack: err.stack };
      }
      process.stdout.write(`${JSON.stringify(entry)}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Job worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
