import type { Kysely } from 'kysely';

/*
 * The keys under which usernames, e-mails and category and tag names are unique (D6) move from
 * lower case to full case folding (lib/text.ts foldKey): lower case alone kept 'σας' apart
 * from 'σασ' (the final sigma), 'straße' from 'strasse' and 'ı' from 'i', so two accounts or
 * two tags could differ only in that.
 *
 * Every key is computed again. A key whose new form another row already holds stays as it
 * was: both rows existed before this rule, neither may be lost, and the unique index must
 * hold. Such an account still logs in under its exact name (users.service findByUsername
 * also looks under the key as it was computed before).
 *
 * The two folds are copied here as they were on this date, so this migration gives the same
 * keys whatever foldKey becomes later.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

function fullFold(value: string): string {
  return value.normalize('NFC').toLowerCase().toUpperCase().toLowerCase().normalize('NFC');
}

function lowerFold(value: string): string {
  return value.normalize('NFC').toLocaleLowerCase('it-IT');
}

const PAGE = 1000;

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

async function refold(db: Kysely<any>, keyed: Keyed, fold: (value: string) => string) {
  let after = 0;
  for (;;) {
    const rows: Array<Record<string, string | number>> = await db
      .selectFrom(keyed.table)
      .select([keyed.id, ...keyed.keys.flatMap(({ key, source }) => [key, source])])
      .where(keyed.id, '>', after)
      .orderBy(keyed.id)
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      for (const { key, source } of keyed.keys) {
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
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return;
    after = Number(last[keyed.id]);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const keyed of KEYED) await refold(db, keyed, fullFold);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const keyed of KEYED) await refold(db, keyed, lowerFold);
}
