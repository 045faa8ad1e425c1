import { MAX_TAG_LENGTH, MAX_TAGS, tagTooLong, tidyTagName } from '../tags/tagName.js';

/**
 * The tag names as typed into the edit dialog, tidied the way the server stores them
 * ('#Roma ' is 'Roma'); blanks dropped, and 'roma' after 'Roma' is the same tag, so it goes.
 */
export function tidyTagNames(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const value of values) {
    const name = tidyTagName(value);
    const key = name.toLocaleLowerCase('it-IT');
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}

/** What is wrong with a set of tags, in Italian, or null when the server will take it. */
export function tagsProblem(names: readonly string[]): string | null {
  if (names.length > MAX_TAGS) return `Puoi assegnare al massimo ${MAX_TAGS} tag.`;
  if (names.some(tagTooLong)) {
    return `Ogni tag può contenere al massimo ${MAX_TAG_LENGTH} caratteri.`;
  }
  return null;
}
