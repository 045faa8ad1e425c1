import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: the newest matches of a word without reading its documents
 * (issue 8, goal 3; docs/PERFORMANCE.md, "Search on PostgreSQL: words in 0.1–1 % of the
 * images"). PostgreSQL only: SQLite's FTS5 index already hands out ids in order.
 *
 * The GIN index over image_search.document finds the documents holding a word but returns
 * them in table order, so a search that wants the newest 2,000 of them read every matching
 * row (5,047 scattered rows for a word in 0.5 % of 1M images) to sort them by id.
 * `search_terms` is the same inverted index in a btree, one row per (term, image): a word's
 * newest matches are the end of its key range, read backwards by an index-only scan that
 * stops at the candidate cap, whatever the word's frequency.
 *
 * It is derived from image_search by a trigger, so every write of a document (upsert,
 * removal, the cascade when an image row is deleted, a bulk load) changes its terms in the
 * same statement; no writer can forget it. The search module still owns the documents.
 *
 * `images_approved_by_id` lets a search check the status and read the publication time of
 * its candidates from a narrow index instead of 2,000 rows of the wide images table.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // COLLATE "C": byte order, whatever the database's locale, so comparisons are memcmp and
  // a prefix is one contiguous key range, as tsquery prefixes compare lexemes.
  // The primary key is the index searches read: a term's image ids in order, walked
  // backwards from the newest.
  await sql`
    CREATE TABLE search_terms (
      term text COLLATE "C" NOT NULL,
      id_image integer NOT NULL,
      CONSTRAINT search_terms_pk PRIMARY KEY (term, id_image)
    )
  `.execute(db);
  // When every word of a search is common, the planner joins their ranges by its estimate
  // of each word's rows, which the default 100 most common values leave coarse for the
  // thousands of words between rare and common.
  await sql`ALTER TABLE search_terms ALTER COLUMN term SET STATISTICS 1000`.execute(db);

  await sql`
    INSERT INTO search_terms (term, id_image)
    SELECT term, s.id_image
    FROM image_search s, unnest(tsvector_to_array(s.document)) AS term
    ORDER BY 1, 2
  `.execute(db);

  // Keeps search_terms equal to the lexemes of image_search.document, row by row. An update
  // touches only the terms that changed: a reindex that changes nothing writes nothing.
  await sql`
    CREATE FUNCTION search_terms_follow_documents() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      old_terms text[] := '{}';
      new_terms text[] := '{}';
    BEGIN
      IF TG_OP <> 'INSERT' THEN old_terms := tsvector_to_array(OLD.document); END IF;
      IF TG_OP <> 'DELETE' THEN new_terms := tsvector_to_array(NEW.document); END IF;
      IF TG_OP = 'UPDATE' AND OLD.id_image = NEW.id_image THEN
        DELETE FROM search_terms
        WHERE id_image = OLD.id_image
          AND term = ANY (old_terms) AND NOT (term = ANY (new_terms));
        INSERT INTO search_terms (term, id_image)
        SELECT term, NEW.id_image FROM unnest(new_terms) AS term
        WHERE NOT (term = ANY (old_terms))
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END IF;
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM search_terms WHERE id_image = OLD.id_image AND term = ANY (old_terms);
      END IF;
      IF TG_OP <> 'DELETE' THEN
        INSERT INTO search_terms (term, id_image)
        SELECT term, NEW.id_image FROM unnest(new_terms) AS term
        ON CONFLICT DO NOTHING;
      END IF;
      RETURN NULL;
    END
    $$
  `.execute(db);
  // AFTER, so a row that a conflict turned into an update is seen once, as the update; a
  // foreign-key cascade from images fires it too.
  await sql`
    CREATE TRIGGER image_search_terms
    AFTER INSERT OR UPDATE OR DELETE ON image_search
    FOR EACH ROW EXECUTE FUNCTION search_terms_follow_documents()
  `.execute(db);
  // A TRUNCATE fires no row trigger: empty the terms with it.
  await sql`
    CREATE FUNCTION search_terms_truncate() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE search_terms;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER image_search_terms_truncate
    AFTER TRUNCATE ON image_search
    FOR EACH STATEMENT EXECUTE FUNCTION search_terms_truncate()
  `.execute(db);

  // Serves the search's check of its candidates, by id: present only while the image is
  // approved, and carrying published_at, the order of 'newest' and of relevance's ties, so
  // the check is an index-only scan of about 30 MB at 1M images.
  await sql`
    CREATE INDEX images_approved_by_id ON images (id_image) INCLUDE (published_at)
    WHERE status = 'approved'
  `.execute(db);
  await sql`ANALYZE search_terms`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP INDEX images_approved_by_id`.execute(db);
  await sql`DROP TRIGGER image_search_terms_truncate ON image_search`.execute(db);
  await sql`DROP FUNCTION search_terms_truncate()`.execute(db);
  await sql`DROP TRIGGER image_search_terms ON image_search`.execute(db);
  await sql`DROP FUNCTION search_terms_follow_documents()`.execute(db);
  await sql`DROP TABLE search_terms`.execute(db);
}
