import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Search's vocabulary (issue 9, step 5; see modules/search/search.fuzzy.ts): every folded word
 * and every stem of the indexed documents (a form, 4 to 24 letters), with the stem it is
 * indexed as, under the form itself and under each string made by deleting one of its
 * letters, so that a query word read with one slip on the wall ('parole' / OCR 'pardle') finds
 * the terms within one edit by primary key, on both engines alike, at any size.
 *
 * Existing databases get the stems of the documents already indexed: SQLite lists the FTS5
 * table's terms through a temporary fts5vocab table, PostgreSQL through ts_stat. Both read the
 * whole index once, which is fine in a migration and never done per request. The index holds
 * stems only, so the unstemmed words of those documents join the vocabulary when each image
 * is next reindexed (or all at once with the search service's reindexAll).
 *
 * The key rule is copied here rather than imported, so that this migration does what it did
 * when it shipped whatever the module becomes; it is the rule of search.fuzzy.ts
 * (hasFuzzyKeys, deletionKeys) at this date.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

const MIN_LENGTH = 4;
const MAX_LENGTH = 24;
const ROWS_PER_INSERT = 400;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let create = db.schema
    .createTable('search_vocabulary')
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    // Serves the lookup `variant IN (keys of the query word)` (leading column), and keeps one
    // row per key, form and stem, so writers insert with ON CONFLICT DO NOTHING.
    .addPrimaryKeyConstraint('search_vocabulary_pk', ['variant', 'form', 'term']);
  // SQLite: the primary key is the table (no second copy of every row in a rowid table).
  if (!postgres) create = create.modifyEnd(sql`WITHOUT ROWID`);
  await create.execute();

  const terms = postgres
    ? (
        await sql<{ word: string }>`
          SELECT word FROM ts_stat('SELECT document FROM image_search')
        `.execute(db)
      ).rows.map((row) => row.word)
    : await sqliteTerms(db);

  const rows: Array<{ variant: string; form: string; term: string }> = [];
  for (const term of terms) {
    const letters = Array.from(term);
    if (letters.length < MIN_LENGTH || letters.length > MAX_LENGTH) continue;
    const keys = new Set<string>([term]);
    for (let i = 0; i < letters.length; i += 1) {
      keys.add(letters.slice(0, i).join('') + letters.slice(i + 1).join(''));
    }
    for (const variant of keys) rows.push({ variant, form: term, term });
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('search_vocabulary')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

async function sqliteTerms(db: Kysely<any>): Promise<string[]> {
  // A temporary table: it lives in this connection only and leaves the schema as it was.
  await sql`
    CREATE VIRTUAL TABLE temp.image_search_terms USING fts5vocab(main, image_search, row)
  `.execute(db);
  try {
    const result = await sql<{ term: string }>`
      SELECT term FROM temp.image_search_terms WHERE doc > 0
    `.execute(db);
    return result.rows.map((row) => row.term);
  } finally {
    await sql`DROP TABLE temp.image_search_terms`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_vocabulary').execute();
}
