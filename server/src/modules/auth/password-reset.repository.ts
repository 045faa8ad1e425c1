import type { Executor } from '../../db/executor.js';
import type { PasswordResetsTable } from '../../db/tables.js';

/**
 * The account's new link, replacing its earlier one, unless that one was asked for after
 * `resendAfter`: then nothing changes and false is answered, so requests in a burst send one
 * e-mail. One statement (an upsert whose update is conditional): two requests at once on
 * PostgreSQL cannot both pass a check made before their writes.
 */
export async function replaceReset(
  db: Executor,
  reset: PasswordResetsTable,
  resendAfter: string,
): Promise<boolean> {
  const row = await db
    .insertInto('password_resets')
    .values(reset)
    .onConflict((oc) =>
      oc
        .column('id_utente')
        .doUpdateSet({
          token_hash: reset.token_hash,
          token_version: reset.token_version,
          email_key: reset.email_key,
          created_at: reset.created_at,
          expires_at: reset.expires_at,
        })
        .where('password_resets.created_at', '<=', resendAfter),
    )
    .returning('id_utente')
    .executeTakeFirst();
  return row !== undefined;
}

export function findReset(db: Executor, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Takes the link for its one use: deleted and answered, or undefined when it is gone (used by a
 * request that came first, or replaced meanwhile).
 */
export function takeReset(db: Executor, tokenHash: string) {
  return db
    .deleteFrom('password_resets')
    .where('token_hash', '=', tokenHash)
    .returningAll()
    .executeTakeFirst();
}
