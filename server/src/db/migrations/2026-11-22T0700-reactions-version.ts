import type { Kysely } from 'kysely';

/*
 * A number raised in the same transaction as each change to a user's toggles (like,
 * favourite, sad, dislike, wow). The servers keep each active user's toggles in memory
 * (modules/images/own-toggles.ts) and trust them only while this number, read with the user's
 * row at every authenticated request, is the one they were read under: exact invalidation,
 * across processes, without a query per page (issue 8, goal 1, logged-in galleries).
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('reactions_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('reactions_version').execute();
}
