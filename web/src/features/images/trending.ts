import type { GalleryImage } from '../../lib/types.js';

/** SPEC §9: the home carousel keeps 20 trending images. */
export const TRENDING_SIZE = 20;

type Scored = Pick<GalleryImage, 'filename' | 'likes_count' | 'views_count' | 'shares_count'>;

/** SPEC §7: likes + 0.1 × views + 2 × shares (shares are downloads, D5). */
export function trendingScore(image: Scored): number {
  return image.likes_count + 0.1 * image.views_count + 2 * image.shares_count;
}

/**
 * SPEC §7: only images with a file name are kept, ordered by score, highest first, and the
 * first 20 shown. The sort is stable, so equal scores keep the server's order (D6 ranks by the
 * last 7 days, which breaks those ties).
 */
export function rankTrending<T extends Scored>(images: readonly T[], size = TRENDING_SIZE): T[] {
  return images
    .filter((image) => typeof image.filename === 'string' && image.filename.trim() !== '')
    .map((image, index) => ({ image, index, score: trendingScore(image) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, size)
    .map(({ image }) => image);
}
