import { sql, type RawBuilder } from 'kysely';
import { accentlessLower } from '../lib/text.js';

/*
 * The back-office's searches (images, categories, tags): a column holds the typed text
 * somewhere, case, accents and the kind of apostrophe aside, so 'perche' finds 'Perché' and
 * "l'amore" finds 'L’amore' as the web app's own filters do (web/src/lib/fold.ts). Both
 * engines' lower() may fold ASCII only ('perché' would miss 'PERCHÉ'): SQLite's always,
 * PostgreSQL's under the C locale. accentless_lower folds by Unicode on both and drops the
 * accents (db/database.ts, migrations 2026-11-28T1500 and 2026-12-03T0800); its JavaScript
 * twin folds the typed text.
 */

/**
 * The apostrophes people type or paste besides the straight one: typographic (a phone's),
 * modifier letter, grave and acute accents. Each is read as the straight one on both sides.
 */
const OTHER_APOSTROPHES = ['\u2018', '\u2019', '\u02bc', '\u0060', '\u00b4'];
const OTHER_APOSTROPHE = new RegExp(`[${OTHER_APOSTROPHES.join('')}]`, 'gu');

/** `value` with every other apostrophe made straight, in SQL (replace() is on both engines). */
function straightApostrophes(value: RawBuilder<string>): RawBuilder<string> {
  return OTHER_APOSTROPHES.reduce(
    (folded, apostrophe) => sql<string>`replace(${folded}, ${apostrophe}, '''')`,
    value,
  );
}

/**
 * The condition "the column contains `term`" for each column it is given, or undefined for a
 * blank term (no filter). LIKE's metacharacters in the term are matched as themselves.
 */
export function accentlessContains(
  term: string,
): ((column: string) => RawBuilder<boolean>) | undefined {
  const cleaned = accentlessLower(term.normalize('NFC').trim());
  if (cleaned === '') return undefined;
  const pattern = `%${cleaned.replace(/[\\%_]/g, (c) => `\\${c}`).replace(OTHER_APOSTROPHE, "'")}%`;
  return (column) =>
    sql<boolean>`${straightApostrophes(sql<string>`accentless_lower(${sql.ref(column)})`)} LIKE ${pattern} ESCAPE '\\'`;
}
