/** D7: an image carries at most 10 tags, each at most 50 characters (the server's limits). */
export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 50;

/**
 * A tag name as the server stores it (taxonomy.service tidyTagName): spaces collapsed and
 * trimmed, a leading '#' dropped, so ' #Roma ' is 'Roma' and its '#' does not count.
 */
export function tidyTagName(value: string): string {
  return value
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/^#+\s*/u, '');
}

/**
 * The key under which the server keeps a name unique (server/src/lib/text.ts foldKey): case
 * folded in full ('STRASSE' and 'straße' alike: lower, upper, lower again) and the Turkish
 * dotted capital as a plain i ('İzmir' is 'izmir'); accents kept ('papà' is not 'papa').
 */
export function nameKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/i\u0307/gu, 'i')
    .normalize('NFC');
}

/** Past the limit, counted in characters (code points) as the server counts them. */
export function tagTooLong(name: string): boolean {
  return Array.from(name).length > MAX_TAG_LENGTH;
}

/**
 * Names as typed, tidied (tidyTagName), blanks dropped and each kept once by `keyOf`, the first
 * spelling winning: the edit dialog and the review dialog differ only in what counts as the same.
 */
export function distinctTagNames(
  values: readonly string[],
  keyOf: (name: string) => string,
): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const value of values) {
    const name = tidyTagName(value);
    const key = keyOf(name);
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}
