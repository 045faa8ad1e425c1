import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { TEST_ENGINE } from './helpers/database.js';
import { holdWrite } from './helpers/held-write.js';

/*
 * The SQLite connection's two speed measures (issue 8): statements kept between queries, and
 * WAL checkpoints run by a worker thread instead of inside the server's commits; and its
 * transactions, which take the write lock when they begin (a second writer is routine).
 */

let dir: string | undefined;
let database: DatabaseHandle | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
  if (dir !== undefined) await fs.rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(): Promise<{ handle: DatabaseHandle; file: string }> {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-sqlite-'));
  const file = path.join(dir, 'test.sqlite');
  database = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(database.db);
  return { handle: database, file };
}

/** How many rows the filler table holds, as `db` sees it. */
async function fillerRows(db: DatabaseHandle['db']): Promise<number | undefined> {
  const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(db);
  return rows.rows[0]?.n;
}

async function fill(handle: DatabaseHandle, rows: number): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT)`.execute(
    handle.db,
  );
  const body = 'x'.repeat(2000);
  for (let start = 0; start < rows; start += 100) {
    await handle.db.transaction().execute(async (trx) => {
      for (let i = start; i < start + 100; i += 1) {
        await sql`INSERT INTO filler (body) VALUES (${body})`.execute(trx);
      }
    });
  }
}

describe.skipIf(TEST_ENGINE !== 'sqlite')('SQLite storage', () => {
  it('leaves checkpoints to the worker thread, which copies the log into the database', async () => {
    const { handle, file } = await open();
    const { rows } = await sql<{
      wal_autocheckpoint: number;
    }>`PRAGMA wal_autocheckpoint`.execute(handle.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(0);

    // ~6 MB, past the 1,000 pages at which the server's own commits used to checkpoint.
    await fill(handle, 3000);
    const before = (await fs.stat(file)).size;
    const result = await handle.checkpoint?.();
    expect(result?.log).toBeGreaterThan(1000);
    expect(result?.checkpointed).toBe(result?.log);
    expect((await fs.stat(file)).size).toBeGreaterThan(before + 5_000_000);

    // Written data reads back through the server's connection, and a clean stop leaves no log.
    expect(await fillerRows(handle.db)).toBe(3000);
    await handle.close();
    database = undefined;
    await expect(fs.stat(`${file}-wal`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps statements, and a kept statement follows the schema when it changes', async () => {
    const { handle } = await open();
    await fill(handle, 100);
    const select = () => sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(handle.db);
    expect((await select()).rows[0]?.n).toBe(100);
    await sql`ALTER TABLE filler RENAME TO filler_away`.execute(handle.db);
    await expect(select()).rejects.toThrow(/no such table: filler/);
    await sql`ALTER TABLE filler_away RENAME TO filler`.execute(handle.db);
    expect((await select()).rows[0]?.n).toBe(100);
  });

  it('starts transactions with the write lock; a second writer waits for it without blocking', async () => {
    const { handle, file } = await open();
    await fill(handle, 100);
    // A second connection, as the views' thread and a stand-alone job worker have.
    const other = openDatabase({ kind: 'sqlite', file }, { secondary: true });
    try {
      let waiting: Promise<unknown> | undefined;
      let settled = false;
      await handle.db.transaction().execute(async (trx) => {
        // No statement of this transaction has run yet: BEGIN IMMEDIATE already holds the lock.
        waiting = sql`INSERT INTO filler (body) VALUES ('other')`.execute(other.db);
        void waiting.finally(() => (settled = true));
        // The same thread goes on while the other connection waits: SQLite's own busy_timeout
        // slept inside the call, and this transaction could not have gone on until it gave up.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(settled).toBe(false);
        // Read, then write while the other connection waited: a deferred transaction could
        // have met SQLITE_BUSY_SNAPSHOT here had the other one written.
        await sql`SELECT count(*) FROM filler`.execute(trx);
        await sql`INSERT INTO filler (body) VALUES ('mine')`.execute(trx);
      });
      // The lock is free again once the transaction ends, and the waiting write goes through.
      await waiting;
      expect(await fillerRows(handle.db)).toBe(102);
      // Written after the transaction that held the lock: the other row came second.
      const order = await sql<{ body: string }>`
        SELECT body FROM filler WHERE body IN ('mine', 'other') ORDER BY id
      `.execute(handle.db);
      expect(order.rows.map((row) => row.body)).toEqual(['mine', 'other']);
    } finally {
      await other.close();
    }
  });

  it('lets reads on the same connection go on while a write waits for the lock', async () => {
    const { handle, file } = await open();
    await fill(handle, 1);
    // Another process holds the write lock, as a stand-alone job worker may.
    const held = await holdWrite({ kind: 'sqlite', file }, [], 400);
    const done: string[] = [];
    const write = sql`INSERT INTO filler (body) VALUES ('waited')`
      .execute(handle.db)
      .then(() => done.push('write'));
    const transaction = handle.db
      .transaction()
      .execute((trx) => sql`INSERT INTO filler (body) VALUES ('in a transaction')`.execute(trx))
      .then(() => done.push('transaction'));
    // Both writes wait for the lock on timers; the connection serves reads meanwhile.
    const read = await fillerRows(handle.db);
    done.push('read');
    expect(read).toBe(100);
    await Promise.all([write, transaction, held.committed]);
    expect(done[0]).toBe('read');
    expect(done.slice(1).sort()).toEqual(['transaction', 'write']);
    expect(await fillerRows(handle.db)).toBe(102);
    // Both waits are on record (bench:writes reads them), each until the lock came free; the
    // read and the fill, which met no lock, are not; taking them clears them.
    const waits = handle.lockWaits?.() ?? [];
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThan(100);
    expect(handle.lockWaits?.()).toEqual([]);
  });

  it('opens a connection while another holds the write lock (optimize takes it)', async () => {
    const { handle, file } = await open();
    await fill(handle, 200);
    const held = await holdWrite({ kind: 'sqlite', file }, [], 300);
    // As the views' thread opens its own while the server writes: it waits, then works.
    const other = openDatabase({ kind: 'sqlite', file }, { secondary: true });
    try {
      expect(await fillerRows(other.db)).toBe(200);
      await held.committed;
      await sql`INSERT INTO filler (body) VALUES ('other')`.execute(other.db);
    } finally {
      await other.close();
    }
  });

  it('gives up on a write lock held past five seconds with SQLITE_BUSY, as busy_timeout did', async () => {
    const { handle, file } = await open();
    await fill(handle, 1);
    const held = await holdWrite({ kind: 'sqlite', file }, [], 5600);
    const started = Date.now();
    await expect(
      sql`INSERT INTO filler (body) VALUES ('late')`.execute(handle.db),
    ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    await held.committed;
    await sql`INSERT INTO filler (body) VALUES ('late')`.execute(handle.db);
  }, 15_000);
});
