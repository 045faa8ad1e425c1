import type { Kysely } from 'kysely';

/*
 * A number raised by every write that changes what the back-office's edit forms show: an
 * image's title, category and tags, an account's name, e-mail, flags and password. The forms
 * send back the number they were filled with, and an edit made from a form that someone else
 * has overtaken since is refused (409) instead of silently undoing their change: two
 * administrators with the same image or user open, one saving after the other.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['images', 'users']) {
    await db.schema
      .alterTable(table)
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['images', 'users']) {
    await db.schema.alterTable(table).dropColumn('revision').execute();
  }
}
