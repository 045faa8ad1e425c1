/** The apostrophes people type or paste: typographic (a phone's), modifier letter, accents. */
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/gu;

/**
 * Lower case without accents, so 'liberta' finds 'Libertà': the site's search ignores accents
 * (server/src/modules/search/search.text.ts), and the filters on the client must not be stricter.
 * Lower-cased before the marks go, so that the combining dot 'İ' lower-cases into goes too.
 * Every apostrophe becomes the straight one: a phone types "l’amore" for "l'amore".
 */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .toLocaleLowerCase('it-IT')
    .replace(/\p{M}/gu, '')
    .replace(APOSTROPHES, "'");
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
