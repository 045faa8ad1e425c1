import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * `accentless_lower(text)` on PostgreSQL, the name SQLite's connections register too
 * (db/database.ts): the back-office's image search compares text lowered and without accents,
 * so 'citta' finds 'Città' as the pending list's own search and the public search do. Lower case
 * by unicode_lower (migration 2026-11-28T1500), then NFD, then the combining diacritical marks
 * (U+0300–U+036F) dropped, as the JavaScript twin does. normalize() needs a UTF-8 database; on
 * another encoding (rare today) the function only lowers.
 * A one-line SQL function, which the planner inlines into the statement.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ utf8: boolean }>`
    SELECT current_setting('server_encoding') = 'UTF8' AS utf8
  `.execute(db);
  const body =
    rows[0]?.utf8 === true
      ? sql`regexp_replace(normalize(unicode_lower(value), NFD), '[' || chr(768) || '-' || chr(879) || ']', '', 'g')`
      : sql`unicode_lower(value)`;
  await sql`
    CREATE FUNCTION accentless_lower(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ${body}
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION accentless_lower(text)`.execute(db);
}
