import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DatabaseConfig } from '../../src/config.js';

/*
 * Another process writes (deletes a row, approves an image) and keeps its transaction open for
 * `holdMs` before it commits: a request or job that read the row before then meets the write in
 * the middle of its own work (on SQLite it waits for the write lock, on PostgreSQL for the
 * row's lock). Another process, since SQLite's wait blocks the test's own thread.
 */
const HOLDER = `
const [kind, target, writes, holdMs, laterWrites] = process.argv.slice(1);
const statements = JSON.parse(writes);
const later = JSON.parse(laterWrites);
const hold = () => new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
(async () => {
  if (kind === 'sqlite') {
    const db = new (require('better-sqlite3'))(target);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    for (const [statement, values] of statements) db.prepare(statement).run(...values);
    process.stdout.write('held\\n');
    await hold();
    for (const [statement, values] of later) db.prepare(statement).run(...values);
    db.exec('COMMIT');
    db.close();
  } else {
    const client = new (require('pg').Client)({ connectionString: target });
    await client.connect();
    const run = (statement, values) => {
      let n = 0;
      return client.query(statement.replace(/\\?/g, () => '$' + String(++n)), values);
    };
    await client.query('BEGIN');
    for (const [statement, values] of statements) await run(statement, values);
    process.stdout.write('held\\n');
    await hold();
    for (const [statement, values] of later) await run(statement, values);
    await client.query('COMMIT');
    await client.end();
  }
})().catch((error) => {
  process.stderr.write(String(error));
  process.exit(1);
});
`;

/** One statement, `?` for each of its parameters. */
export type HeldStatement = readonly [sql: string, params: ReadonlyArray<string | number>];

/**
 * Runs `statements` in a transaction of another process. Resolves once they have run, not yet
 * committed; `committed` once it is, after `later` has run in the same transaction at the end of
 * the hold (a writer that locks a row, then, while the code under test waits for it or works
 * beside it, writes more).
 */
export async function holdWrite(
  database: DatabaseConfig,
  statements: readonly HeldStatement[],
  holdMs: number,
  later: readonly HeldStatement[] = [],
): Promise<{ committed: Promise<void> }> {
  const target = database.kind === 'sqlite' ? database.file : database.url;
  const child = spawn(
    process.execPath,
    [
      '-e',
      HOLDER,
      database.kind,
      target,
      JSON.stringify(statements),
      String(holdMs),
      JSON.stringify(later),
    ],
    // Where better-sqlite3 and pg resolve from.
    { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const committed = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the held write failed: ${errors}`)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    committed.catch(reject);
  });
  return { committed };
}

/** The rows a test may have deleted under a request, by their id column. */
const ID_COLUMN = { images: 'id_image', users: 'id_utente', categories: 'id_categoria' } as const;

/** Deletes the row with this id in another process's transaction, held open `holdMs`. */
export function holdDeletion(
  database: DatabaseConfig,
  table: keyof typeof ID_COLUMN,
  id: number,
  holdMs: number,
): Promise<{ committed: Promise<void> }> {
  return holdWrite(
    database,
    [[`DELETE FROM ${table} WHERE ${ID_COLUMN[table]} = ?`, [id]]],
    holdMs,
  );
}
