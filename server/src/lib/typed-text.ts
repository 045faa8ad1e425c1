/*
 * Text people type (titles, descriptions, tag names, a rejection's reason) as it is stored:
 * composed (NFC), without the invisible characters that hide or reorder what a reader sees,
 * and cut to its length between whole characters.
 */

const GRAPHEMES = new Intl.Segmenter('it', { granularity: 'grapheme' });

/** Code points, as the request schemas and PostgreSQL count a text's length. */
export const lengthOf = (text: string): number => Array.from(text).length;

/**
 * At most `max` code points, as the request schemas and PostgreSQL count them, cut between
 * the characters a reader sees: a cut through an emoji's two halves (or a flag, or an emoji
 * with its skin tone) kept half of it, which each engine stored differently.
 */
export function cutBetweenCharacters(text: string, max: number): string {
  // UTF-16 units are never fewer than code points.
  if (text.length <= max) return text;
  let kept = '';
  let length = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    length += Array.from(segment).length;
    if (length > max) break;
    kept += segment;
  }
  return kept;
}

/**
 * What hides or reorders the text a reader sees: control characters, the direction overrides,
 * embeddings and isolates (U+202A–202E, U+2066–2069: 'gpj.exe' shown as 'exe.jpg'), the
 * zero-width space and word joiners (U+200B, U+2060–2064), the deprecated format controls
 * (U+206A–206F) and interlinear annotations (U+FFF9–FFFB). What text needs stays: the joiners
 * of emoji and of Persian or Indic words (U+200C, U+200D), the marks of direction (LRM, RLM,
 * ALM), the tag characters of the flags of England, Scotland and Wales, the soft hyphen. Line
 * breaks and tabs are left to the spaces' rule, which turns them into a space rather than
 * gluing two words; a byte order mark (U+FEFF) is a space to it too.
 */
const HIDDEN = /(?!\s)[\p{Cc}\u200b\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufff9-\ufffb]/gu;
/** The same, for text of several lines: its line breaks and tabs are kept as they are. */
const HIDDEN_IN_PARAGRAPHS =
  /(?![\n\t])[\p{Cc}\u200b\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/gu;

/** One line: spaces of any kind collapsed, trimmed, at most `max` code points. */
export function cleanLine(value: string, max: number): string {
  const line = value.normalize('NFC').replace(HIDDEN, '').replace(/\s+/gu, ' ').trim();
  return cutBetweenCharacters(line, max).trimEnd();
}

/** Text of several lines (a description, a reason): as `cleanLine`, its line breaks kept. */
export function cleanParagraphs(value: string, max: number): string {
  const text = value.normalize('NFC').replace(/\r\n?/gu, '\n').replace(HIDDEN_IN_PARAGRAPHS, '');
  return cutBetweenCharacters(text.trim(), max).trimEnd();
}
