import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: the ranked path reads its candidates' documents (at most 2,000) through
 * this function (issue 8, goal 3; docs/PERFORMANCE.md, "Documents asked for ahead").
 *
 * Looked up one by one (a nested loop over the primary key), the documents of a search's first
 * run come from the disk one page after another: 137–160 ms at 1M images for a word in 0.14 % of
 * them, whose pages lie far apart. A bitmap heap scan with `effective_io_concurrency` asks the
 * kernel for the pages ahead of reading them, so the disk serves many at once: 38–45 ms in psql,
 * 43–55 ms through the search service. The
 * planner never picks it for a few thousand ids on a primary key in the table's order (it costs
 * the index scan lower), hence the settings below, which hold only while the function runs: its
 * one statement reads `image_search` alone, so switching index scans off there leaves the search's
 * other reads (the index-only scans of `search_terms`) as they are. PL/pgSQL keeps the statement's
 * plan for the session.
 *
 * The rank's normalisation is an argument, so the rank stays defined by the repository's code.
 * A server built without prefetch advice (no posix_fadvise, as on macOS) refuses any
 * `effective_io_concurrency` but 0, and its built-in default says which it is: there the
 * function keeps only the bitmap heap scan. The choice is made where the migration runs: a
 * dump of a database made on Linux, restored on such a server, needs the function created
 * again without that setting (as this migration would create it there).
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ boot_val: string }>`
    SELECT boot_val FROM pg_settings WHERE name = 'effective_io_concurrency'
  `.execute(db);
  const prefetch = rows[0]?.boot_val === '0' ? sql`` : sql`SET effective_io_concurrency = 32`;
  await sql`
    CREATE FUNCTION search_rank_documents(
      ids integer[], query tsquery, weights real[], normalization integer
    ) RETURNS TABLE (id_image integer, score real)
    LANGUAGE plpgsql STABLE ROWS 2000
    SET enable_indexscan = off
    ${prefetch}
    AS $$
    BEGIN
      RETURN QUERY
        SELECT s.id_image, ts_rank_cd(weights, s.document, query, normalization)
        FROM image_search s
        WHERE s.id_image = ANY (ids);
    END
    $$
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION search_rank_documents(integer[], tsquery, real[], integer)`.execute(db);
}
