import { sql, type Kysely } from 'kysely';
import { schemaDialect } from './portable.js';

/*
 * The whole schema of SPEC §3 and DECISIONS, portable across SQLite and PostgreSQL.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const { idColumn, timestamp, now } = schemaDialect(db);

  await db.schema
    .createTable('users')
    .addColumn('id_utente', 'integer', idColumn)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`is_active IN (0, 1)`),
    )
    .addColumn('is_superuser', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`is_superuser IN (0, 1)`),
    )
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('age_confirmed_at', timestamp)
    .addColumn('deletion_requested_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // Login and registration look users up by folded name and e-mail; uniqueness is the rule.
  await db.schema
    .createIndex('users_username_key_unique')
    .on('users')
    .column('username_key')
    .unique()
    .execute();
  await db.schema
    .createIndex('users_email_key_unique')
    .on('users')
    .column('email_key')
    .unique()
    .execute();
  // The erasure job finds accounts whose deletion was requested (D9); few rows, partial index.
  await db.schema
    .createIndex('users_deletion_requested')
    .on('users')
    .column('deletion_requested_at')
    .where(sql.ref('deletion_requested_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id_categoria', 'integer', idColumn)
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('nome_key', 'text', (c) => c.notNull())
    .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // Names are unique case-insensitively (D6).
  await db.schema
    .createIndex('categories_nome_key_unique')
    .on('categories')
    .column('nome_key')
    .unique()
    .execute();
  // The category strip and the popular categories are the top N by approved image count.
  await db.schema
    .createIndex('categories_by_count')
    .on('categories')
    .columns(['image_count desc', 'id_categoria'])
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('id_tag', 'integer', idColumn)
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('nome_key', 'text', (c) => c.notNull())
    .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // Names are unique case-insensitively (D6); also the lookup when an admin assigns tags by name.
  await db.schema
    .createIndex('tags_nome_key_unique')
    .on('tags')
    .column('nome_key')
    .unique()
    .execute();
  // The admin dashboard's top 20 tags by approved image count.
  await db.schema
    .createIndex('tags_by_count')
    .on('tags')
    .columns(['image_count desc', 'id_tag'])
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id_image', 'integer', idColumn)
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('original_filename', 'text')
    .addColumn('titolo_img', 'text')
    .addColumn('description', 'text')
    .addColumn('id_utente', 'integer', (c) =>
      c.notNull().references('users.id_utente').onDelete('cascade'),
    )
    .addColumn('id_categoria', 'integer', (c) =>
      c.notNull().defaultTo(1).references('categories.id_categoria'),
    )
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'approved', 'rejected')`),
    )
    .addColumn('rejection_reason', 'text')
    .addColumn('reviewed_at', timestamp)
    .addColumn('reviewed_by', 'integer', (c) =>
      c.references('users.id_utente').onDelete('set null'),
    )
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('placeholder', 'text')
    .addColumn('extracted_text', 'text')
    .addColumn('text_folded', 'text')
    .addColumn('phash', 'text')
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorites_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sad_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dislikes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wow_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('published_at', timestamp)
    .execute();
  // Files are served and moderated by filename (approve/reject take it as the key).
  await db.schema
    .createIndex('images_filename_unique')
    .on('images')
    .column('filename')
    .unique()
    .execute();
  // The home gallery: approved images, newest first, keyset-paginated on (published_at, id).
  // Partial, so pending and rejected rows never cost the public lists anything.
  await db.schema
    .createIndex('images_public_newest')
    .on('images')
    .columns(['published_at desc', 'id_image desc'])
    .where(sql.ref('status'), '=', 'approved')
    .execute();
  // Category pages and the per-category carousels of the home page.
  await db.schema
    .createIndex('images_public_by_category')
    .on('images')
    .columns(['id_categoria', 'published_at desc', 'id_image desc'])
    .where(sql.ref('status'), '=', 'approved')
    .execute();
  // Public profile galleries ('Immagini' tab) and the uploader's approved count.
  await db.schema
    .createIndex('images_public_by_user')
    .on('images')
    .columns(['id_utente', 'published_at desc', 'id_image desc'])
    .where(sql.ref('status'), '=', 'approved')
    .execute();
  // The uploader's own images of every status ('Carica' tab), newest upload first; also serves
  // the erasure of a user's images.
  await db.schema
    .createIndex('images_by_user_all')
    .on('images')
    .columns(['id_utente', 'created_at desc'])
    .execute();
  // The moderation queue (pending, oldest first) and admin filters by status.
  await db.schema
    .createIndex('images_by_status')
    .on('images')
    .columns(['status', 'created_at'])
    .execute();
  // Near-duplicate lookup of a new image against approved ones by exact perceptual hash.
  await db.schema.createIndex('images_by_phash').on('images').column('phash').execute();

  await db.schema
    .createTable('image_tags')
    .addColumn('id_image', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    .addColumn('id_tag', 'integer', (c) =>
      c.notNull().references('tags.id_tag').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('image_tags_pk', ['id_image', 'id_tag'])
    .execute();
  // Tag pages go from a tag to its images (the primary key serves image -> tags).
  await db.schema
    .createIndex('image_tags_by_tag')
    .on('image_tags')
    .columns(['id_tag', 'id_image'])
    .execute();

  await db.schema
    .createTable('interactions')
    .addColumn('id_interazione', 'integer', idColumn)
    .addColumn('id_image', 'integer', (c) =>
      c.notNull().references('images.id_image').onDelete('cascade'),
    )
    .addColumn('id_utente', 'integer', (c) => c.references('users.id_utente').onDelete('cascade'))
    .addColumn('id_tipo_interazione', 'integer', (c) =>
      c.notNull().check(sql`id_tipo_interazione BETWEEN 1 AND 7`),
    )
    .addColumn('viewer_key', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // Like, favourite, sad, dislike and wow are toggles: one row per user, image and type at most,
  // enforced by the database so concurrent toggles can never leave a double row (D5).
  await db.schema
    .createIndex('interactions_toggle_unique')
    .on('interactions')
    .columns(['id_image', 'id_utente', 'id_tipo_interazione'])
    .unique()
    .where(sql.ref('id_tipo_interazione'), 'in', [1, 2, 4, 5, 6])
    .execute();
  // A user's liked images ('Mi piace' tab), newest like first; also each user's interaction
  // totals for the admin scores.
  await db.schema
    .createIndex('interactions_by_user')
    .on('interactions')
    .columns(['id_utente', 'id_tipo_interazione', 'created_at desc'])
    .execute();
  // The once-per-24-hours view rule looks for the viewer's latest view of the image.
  await db.schema
    .createIndex('interactions_views_by_viewer')
    .on('interactions')
    .columns(['id_image', 'viewer_key', 'created_at'])
    .where(sql.ref('id_tipo_interazione'), '=', 7)
    .execute();
  // Trending (last 7 days) and the dashboard's per-day charts scan a recent time window.
  await db.schema
    .createIndex('interactions_by_time')
    .on('interactions')
    .columns(['created_at', 'id_image'])
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'integer', (c) =>
      c.notNull().references('users.id_utente').onDelete('cascade'),
    )
    .addColumn('followed_id', 'integer', (c) =>
      c.notNull().references('users.id_utente').onDelete('cascade'),
    )
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followed_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followed_id`)
    .execute();
  // Follower counts of a profile (the primary key serves "whom do I follow").
  await db.schema
    .createIndex('follows_by_followed')
    .on('follows')
    .columns(['followed_id', 'follower_id'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id_job', 'integer', idColumn)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status IN ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', timestamp, (c) => c.notNull())
    .addColumn('locked_at', timestamp)
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // Workers claim the oldest due job of a status; also finds running jobs whose lock went stale.
  await db.schema
    .createIndex('jobs_due')
    .on('jobs')
    .columns(['status', 'run_at', 'id_job'])
    .execute();

  await db.schema
    .createTable('duplicate_dismissals')
    .addColumn('id_dismissal', 'integer', idColumn)
    .addColumn('image_ids', 'text', (c) => c.notNull())
    .addColumn('dismissed_by', 'integer', (c) =>
      c.references('users.id_utente').onDelete('set null'),
    )
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  // A dismissed group is recognised by its exact set of image ids (D7).
  await db.schema
    .createIndex('duplicate_dismissals_ids_unique')
    .on('duplicate_dismissals')
    .column('image_ids')
    .unique()
    .execute();

  // Category 1 must always exist (D4, D6): uploads land in it and deleted categories move to it.
  // Inserted without an explicit id so the engine's own sequence hands out 1 and stays in step.
  const createdAt = new Date().toISOString();
  await db
    .insertInto('categories')
    .values({ nome: 'Non categorizzata', nome_key: 'non categorizzata', created_at: createdAt })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'duplicate_dismissals',
    'jobs',
    'settings',
    'follows',
    'interactions',
    'image_tags',
    'images',
    'tags',
    'categories',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
