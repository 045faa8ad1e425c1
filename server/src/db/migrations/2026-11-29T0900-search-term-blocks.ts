import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: the images of a common word as bitmaps, one row per block of 8,192
 * image ids (issue 8, goal 3; docs/PERFORMANCE.md, "Two common words: bitmaps of id blocks").
 *
 * Two words each held by 10,000 images or more whose images seldom meet (`sempre silenzio` at
 * 1M images) were found by looking each of the rarer word's newest images up under the other
 * in `search_terms`: 6,000 btree descents of four pages, 9–13 ms of a 20 ms budget. A word's
 * images in one block are a `bit(8192)` here (1 KB, stored plain so a test of one bit reads it
 * in place): `sempre`'s 371,255 images are 123 rows, and testing the rarer word's images
 * against them reads one row a block instead of a descent an image.
 *
 * Only words made dense are kept (`search_dense_terms`): a rare word's bitmap would cost 1 KB
 * a block for a few images, which its btree rows hold in a few bytes each. A word is made dense
 * by `search_make_dense(term)`, which locks `search_terms` against writers (SHARE: reads go
 * on) while it fills the word's rows from it, so no write is in flight for the word while it
 * is filled and every later write sees it dense. The worker's hourly upkeep chooses the words
 * (search-dense-terms, search.service.ts makeCommonWordsDense).
 *
 * Triggers keep the rows equal to `search_terms` for every dense word: its rows are only ever
 * inserted and deleted (a change of publication time updates them in place, which changes no
 * bit), each statement's rows are applied at its end, read from its transition table. Every
 * image's terms are in one block, but a transaction that writes several images touches several
 * blocks' rows, in whatever order its statements come: two such transactions could each hold a
 * row the other wants. So every writer of the rows takes one transaction-level advisory lock
 * first, and they take turns. Writers of one image's terms already wait for each other on the
 * newest block's rows, and a writer takes the lock last, after the image's locks and rows
 * (db/locks.ts), so it never waits for a lock while holding one another writer of the bitmaps
 * waits for (see the rule there).
 *
 * Frozen: never edit a migration that has shipped; add a new one. search.repository.ts
 * TERM_BLOCK is this block size.
 */

/** The advisory lock's key (two ints): one lock, taken by every writer of the bitmaps. */
const BITMAP_WRITERS_LOCK = sql`28017, 1`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  await sql`CREATE TABLE search_dense_terms (term text COLLATE "C" PRIMARY KEY)`.execute(db);
  await sql`
    CREATE TABLE search_term_blocks (
      term text COLLATE "C" NOT NULL,
      block integer NOT NULL,
      bits bit(8192) NOT NULL,
      CONSTRAINT search_term_blocks_pk PRIMARY KEY (term, block)
    )
  `.execute(db);
  // 1,032 bytes a value stays in its row; never compressed, so get_bit reads it in place.
  await sql`ALTER TABLE search_term_blocks ALTER COLUMN bits SET STORAGE PLAIN`.execute(db);

  // The bitmap of a block with these ids' positions set (id % 8192).
  await sql`
    CREATE FUNCTION search_term_bits(positions integer[]) RETURNS bit(8192)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      bits bit(8192) := 0::bit(8192);
      position integer;
    BEGIN
      FOREACH position IN ARRAY positions LOOP
        bits := set_bit(bits, position, 1);
      END LOOP;
      RETURN bits;
    END
    $$
  `.execute(db);

  await sql`
    CREATE FUNCTION search_term_blocks_add() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM added JOIN search_dense_terms USING (term)) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(${BITMAP_WRITERS_LOCK});
      INSERT INTO search_term_blocks AS held (term, block, bits)
      SELECT added.term, added.id_image / 8192, search_term_bits(array_agg(added.id_image % 8192))
      FROM added JOIN search_dense_terms USING (term)
      GROUP BY 1, 2
      ORDER BY 1, 2
      ON CONFLICT (term, block) DO UPDATE SET bits = held.bits | excluded.bits;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE FUNCTION search_term_blocks_remove() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM removed JOIN search_dense_terms USING (term)) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(${BITMAP_WRITERS_LOCK});
      UPDATE search_term_blocks AS held SET bits = held.bits & ~gone.bits
      FROM (
        SELECT removed.term, removed.id_image / 8192 AS block,
          search_term_bits(array_agg(removed.id_image % 8192)) AS bits
        FROM removed JOIN search_dense_terms USING (term)
        GROUP BY 1, 2
      ) AS gone
      WHERE held.term = gone.term AND held.block = gone.block;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_blocks_add
    AFTER INSERT ON search_terms REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION search_term_blocks_add()
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_blocks_remove
    AFTER DELETE ON search_terms REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION search_term_blocks_remove()
  `.execute(db);
  // The terms' own TRUNCATE (when the documents are truncated) fires no row trigger.
  await sql`
    CREATE FUNCTION search_term_blocks_truncate() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE search_term_blocks;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER search_terms_blocks_truncate
    AFTER TRUNCATE ON search_terms
    FOR EACH STATEMENT EXECUTE FUNCTION search_term_blocks_truncate()
  `.execute(db);

  // Makes a word dense: true when it was not yet. The lock waits for every transaction that
  // wrote search_terms and keeps new writers waiting until this one commits; and while it
  // waits, every writer that comes after it waits too. A vacuum of search_terms holds a lock it
  // conflicts with for as long as the vacuum runs, so it waits a second at most and fails
  // with lock_not_available (55P03): the next upkeep tries again. Rows a word left behind
  // (its row of search_dense_terms deleted by hand) are replaced.
  await sql`
    CREATE FUNCTION search_make_dense(wanted text) RETURNS boolean
    LANGUAGE plpgsql SET lock_timeout = '1s' AS $$
    BEGIN
      LOCK TABLE search_terms IN SHARE MODE;
      INSERT INTO search_dense_terms (term) VALUES (wanted) ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN RETURN false; END IF;
      INSERT INTO search_term_blocks (term, block, bits)
      SELECT wanted, id_image / 8192, search_term_bits(array_agg(id_image % 8192))
      FROM search_terms WHERE term = wanted
      GROUP BY 2
      ON CONFLICT (term, block) DO UPDATE SET bits = excluded.bits;
      RETURN true;
    END
    $$
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION search_make_dense(text)`.execute(db);
  await sql`DROP TRIGGER search_terms_blocks_truncate ON search_terms`.execute(db);
  await sql`DROP FUNCTION search_term_blocks_truncate()`.execute(db);
  await sql`DROP TRIGGER search_terms_blocks_remove ON search_terms`.execute(db);
  await sql`DROP TRIGGER search_terms_blocks_add ON search_terms`.execute(db);
  await sql`DROP FUNCTION search_term_blocks_remove()`.execute(db);
  await sql`DROP FUNCTION search_term_blocks_add()`.execute(db);
  await sql`DROP FUNCTION search_term_bits(integer[])`.execute(db);
  await sql`DROP TABLE search_term_blocks`.execute(db);
  await sql`DROP TABLE search_dense_terms`.execute(db);
}
