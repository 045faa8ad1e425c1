import type { Kysely } from 'kysely';

/*
 * The edit revision of images and users (2026-12-04T0300-edit-revisions) for categories and
 * tags: raised by every rename, sent back by the back-office's rename dialog, so a rename made
 * from a dialog opened before another administrator's rename is refused (409) instead of
 * silently undoing it.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['categories', 'tags']) {
    await db.schema
      .alterTable(table)
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['categories', 'tags']) {
    await db.schema.alterTable(table).dropColumn('revision').execute();
  }
}
