import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: for each block of 8,192 image ids (the blocks of migration
 * 2026-11-29T0900-search-term-blocks), bounds that enclose the publication times of every
 * image with terms in `search_terms` in that block (issue 8, goal 3; docs/PERFORMANCE.md,
 * "Common words ANDed, and the publication times they need").
 *
 * A search whose words are all dense finds its images by ANDing their bitmaps, without reading
 * any row of `search_terms`; what it still needs for 'newest' is each candidate's publication
 * time, and looking up all 2,000 took 11 ms at 1M images. Ids follow uploads, publication follows
 * moderation, so a block's images are published within days of each other and the blocks'
 * bounds barely overlap: the newest page needs the times of the few blocks whose bounds can
 * reach it (search.repository.ts, `intersected` and `newestOf`).
 *
 * The bounds only ever widen: a statement trigger on `search_terms` widens a block's bounds to
 * each time inserted or updated there, and leaves them when terms are deleted, so they always
 * enclose (a block's image approved late, or published anew, makes that block's bounds wide for
 * good, which costs its lookups, never a wrong page). A time unknown (NULL) sorts last: it
 * counts as -infinity. Rewrites of documents (edits, renames, the rebuild) keep their images'
 * times, within the bounds: their check reads without locking and they go on. An approval's
 * time is the latest so far, so nearly every approval widens its block: a write that widens
 * takes the advisory lock of the bitmaps' writers first, whatever its words (a transaction
 * widening two blocks in one order and another in the other would otherwise wait in a circle),
 * and approvals take turns on it to their commits (db/locks.ts).
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

/** The advisory lock of migration 2026-11-29T0900-search-term-blocks's writers. */
const BITMAP_WRITERS_LOCK = sql`28017, 1`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // No term may be written between the fill below and the triggers; searches go on.
  await sql`LOCK TABLE search_terms IN SHARE MODE`.execute(db);
  await sql`
    CREATE TABLE search_published_bounds (
      block integer PRIMARY KEY,
      oldest timestamptz NOT NULL,
      newest timestamptz NOT NULL
    )
  `.execute(db);
  // From the terms themselves, whatever their images' state now (2.7 s at 1M images, writers
  // of terms waiting meanwhile): the bounds must enclose every time search_terms holds.
  await sql`
    INSERT INTO search_published_bounds (block, oldest, newest)
    SELECT id_image / 8192, min(coalesce(published_at, '-infinity')),
      max(coalesce(published_at, '-infinity'))
    FROM search_terms
    GROUP BY 1
  `.execute(db);
  await sql`
    CREATE FUNCTION search_published_bounds_widen() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (
        SELECT 1 FROM (
          SELECT id_image / 8192 AS block, min(coalesce(published_at, '-infinity')) AS oldest,
            max(coalesce(published_at, '-infinity')) AS newest
          FROM written GROUP BY 1
        ) AS times
        LEFT JOIN search_published_bounds AS bounds USING (block)
        WHERE bounds.block IS NULL OR times.oldest < bounds.oldest OR times.newest > bounds.newest
      ) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(${BITMAP_WRITERS_LOCK});
      INSERT INTO search_published_bounds AS bounds (block, oldest, newest)
      SELECT id_image / 8192, min(coalesce(published_at, '-infinity')),
        max(coalesce(published_at, '-infinity'))
      FROM written
      GROUP BY 1
      ORDER BY 1
      ON CONFLICT (block) DO UPDATE
      SET oldest = least(bounds.oldest, excluded.oldest),
        newest = greatest(bounds.newest, excluded.newest)
      WHERE excluded.oldest < bounds.oldest OR excluded.newest > bounds.newest;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_bounds_insert
    AFTER INSERT ON search_terms REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION search_published_bounds_widen()
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_bounds_update
    AFTER UPDATE ON search_terms REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION search_published_bounds_widen()
  `.execute(db);
  await sql`
    CREATE FUNCTION search_published_bounds_truncate() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE search_published_bounds;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_bounds_truncate
    AFTER TRUNCATE ON search_terms
    FOR EACH STATEMENT EXECUTE FUNCTION search_published_bounds_truncate()
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP TRIGGER search_terms_bounds_truncate ON search_terms`.execute(db);
  await sql`DROP FUNCTION search_published_bounds_truncate()`.execute(db);
  await sql`DROP TRIGGER search_terms_bounds_update ON search_terms`.execute(db);
  await sql`DROP TRIGGER search_terms_bounds_insert ON search_terms`.execute(db);
  await sql`DROP FUNCTION search_published_bounds_widen()`.execute(db);
  await sql`DROP TABLE search_published_bounds`.execute(db);
}
