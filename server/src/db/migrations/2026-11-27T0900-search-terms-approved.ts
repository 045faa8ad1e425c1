import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: `search_terms` holds the terms of approved images only, each with the
 * image's publication time, so a search reads a word's images, their status and the order of
 * 'newest' from it alone, without looking each one up in `images` (issue 8, goal 3;
 * docs/PERFORMANCE.md, "Search's fallback without the images table" and "Strict searches
 * without the images table"). Up to 2,000 candidates a word were each checked by a btree
 * descent into `images`, scattered over the table for a word in 0.5 % of 1M images: 8–16 ms
 * a list, most of the fallback's time and a third of a search of two common words.
 *
 * The search module already writes a document only while its image is approved and removes it
 * in the same transaction as the decision that ends the approval; a deleted image's document
 * goes by foreign key. These triggers make the rule hold whatever writes the rows, as the
 * terms' own trigger does for the documents: a document's terms are written only while its
 * image is approved, with its publication time, and a change of status or of publication time
 * adds, updates or drops the terms of the image's document.
 *
 * One limit: each trigger reads the other table as committed, so two transactions that change
 * one image's status and its document at the same time, neither then writing the other, could
 * leave its terms behind. The search module never does that: a decision changes the status,
 * then rewrites or removes the document in the same transaction, whose write waits for any
 * other on that document row and derives the terms again. Locking the image row from the
 * documents' trigger would close it for any writer, at the price of deadlocks between
 * reindexing batches and the counters' updates of the same rows. Whatever search_terms holds,
 * the images shown are read from approved images only (images.service inOrder).
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // Kysely runs the migrations in one transaction: no document, status or publication time
  // may change between the copy below and the new triggers (an older server still running
  // would write terms into the table being replaced). Reads go on.
  await sql`LOCK TABLE images, image_search IN SHARE ROW EXCLUSIVE MODE`.execute(db);

  // The terms rebuilt from the documents of approved images, with their publication time, in
  // key order, and the primary key carrying the time so a search reads it by index-only
  // scans. A new table rather than an UPDATE of every row (11.7M at 1M images), which would
  // leave as many dead.
  await sql`
    CREATE TABLE search_terms_published (
      term text COLLATE "C" NOT NULL,
      id_image integer NOT NULL,
      published_at timestamptz
    )
  `.execute(db);
  await sql`
    INSERT INTO search_terms_published (term, id_image, published_at)
    SELECT term, s.id_image, i.published_at
    FROM image_search s JOIN images i ON i.id_image = s.id_image AND i.status = 'approved',
      unnest(tsvector_to_array(s.document)) AS term
    ORDER BY 1, 2
  `.execute(db);
  await sql`DROP TABLE search_terms`.execute(db);
  await sql`ALTER TABLE search_terms_published RENAME TO search_terms`.execute(db);
  await sql`
    ALTER TABLE search_terms
    ADD CONSTRAINT search_terms_pk PRIMARY KEY (term, id_image) INCLUDE (published_at)
  `.execute(db);
  await sql`ALTER TABLE search_terms ALTER COLUMN term SET STATISTICS 1000`.execute(db);

  // As in 2026-11-25T2100-search-terms, with the image read once per document write: a
  // document of an image that is not approved has no terms, and an approved image's terms
  // carry its publication time. While an image is approved its document's terms are all there
  // with its time (written with the document, or by the status trigger below), so an update
  // still writes only the terms that changed.
  await sql`
    CREATE OR REPLACE FUNCTION search_terms_follow_documents() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      old_terms text[] := '{}';
      new_terms text[] := '{}';
      published timestamptz;
    BEGIN
      IF TG_OP <> 'INSERT' THEN old_terms := tsvector_to_array(OLD.document); END IF;
      IF TG_OP <> 'DELETE' THEN
        SELECT tsvector_to_array(NEW.document), images.published_at INTO new_terms, published
        FROM images WHERE id_image = NEW.id_image AND status = 'approved';
        new_terms := coalesce(new_terms, '{}');
      END IF;
      IF TG_OP = 'UPDATE' AND OLD.id_image = NEW.id_image THEN
        DELETE FROM search_terms
        WHERE id_image = OLD.id_image
          AND term = ANY (old_terms) AND NOT (term = ANY (new_terms));
        INSERT INTO search_terms (term, id_image, published_at)
        SELECT term, NEW.id_image, published FROM unnest(new_terms) AS term
        WHERE NOT (term = ANY (old_terms))
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END IF;
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM search_terms WHERE id_image = OLD.id_image AND term = ANY (old_terms);
      END IF;
      IF TG_OP <> 'DELETE' THEN
        INSERT INTO search_terms (term, id_image, published_at)
        SELECT term, NEW.id_image, published FROM unnest(new_terms) AS term
        ON CONFLICT DO NOTHING;
      END IF;
      RETURN NULL;
    END
    $$
  `.execute(db);

  await sql`
    CREATE FUNCTION search_terms_follow_status() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      terms text[];
    BEGIN
      SELECT tsvector_to_array(document) INTO terms
      FROM image_search WHERE id_image = NEW.id_image;
      IF terms IS NULL THEN RETURN NULL; END IF;
      IF NEW.status = 'approved' THEN
        INSERT INTO search_terms (term, id_image, published_at)
        SELECT term, NEW.id_image, NEW.published_at FROM unnest(terms) AS term
        ON CONFLICT (term, id_image) DO UPDATE SET published_at = excluded.published_at
        WHERE search_terms.published_at IS DISTINCT FROM excluded.published_at;
      ELSIF OLD.status = 'approved' THEN
        DELETE FROM search_terms WHERE id_image = NEW.id_image AND term = ANY (terms);
      END IF;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER images_search_terms_status
    AFTER UPDATE OF status, published_at ON images
    FOR EACH ROW WHEN (
      OLD.status IS DISTINCT FROM NEW.status OR OLD.published_at IS DISTINCT FROM NEW.published_at
    )
    EXECUTE FUNCTION search_terms_follow_status()
  `.execute(db);
  await sql`ANALYZE search_terms`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP TRIGGER images_search_terms_status ON images`.execute(db);
  await sql`DROP FUNCTION search_terms_follow_status()`.execute(db);
  // The previous trigger function: every document's terms, whatever the image's status.
  await sql`
    CREATE OR REPLACE FUNCTION search_terms_follow_documents() RETURNS trigger
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
  await sql`ALTER TABLE search_terms DROP CONSTRAINT search_terms_pk`.execute(db);
  await sql`ALTER TABLE search_terms DROP COLUMN published_at`.execute(db);
  await sql`ALTER TABLE search_terms ADD CONSTRAINT search_terms_pk PRIMARY KEY (term, id_image)`.execute(
    db,
  );
  await sql`
    INSERT INTO search_terms (term, id_image)
    SELECT term, s.id_image
    FROM image_search s, unnest(tsvector_to_array(s.document)) AS term
    ON CONFLICT DO NOTHING
  `.execute(db);
}
