import { countPhrase, formatDateTime, twoDecimals } from '../../../lib/format.js';
import type { DuplicateGroup, DuplicateImage } from '../../types.js';

/**
 * The groups without one image (SPEC §4): it leaves its group, and a group left with fewer than
 * two images is no group of duplicates any more and disappears. Counts follow the images.
 */
export function withoutImage(groups: readonly DuplicateGroup[], idImage: number): DuplicateGroup[] {
  return groups.flatMap((group) => {
    const images = group.images.filter((image) => image.id_image !== idImage);
    if (images.length === group.images.length) return [group];
    return images.length < 2 ? [] : [{ ...group, images, count: images.length }];
  });
}

/** 'Gruppo 2 - 3 immagini duplicate'. */
export function groupHeading(position: number, group: DuplicateGroup): string {
  return `Gruppo ${position} - ${group.images.length} immagini duplicate`;
}

/** SPEC §2: the size in KB, or 'Dimensione non disponibile' when unknown. */
export function sizeInKb(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) {
    return 'Dimensione non disponibile';
  }
  return `${twoDecimals(bytes / 1024)} KB`;
}

/**
 * The date a card shows: 'Pubblicata il' (SPEC §2) for a public image; one still waiting for
 * review was never published, so its upload, 'Caricata il', as its own page says it.
 */
export function cardDate(image: Pick<DuplicateImage, 'status' | 'created_at' | 'published_at'>) {
  return image.status === 'approved' && image.published_at !== null
    ? `Pubblicata il: ${formatDateTime(image.published_at)}`
    : `Caricata il: ${formatDateTime(image.created_at)}`;
}

/** The text a group is headed with, or a dash when none was read. */
export function groupText(group: DuplicateGroup): string {
  const text = group.testo_estratto.trim();
  return text === '' ? '—' : text;
}

/** Said while photos are still being read, instead of an empty list that would mislead. */
export const ANALYSIS_IN_PROGRESS = 'Analisi delle immagini in corso';

/** 'ancora 3 immagini da analizzare'. */
export function imagesLeftToAnalyse(count: number): string {
  return `ancora ${countPhrase(count, 'immagine', 'immagini')} da analizzare`;
}
