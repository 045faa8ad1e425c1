import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search on PostgreSQL: `search_terms` holds the terms of approved images only, so a search
 * may read a word's images from it without checking each one in `images` (issue 8, goal 3;
 * docs/PERFORMANCE.md, "Search's fallback without the images table"). The fallback reads up
 * to 2,000 images per word, and for a word in 0.5 % of 1M images their check was 2,000 btree
 * descents scattered over the table, 8–16 ms a list, most of the fallback's time.
 *
 * The search module already writes a document only while its image is approved and removes it
 * in the same transaction as the decision that ends the approval; a deleted image's document
 * goes by foreign key. These triggers make the rule hold whatever writes the rows, as the
 * terms' own trigger does for the documents: a document's terms are written only while its
 * image is approved, and a change of status adds or drops the terms of the image's document.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // As in 2026-11-25T2100-search-terms, with the image's status read once per document write:
  // a document of an image that is not approved has no terms. While an image is approved its
  // document's terms are all there (written with the document, or by the status trigger
  // below when it was approved), so an update still writes only the terms that changed.
  await sql`
    CREATE OR REPLACE FUNCTION search_terms_follow_documents() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      old_terms text[] := '{}';
      new_terms text[] := '{}';
    BEGIN
      IF TG_OP <> 'INSERT' THEN old_terms := tsvector_to_array(OLD.document); END IF;
      IF TG_OP <> 'DELETE' AND EXISTS (
        SELECT 1 FROM images WHERE id_image = NEW.id_image AND status = 'approved'
      ) THEN
        new_terms := tsvector_to_array(NEW.document);
      END IF;
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
        INSERT INTO search_terms (term, id_image)
        SELECT term, NEW.id_image FROM unnest(terms) AS term
        ON CONFLICT DO NOTHING;
      ELSIF OLD.status = 'approved' THEN
        DELETE FROM search_terms WHERE id_image = NEW.id_image AND term = ANY (terms);
      END IF;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER images_search_terms_status
    AFTER UPDATE OF status ON images
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION search_terms_follow_status()
  `.execute(db);

  // Terms left by documents of images that are not approved (none when only the search
  // module wrote them).
  await sql`
    DELETE FROM search_terms t
    USING images i
    WHERE i.id_image = t.id_image AND i.status <> 'approved'
  `.execute(db);
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
  await sql`
    INSERT INTO search_terms (term, id_image)
    SELECT term, s.id_image
    FROM image_search s, unnest(tsvector_to_array(s.document)) AS term
    ON CONFLICT DO NOTHING
  `.execute(db);
}
