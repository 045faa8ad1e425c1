import { filterByName } from '../../../lib/fold.js';
import type { AdminTag } from '../../types.js';

export interface TagSummary {
  total: number;
  /** The tag on most images; null with no tags. */
  mostUsed: { nome: string; image_count: number } | null;
  /** Images per tag, rounded to a whole number; 0 with no tags (SPEC §2). */
  average: number;
}

/** The three figures over the 'Gestione Tag' grid. */
export function tagSummary(tags: readonly Pick<AdminTag, 'nome' | 'image_count'>[]): TagSummary {
  let mostUsed: TagSummary['mostUsed'] = null;
  let sum = 0;
  for (const tag of tags) {
    sum += tag.image_count;
    if (mostUsed === null || tag.image_count > mostUsed.image_count) {
      mostUsed = { nome: tag.nome, image_count: tag.image_count };
    }
  }
  return {
    total: tags.length,
    mostUsed,
    average: tags.length === 0 ? 0 : Math.round(sum / tags.length),
  };
}

/** The tags whose name holds `needle`, ignoring case and accents as /tags does. */
export function filterTagsByName<T extends Pick<AdminTag, 'nome'>>(
  tags: readonly T[],
  needle: string,
): readonly T[] {
  return filterByName(tags, needle);
}
