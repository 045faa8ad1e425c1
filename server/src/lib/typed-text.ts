/*
 * Text people type (titles, descriptions, tag names, a rejection's reason) as it is stored:
 * composed (NFC), without the invisible characters that hide or reorder what a reader sees,
 * and cut to its length between whole characters.
 */

const GRAPHEMES = new Intl.Segmenter('it', { granularity: 'grapheme' });

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
 * Control and format characters: a right-to-left override makes 'gpj.exe' read 'exe.jpg',
 * zero-width ones hide inside words. The joiners stay: emoji sequences and Persian or Indic
 * words are spelled with them; so do line breaks and tabs, which the spaces' rule turns into
 * a space rather than gluing two words.
 */
const HIDDEN = /(?![\s\u200c\u200d])[\p{Cc}\p{Cf}]/gu;
/** The same, keeping line breaks and tabs for text of several lines. */
const HIDDEN_IN_PARAGRAPHS = /(?![\n\t\u200c\u200d])[\p{Cc}\p{Cf}]/gu;

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
