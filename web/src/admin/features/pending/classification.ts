import type { ModerationHints, PendingImage } from '../../types.js';
import { distinctTagNames, MAX_TAGS } from '../tags/tagName.js';
import { fold } from '../../../lib/fold.js';

/** What the administrator may change before approving: the category and the tags (by name). */
export interface Classification {
  id_categoria: number;
  tags: string[];
}

/**
 * Tag names tidied as the server stores them, without blanks and without repeats that differ
 * only in case or accents.
 */
export function cleanTags(tags: readonly string[]): string[] {
  return distinctTagNames(tags, fold);
}

/** `tags` with `extra` added at the end, within the limit; names already there stay once. */
export function addTags(tags: readonly string[], extra: readonly string[]): string[] {
  return cleanTags([...tags, ...extra]).slice(0, Math.max(MAX_TAGS, tags.length));
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const left = cleanTags(a).map(fold).sort();
  const right = cleanTags(b).map(fold).sort();
  return left.length === right.length && left.every((tag, index) => tag === right[index]);
}

/**
 * What to send with the approval: null when the administrator left category and tags as the
 * uploader sent them, so an untouched approval is the bodiless call SPEC §7 describes.
 */
export function classificationChange(
  image: PendingImage,
  categoryId: number,
  tags: readonly string[],
): Classification | null {
  if (categoryId === image.category.id_categoria && sameTags(tags, image.tags)) return null;
  return { id_categoria: categoryId, tags: cleanTags(tags) };
}

/** Whether the hints hold anything the current choice does not already have. */
export function suggestionsPending(
  hints: ModerationHints,
  categoryId: number,
  tags: readonly string[],
): boolean {
  const { suggested_category: category, suggested_tags: suggested } = hints;
  const chosen = new Set(tags.map(fold));
  return (
    (category !== null && category.id_categoria !== categoryId) ||
    suggested.some((tag) => !chosen.has(fold(tag.nome)))
  );
}
