import type { Kysely } from 'kysely';
import { schemaDialect } from './portable.js';

/*
 * Links for choosing a new password when the old one is forgotten (modules/auth/
 * password-reset.service.ts). A row holds the SHA-256 of the link's secret, never the secret,
 * so a copy of the database opens no account; and the account's state when the link was asked
 * for (its token version and e-mail key): a password set or an address changed since makes the
 * link void without any code having to find and delete it. One row per account at most: a new
 * request replaces the old link. Rows go with their account (ON DELETE CASCADE).
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = schemaDialect(db);
  await db.schema
    .createTable('password_resets')
    .addColumn('id_utente', 'integer', (c) =>
      c.primaryKey().references('users.id_utente').onDelete('cascade'),
    )
    // The link's lookup; unique, so two accounts can never share one.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_version', 'integer', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
}
