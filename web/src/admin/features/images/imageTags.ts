import {
  distinctTagNames,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  nameKey,
  tagTooLong,
} from '../tags/tagName.js';

/**
 * The tag names as typed into the edit dialog, tidied the way the server stores them
 * ('#Roma ' is 'Roma'); blanks dropped, and 'roma' after 'Roma' is the same tag, so it goes, as
 * the server would merge them (nameKey): the count against the limit is the server's.
 */
export function tidyTagNames(values: readonly string[]): string[] {
  return distinctTagNames(values, nameKey);
}

/** What is wrong with a set of tags, in Italian, or null when the server will take it. */
export function tagsProblem(names: readonly string[]): string | null {
  if (names.length > MAX_TAGS) return `Puoi assegnare al massimo ${MAX_TAGS} tag.`;
  if (names.some(tagTooLong)) {
    return `Ogni tag può contenere al massimo ${MAX_TAG_LENGTH} caratteri.`;
  }
  return null;
}
