import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/*
 * Kysely's SQLite driver prepares every query afresh. A CPU profile of 1,000 views a second
 * (issue 8) put 15 % of the server's busy time in better-sqlite3's `prepare`: SQLite parses and
 * plans the same few dozen statements over and over. Statements are reusable, so the
 * connection handed to Kysely keeps the most recent ones by their SQL text.
 *
 * Kysely runs one query at a time on its SQLite connection (a stream holds it to the end), so
 * a kept statement is never asked for while it runs; should one still be busy iterating, a
 * fresh one is prepared for that call. SQLite re-prepares a kept statement by itself when the
 * schema changes (migrations).
 */

const KEPT = 500;

export function withStatementCache(sqlite: SQLite.Database, kept = KEPT): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) {
        // Most recently used last, so the first key is the one to drop when full.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (cached === undefined) {
        statements.set(sql, statement);
        if (statements.size > kept) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      return statement;
    },
  };
}
