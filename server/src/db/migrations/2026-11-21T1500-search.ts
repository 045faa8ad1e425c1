import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Full-text search of approved images (D6). The application builds each image's document
 * itself (folded, Italian-stemmed words in four weighted fields: title, tags + category, OCR
 * text, username; see modules/search), so each engine only indexes ready-made tokens:
 * - SQLite: an FTS5 table whose rowid is the image id;
 * - PostgreSQL: a table of weighted tsvectors, one row per image, with a GIN index.
 * Only approved images are indexed; queries still check images.status, so a stale entry never
 * shows an image that is no longer public.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  // The same dialect test as portable.ts: the two engines need different structures here.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The primary key serves upserts and deletions by image, and the candidate walk of very
    // common words (matches by id_image DESC, LIMIT the candidate cap) that stops early instead
    // of collecting every match. Deleting an image removes its document.
    await db.schema
      .createTable('image_search')
      .addColumn('id_image', 'integer', (c) =>
        c.primaryKey().references('images.id_image').onDelete('cascade'),
      )
      // setweight(to_tsvector('simple', field), 'A'..'D'): 'simple' because the words are
      // already stemmed in TypeScript.
      .addColumn('document', sql`tsvector`, (c) => c.notNull())
      .execute();
    // Serves `document @@ to_tsquery('simple', …)`: finding the images that contain every
    // query word (and prefix matches), for both the relevance and the newest order.
    await db.schema
      .createIndex('image_search_document')
      .on('image_search')
      .using('gin')
      .column('document')
      .execute();
  } else {
    // The FTS5 table is itself the index: it serves `image_search MATCH …` (every query word,
    // bm25 with column weights) and, through its rowid (= id_image), the candidate walk by
    // newest id and deletions by image.
    // - content='' with contentless_delete=1: the text lives in the images table already, so
    //   only the index is stored, and an image's entry can still be replaced or deleted by id;
    // - tokenize='ascii': the documents are already folded words separated by single spaces,
    //   so splitting on ASCII spaces only keeps every token exactly as PostgreSQL sees it;
    // - prefix='2 3': indexes of 2- and 3-letter prefixes, which keep the prefix retry of a
    //   word being typed ('gr' → 'gr*') from merging thousands of terms.
    await sql`
      CREATE VIRTUAL TABLE image_search USING fts5(
        title, tags, body, author,
        content = '', contentless_delete = 1, tokenize = 'ascii', prefix = '2 3'
      )
    `.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('image_search').execute();
}
