import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * `unicode_lower(text)` on PostgreSQL, the name SQLite's connections already register
 * (db/database.ts): the back-office's search compares lowered text, and PostgreSQL's lower()
 * folds by the database's LC_CTYPE. Under the C locale (`initdb --locale=C`, common for its
 * faster sorting) it folds ASCII only, so 'perché' missed a title 'PERCHÉ NO' there as it once
 * did on SQLite. ICU's root collation lowers by Unicode's rules whatever the database's locale;
 * a server built without ICU, or a database not in UTF-8 (ICU reads most other encodings too,
 * but only UTF-8 is tried and tested here), keeps its lower().
 * A one-line SQL function, which the planner inlines into the statement.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ icu: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu')
      AND current_setting('server_encoding') = 'UTF8' AS icu
  `.execute(db);
  const body = rows[0]?.icu === true ? sql`lower(value COLLATE "und-x-icu")` : sql`lower(value)`;
  await sql`
    CREATE FUNCTION unicode_lower(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ${body}
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION unicode_lower(text)`.execute(db);
}
