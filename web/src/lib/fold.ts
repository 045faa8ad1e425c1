/**
 * Lower case without accents, so 'liberta' finds 'Libertà': the site's search ignores accents
 * (server/src/modules/search/search.text.ts), and the filters on the client must not be stricter.
 * Lower-cased before the marks go, so that the combining dot 'İ' lower-cases into goes too.
 */
export function fold(text: string): string {
  return text.normalize('NFD').toLocaleLowerCase('it-IT').replace(/\p{M}/gu, '');
}

/** The items whose name holds `needle`, ignoring case and accents; all of them for a blank one. */
export function filterByName<T extends { nome: string }>(
  items: readonly T[],
  needle: string,
): readonly T[] {
  const wanted = fold(needle.trim());
  if (wanted === '') return items;
  return items.filter((item) => fold(item.nome).includes(wanted));
}
