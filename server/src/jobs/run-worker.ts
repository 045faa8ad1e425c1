import pino from 'pino';
import { ConfigError, loadConfig, type AppConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { systemClock } from '../lib/clock.js';
import { describeStartupFailure } from '../lib/startup-failure.js';
import { createRuntime } from '../services.js';

/*
 * The job worker as a process of its own (D10): `node dist/jobs/run-worker.js` (or `tsx
 * src/jobs/run-worker.ts`) with the server's environment. It shares the database with the
 * servers, claims jobs with row locks, and on SIGTERM/SIGINT finishes the jobs in hand before
 * exiting. Useful when OCR should not compete with requests for the servers' CPU.
 */

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
  const log = pino({ level: config.logLevel });
  const database = openDatabase(config.database);
  // Running migrations here too lets the worker start first; Kysely's lock serialises them.
  await migrateToLatest(database.db);

  // The same services and jobs as the server; this process has the CPU to run two at once.
  const runtime = await createRuntime(config, database, systemClock, log, { jobConcurrency: 2 });
  runtime.ctx.jobs.start();

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing jobs in hand');
    void (async () => {
      try {
        await runtime.stop();
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

main().catch((error: unknown) => {
  process.stderr.write(`Job worker failed to start: ${describeStartupFailure(error, 'data')}\n`);
  process.exit(1);
});
