import { sql, type Kysely } from 'kysely';

/*
 * The duplicate finder's index (D7; see modules/duplicates). The analysis job computes a
 * signature of each image once, so listing duplicate groups never compares all pairs:
 * - duplicate_text_keys: LSH buckets of the folded OCR text (MinHash bands over character
 *   trigrams, plus one-deletion variants of short texts). Images sharing a bucket are
 *   candidates;
 * - duplicate_hash_keys: the perceptual hash cut into four 16-bit bands (multi-index hashing);
 *   probing each band within two bits finds every hash within the distance threshold;
 * - duplicate_pairs: the candidate pairs that passed the precise check (text similarity or
 *   hash distance). Groups are the connected components of these pairs.
 * Every row goes with its image (ON DELETE CASCADE), so deleting an image drops it from its
 * group without any code of the duplicate finder running.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('duplicate_text_keys')
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('id_image', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    // Serves the candidate lookup `bucket IN (…)` (leading column) and keeps one row per
    // image and bucket.
    .addPrimaryKeyConstraint('duplicate_text_keys_pk', ['bucket', 'id_image'])
    .execute();
  // Serves replacing an image's keys and the cascade when the image is deleted.
  await db.schema
    .createIndex('duplicate_text_keys_image')
    .on('duplicate_text_keys')
    .column('id_image')
    .execute();

  await db.schema
    .createTable('duplicate_hash_keys')
    .addColumn('band_key', 'integer', (c) => c.notNull())
    .addColumn('id_image', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    // 1 when the image has usable text: two images that both have text are compared by their
    // text only, so a lookup from an image with text skips these rows.
    .addColumn('has_text', 'integer', (c) => c.notNull().defaultTo(0))
    // Serves the probe lookup `band_key IN (…)`.
    .addPrimaryKeyConstraint('duplicate_hash_keys_pk', ['band_key', 'id_image'])
    .execute();
  // Serves replacing an image's keys and the cascade when the image is deleted.
  await db.schema
    .createIndex('duplicate_hash_keys_image')
    .on('duplicate_hash_keys')
    .column('id_image')
    .execute();

  await db.schema
    .createTable('duplicate_pairs')
    .addColumn('id_a', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    .addColumn('id_b', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('text', 'visual')`))
    .addColumn('similarity', 'double precision', (c) => c.notNull())
    // One row per unordered pair: the smaller id first. Serves lookups by the first image.
    .addPrimaryKeyConstraint('duplicate_pairs_pk', ['id_a', 'id_b'])
    .addCheckConstraint('duplicate_pairs_order', sql`id_a < id_b`)
    .execute();
  // Serves lookups by the second image (hints, replacing an image's pairs, the cascade).
  await db.schema.createIndex('duplicate_pairs_b').on('duplicate_pairs').column('id_b').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['duplicate_pairs', 'duplicate_hash_keys', 'duplicate_text_keys']) {
    await db.schema.dropTable(table).execute();
  }
}
