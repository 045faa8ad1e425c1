import { sql, type Kysely } from 'kysely';

/*
 * An image's interactions, found by the image: the views' index becomes one for every type.
 *
 * The only indexes led by id_image were partial (the toggles' unique index, the views' own),
 * which neither engine may use for a statement that does not repeat their condition. So:
 * - deleting an image (moderation, duplicates, a user's erasure) deleted its interactions by
 *   foreign key with a scan of the whole table: 70 ms an image at 550k interactions on
 *   SQLite, holding the write lock, and growing with the table;
 * - an erasure recounts the counters of every image the user touched, type by type, and each
 *   count crossed the users' index for every user (0.5 s a count at 100k images): a user who
 *   had viewed 5,000 images was not forgotten in four minutes (docs/PERFORMANCE.md, "A
 *   user's erasure").
 *
 * The views' partial index (id_image, viewer_key, created_at) WHERE type = 7 is replaced by
 * (id_image, id_tipo_interazione, viewer_key, created_at) over every row: the once-a-day view
 * rule still finds a viewer's latest view of an image in it, and the views, most of the
 * table's writes, cost no more index entries than before; likes, downloads and the other
 * reactions one more each.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('interactions_by_image')
    .on('interactions')
    .columns(['id_image', 'id_tipo_interazione', 'viewer_key', 'created_at'])
    .execute();
  await db.schema.dropIndex('interactions_views_by_viewer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('interactions_views_by_viewer')
    .on('interactions')
    .columns(['id_image', 'viewer_key', 'created_at'])
    .where(sql.ref('id_tipo_interazione'), '=', 7)
    .execute();
  await db.schema.dropIndex('interactions_by_image').execute();
}
