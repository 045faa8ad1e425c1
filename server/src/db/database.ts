import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { accentlessLower } from '../lib/text.js';
import { startCheckpointer, type CheckpointResult } from './sqlite-checkpointer.js';
import { withStatementCache } from './statement-cache.js';
import type { Database } from './tables.js';

export type Dialect = DatabaseConfig['kind'];

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** SQLite only: a WAL checkpoint now, by the checkpointer's thread (sqlite-checkpointer.ts). */
  checkpoint?: () => Promise<CheckpointResult>;
  /**
   * SQLite's server connection only: how long each of its statements that found another
   * connection's write lock waited for it (ms, the last 10,000, oldest first), taken and
   * cleared. For measurements: `bench:writes` prints the likes' waits for the views' batches.
   */
  lockWaits?: () => number[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * A second connection to the same database, for a thread of the server's own (the views'
   * thread, modules/interactions/view-thread.ts): a small PostgreSQL pool, and on SQLite no
   * checkpointer of its own, since the server's connection already has one.
   */
  secondary?: boolean;
}

/** Opens the database chosen by the configuration (D10); migrations are run separately. */
export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): DatabaseHandle {
  if (config.kind === 'postgres') {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: openPostgresPool(config.url, options.secondary === true ? 2 : 10),
      }),
    });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const sqlite = openSqlite(config.file);
  // Kept for the server's connection only: the handle of a secondary one does not offer it.
  const waits = options.secondary === true ? undefined : new LockWaitLog();
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, sqlite, waits),
  });
  if (options.secondary === true) {
    // The server's connection has the checkpointer; this one never checkpoints in a commit.
    sqlite.pragma('wal_autocheckpoint = 0');
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const checkpointer = startCheckpointer(sqlite, config.file);
  return {
    db,
    dialect: 'sqlite',
    checkpoint: () => checkpointer.checkpoint(),
    lockWaits: () => waits?.take() ?? [],
    async close() {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/*
 * SQLite transactions start with BEGIN IMMEDIATE, which takes the write lock at once (waiting
 * for it up to LOCK_WAIT_MS, see WAITING below), instead of Kysely's plain BEGIN. The server
 * is not the only writer: the views' thread writes its batches on a connection of its own, as
 * a stand-alone job worker does. A deferred transaction that reads and then writes while
 * another connection has written meanwhile fails at once with SQLITE_BUSY_SNAPSHOT, which no
 * waiting can cure; an immediate one waits its turn.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database;
  readonly #waits: LockWaitLog | undefined;
  #connection: DatabaseConnection | undefined;
  readonly #turns = new Turns();

  constructor(
    config: SqliteDialectConfig,
    sqlite: SQLite.Database,
    waits: LockWaitLog | undefined,
  ) {
    super(config);
    this.#sqlite = sqlite;
    this.#waits = waits;
  }

  override async init(): Promise<void> {
    await super.init();
    // SqliteDriver has one connection behind a mutex of its own: taken once here to reach it,
    // then handed out behind this driver's turns, which a wait for the write lock gives up.
    this.#connection = await super.acquireConnection();
    await super.releaseConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turns.take();
    return this;
  }

  override async releaseConnection(): Promise<void> {
    this.#turns.give();
  }

  override async beginTransaction(): Promise<void> {
    await this.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * The connection's statements, tried again while another connection holds the write lock:
   * see WAITING below. Outside a transaction the connection is free between two tries, so
   * the turn goes to whoever waits for it (a read) and is taken back for the next try.
   */
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const connection = this.#connection;
    if (connection === undefined) throw new Error('the SQLite driver is not initialised');
    const started = Date.now();
    let refused: number | undefined;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await connection.executeQuery<R>(compiledQuery);
        if (refused !== undefined) this.#waits?.add(performance.now() - refused);
        return result;
      } catch (error) {
        const busy = isBusy(error);
        if (busy) refused ??= performance.now();
        if (!busy || Date.now() - started >= LOCK_WAIT_MS) {
          if (refused !== undefined) this.#waits?.add(performance.now() - refused);
          throw error;
        }
      }
      const pause = LOCK_RETRY_MS[Math.min(attempt, LOCK_RETRY_MS.length - 1)] ?? 1;
      // SQLite's own account, not a flag kept beside it: it also knows of a transaction that
      // SQLite rolled back by itself.
      const letGo = !this.#sqlite.inTransaction;
      if (letGo) this.#turns.give();
      await new Promise((resolve) => setTimeout(resolve, pause));
      if (letGo) await this.#turns.take();
    }
  }

  streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const connection = this.#connection;
    if (connection === undefined) throw new Error('the SQLite driver is not initialised');
    return connection.streamQuery<R>(compiledQuery, chunkSize);
  }
}

/*
 * WAITING for another connection's write lock, without blocking the event loop. SQLite's own
 * busy_timeout sleeps inside the call, so a like whose BEGIN IMMEDIATE met the views' thread
 * writing its batch (every VIEW_FLUSH_MS) stopped every request of the server for that long,
 * and the busy handler's sleeps (1, 2, 5, 10, 15, 20, 25 ms…) overshoot the lock's release
 * (docs/PERFORMANCE.md, "Writes against reads: a write waiting for the views' batch"). The
 * connection has busy_timeout 0: a statement refused with SQLITE_BUSY (it did not run) is
 * tried again after a timer, other requests go on meanwhile, reads on this same connection
 * included when no transaction is open, and after LOCK_WAIT_MS it fails as busy_timeout would
 * have. WAL readers never meet that lock, and a transaction, begun IMMEDIATE, holds it from
 * its first statement, so inside one a refusal is not expected and the turn is kept.
 */
/** How long a statement waits for another connection's write lock in all, and between tries. */
const LOCK_WAIT_MS = 5000;
const LOCK_RETRY_MS = [1, 1, 2, 2, 4, 4, 8];

/**
 * One holder at a time, the others served in the order they asked. A write that gives its turn
 * up while it waits for the lock asks again at the back: between writers, the first to find
 * the lock free goes first.
 */
class Turns {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  async take(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the turn to the next in line, still held, or frees it. */
  give(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    else next();
  }
}

/** The waits of a connection's statements for another's write lock, ms, the newest kept. */
class LockWaitLog {
  static readonly #KEPT = 10_000;
  readonly #waits = new Float64Array(LockWaitLog.#KEPT);
  #count = 0;

  add(ms: number): void {
    this.#waits[this.#count % LockWaitLog.#KEPT] = ms;
    this.#count += 1;
  }

  take(): number[] {
    const kept = Math.min(this.#count, LockWaitLog.#KEPT);
    const first = this.#count - kept;
    const waits = Array.from(
      { length: kept },
      (_, i) => this.#waits[(first + i) % LockWaitLog.#KEPT] ?? 0,
    );
    this.#count = 0;
    return waits;
  }
}

/** Another connection holds the write lock (not BUSY_SNAPSHOT, which no waiting cures). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;
  readonly #waits: LockWaitLog | undefined;

  constructor(
    config: SqliteDialectConfig,
    sqlite: SQLite.Database,
    waits: LockWaitLog | undefined,
  ) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
    this.#waits = waits;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#sqlite, this.#waits);
  }
}

function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // Opening may need the write lock (optimize below takes it to analyse, WAL mode to switch):
  // waited for inside SQLite, once per connection, before any request is served.
  sqlite.pragma('busy_timeout = 5000');
  // WAL lets readers go on while one writer writes, which is what a gallery does all day.
  sqlite.pragma('journal_mode = WAL');
  // With WAL, NORMAL is durable across process crashes and much faster than FULL.
  sqlite.pragma('synchronous = NORMAL');
  // SQLite leaves foreign keys off unless every connection asks for them.
  sqlite.pragma('foreign_keys = ON');
  // SQLite's own lower() folds ASCII only, so the back-office's search for 'perché' missed a
  // title 'PERCHÉ NO' that PostgreSQL (under a UTF-8 locale) finds: JavaScript's fold, the one
  // the searched text gets, under a name of its own so lower() stays SQLite's everywhere else.
  sqlite.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  // And without accents, for the back-office's image search (migration 2026-12-03T0800).
  sqlite.function('accentless_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? accentlessLower(value) : value,
  );
  // Without statistics SQLite's planner prefers the equality index images_by_status to the
  // partial index that already holds the gallery order, and sorts every approved row per
  // page (found by bench/: 55 ms a page at 10k images, seconds at 1M). SQLite's advice for
  // long-lived connections: optimize on open, which gathers statistics where they are
  // missing or stale, within a bounded analysis limit (tens of ms even at 1M rows).
  sqlite.pragma('optimize = 0x10002');
  // From now on another connection's write lock (the views' thread, a separate worker, a CLI)
  // is waited for on a timer by ImmediateSqliteDriver, not slept on inside SQLite (WAITING).
  sqlite.pragma('busy_timeout = 0');
  return sqlite;
}

type Parser = (value: string) => unknown;
type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
const { INT8, NUMERIC, TIMESTAMP, TIMESTAMPTZ } = pg.types.builtins;

/**
 * Type parsers for this pool only (not pg's global ones): counts come back as numbers and
 * timestamps as ISO strings, exactly as on SQLite, so repositories need no per-engine code.
 */
function parserFor(oid: TypeId, format?: 'text' | 'binary'): Parser {
  switch (oid) {
    case INT8:
    case NUMERIC:
      return (value) => Number(value);
    case TIMESTAMPTZ:
      return isoFromTimestamptz;
    case TIMESTAMP:
      return (value) => new Date(`${value}Z`).toISOString();
    default:
      return pg.types.getTypeParser(oid, format) as Parser;
  }
}

/** PostgreSQL's text form of a timestamptz in a UTC session: '2026-11-27 04:43:46.123456+00'. */
const UTC_TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as an ISO string with milliseconds (the rest cut off, as `Date#toISOString`
 * writes it). Rewritten as text when the session is in UTC, the server's usual setting: the
 * search's fallback once read thousands of timestamps, and parsing each into a Date took a
 * tenth of its time at 1M images (docs/PERFORMANCE.md); every list and page read still pays
 * it per row. Any other form (another zone, a year past 9999, infinity) goes through Date as
 * before.
 */
export function isoFromTimestamptz(value: string): string {
  const parts = UTC_TIMESTAMPTZ.exec(value);
  if (parts === null) return new Date(value).toISOString();
  const fraction = (parts[3] ?? '').slice(0, 3).padEnd(3, '0');
  return `${parts[1] ?? ''}T${parts[2] ?? ''}.${fraction}Z`;
}

const pgTypes: pg.CustomTypesConfig = { getTypeParser: parserFor };

function openPostgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    types: pgTypes,
    max,
    // Fail fast with a clear error when the server is gone, instead of hanging a request.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => undefined);
  // A client in use (a query or a transaction under way) that loses its connection emits
  // 'error' as well as failing its query, and pg-pool listens only on idle clients: unheard,
  // that event would crash the process (node-postgres issues 1324, 2439; found by
  // test-faults/database-outage.test.ts). The query's own failure reaches the caller (a 503),
  // and the pool discards the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
