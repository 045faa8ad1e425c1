import { fold } from '../../../lib/fold.js';
import { categoryDisplayName } from '../../../lib/format.js';
import type { PendingImage } from '../../types.js';

export const UNKNOWN_UPLOADER = 'Utente sconosciuto';
export const NO_CATEGORY = 'Nessuna categoria';

/** The uploader's name, or 'Utente sconosciuto' when the answer has none (SPEC §2). */
export function uploaderName(image: PendingImage): string {
  // Widened on purpose: an account erased meanwhile must not break the list.
  const user = image.user as PendingImage['user'] | null | undefined;
  const name = user?.username.trim() ?? '';
  return name === '' ? UNKNOWN_UPLOADER : name;
}

/** The category's stored name ('messaggi_amore'), or '' when the answer has none. */
function rawCategoryName(image: PendingImage): string {
  const category = image.category as PendingImage['category'] | null | undefined;
  return category?.name.trim() ?? '';
}

/** The category as people read it ('Amore'), or 'Nessuna categoria'. */
export function categoryName(image: PendingImage): string {
  const name = rawCategoryName(image);
  return name === '' ? NO_CATEGORY : categoryDisplayName(name);
}

/**
 * The client-side search of SPEC §2: every word typed must appear in the title, the uploader's
 * username, the category name or one of the tags, ignoring case and accents.
 */
export function filterPending(
  images: readonly PendingImage[],
  query: string,
): readonly PendingImage[] {
  const words = fold(query)
    .split(/\s+/u)
    .filter((word) => word !== '');
  if (words.length === 0) return images;
  return images.filter((image) => {
    const fields = [
      image.title ?? '',
      uploaderName(image),
      rawCategoryName(image),
      categoryName(image),
      ...image.tags,
    ].map(fold);
    return words.every((word) => fields.some((field) => field.includes(word)));
  });
}
