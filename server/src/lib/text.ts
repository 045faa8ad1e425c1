/**
 * The key under which names are unique "case-insensitively" (D6). Done in JavaScript rather
 * than with SQL lower(), which on SQLite folds ASCII only: 'Città' and 'CITTÀ' must collide on
 * both engines alike.
 */
export function foldKey(value: string): string {
  return value.normalize('NFC').toLocaleLowerCase('it-IT');
}
