import { sql, type Kysely, type RawBuilder } from 'kysely';

/*
 * The keys under which usernames, e-mails and category and tag names are unique (D6) fold the
 * Turkish dotted capital 'İ' as 'i' (lib/text.ts foldKey): JavaScript lowers 'İ' to 'i' and a
 * combining dot above (U+0307), so 'İstanbul' was keyed 'i̇stanbul' and two tags, categories or
 * accounts could differ only in that dot, while the dotless 'ı' already met 'i'.
 *
 * Only the keys holding that dot are computed again. As in 2026-11-27T2200, a key whose new
 * form another row already holds stays as it was: both rows existed before this rule, neither
 * may be lost, and the unique index must hold. Such an account still logs in under its exact
 * name (users.service findUnderKeys also looks under the lower-case key, which is the one it
 * kept).
 *
 * The folds are copied here as they are on this date, so this migration gives the same keys
 * whatever foldKey becomes later.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

const DOT_ABOVE = '\u0307';

function fullFold(value: string): string {
  return value.normalize('NFC').toLowerCase().toUpperCase().toLowerCase().normalize('NFC');
}

function dottedIFold(value: string): string {
  return value
    .normalize('NFC')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/i\u0307/gu, 'i')
    .normalize('NFC');
}

interface Keyed {
  table: string;
  id: string;
  /** Each key column with the column it is computed from. */
  keys: ReadonlyArray<{ key: string; source: string }>;
}

const KEYED: readonly Keyed[] = [
  {
    table: 'users',
    id: 'id_utente',
    keys: [
      { key: 'username_key', source: 'username' },
      { key: 'email_key', source: 'email' },
    ],
  },
  { table: 'categories', id: 'id_categoria', keys: [{ key: 'nome_key', source: 'nome' }] },
  { table: 'tags', id: 'id_tag', keys: [{ key: 'nome_key', source: 'nome' }] },
];

/** Moves the keys of the rows `affected` picks to `fold`, unless another row holds the new key. */
async function refold(
  db: Kysely<any>,
  keyed: Keyed,
  fold: (value: string) => string,
  affected: (key: string, source: string) => RawBuilder<boolean>,
) {
  for (const { key, source } of keyed.keys) {
    const rows: Array<Record<string, string | number>> = await db
      .selectFrom(keyed.table)
      .select([keyed.id, key, source])
      .where(affected(key, source))
      .orderBy(keyed.id)
      .execute();
    for (const row of rows) {
      const folded = fold(String(row[source]));
      if (folded === row[key]) continue;
      const holder = await db
        .selectFrom(keyed.table)
        .select(keyed.id)
        .where(key, '=', folded)
        .executeTakeFirst();
      if (holder !== undefined) continue;
      await db
        .updateTable(keyed.table)
        .set({ [key]: folded })
        .where(keyed.id, '=', row[keyed.id])
        .execute();
    }
  }
}

// A key holding the dot (strpos and instr differ between the engines; LIKE is on both and,
// with no wildcard in the character, matches it exactly).
const keyHoldsTheDot = (key: string) => sql<boolean>`${sql.ref(key)} LIKE ${`%${DOT_ABOVE}%`}`;
// Going back: the names whose key would hold it under the older fold.
const sourceHoldsADottedI = (_key: string, source: string) =>
  sql<boolean>`${sql.ref(source)} LIKE ${'%İ%'} OR ${sql.ref(source)} LIKE ${`%i${DOT_ABOVE}%`}`;

/**
 * A password reset asked for before the move works after it: the link keeps the account's
 * e-mail key of its day, and the reset goes through only while the account's still equals it
 * (password-reset.service). A link whose key differs from its account's only in the dot
 * follows the account.
 */
async function resetLinksFollowTheirAccounts(db: Kysely<any>) {
  const links: Array<{ id: number; link: string; account: string }> = await db
    .selectFrom('password_resets as r')
    .innerJoin('users as u', 'u.id_utente', 'r.id_utente')
    .select(['r.id_utente as id', 'r.email_key as link', 'u.email_key as account'])
    .execute();
  for (const { id, link, account } of links) {
    if (link === account || dottedIFold(link) !== dottedIFold(account)) continue;
    await db
      .updateTable('password_resets')
      .set({ email_key: account })
      .where('id_utente', '=', id)
      .execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const keyed of KEYED) await refold(db, keyed, dottedIFold, keyHoldsTheDot);
  await resetLinksFollowTheirAccounts(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const keyed of KEYED) await refold(db, keyed, fullFold, sourceHoldsADottedI);
  await resetLinksFollowTheirAccounts(db);
}
