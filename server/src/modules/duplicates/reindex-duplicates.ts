import { ConfigError, loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createDuplicateIndex } from './duplicates.index.js';

/*
 * Rebuilds the duplicate finder's index from the stored analyses, with the server's
 * environment:
 *
 *   cd server && npx tsx src/modules/duplicates/reindex-duplicates.ts
 *   (or node dist/modules/duplicates/reindex-duplicates.js)
 *
 * Needed after a change of the keys or thresholds in duplicates.signature.ts, and once for a
 * database whose images were analysed before the index existed. New analyses index
 * themselves; nothing else ever needs this.
 */

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    const started = performance.now();
    const result = await createDuplicateIndex(database.db).reindexAll();
    process.stdout.write(
      `Duplicate index rebuilt: ${result.images} analysed images, ${result.pairs} duplicate ` +
        `pairs, in ${Math.round(performance.now() - started)} ms.\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Re-indexing failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
