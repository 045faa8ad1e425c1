import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { GalleryImage } from '../../lib/types.js';

/** SPEC §9: the home carousel keeps 20 trending images. */
export const TRENDING_SIZE = 20;

/** A trending answer that cannot be shown, with the message SPEC §8 gives for it. */
export class TrendingProblem extends Error {
  override readonly name = 'TrendingProblem';
}

export interface Trending {
  images: GalleryImage[];
  /** How many images the server sent before those without a file were dropped. */
  received: number;
}

/**
 * GET /trending-images: the server ranks them over the last 7 days (D6); the client keeps the
 * order, drops images without a file and keeps the first 20 (SPEC §7).
 */
export async function fetchTrending(signal?: AbortSignal): Promise<Trending> {
  const data = await api<unknown>('/trending-images', { signal });
  if (data === undefined || data === null)
    throw new TrendingProblem('Nessun dato ricevuto dal server');
  const images = (data as { images?: unknown }).images;
  if (!Array.isArray(images)) throw new TrendingProblem('Formato dati non valido');
  const shown = (images as GalleryImage[])
    .filter((image) => typeof image.filename === 'string' && image.filename !== '')
    .slice(0, TRENDING_SIZE);
  return { images: shown, received: images.length };
}

export const trendingQuery = queryOptions({
  queryKey: ['images', 'trending'],
  queryFn: ({ signal }) => fetchTrending(signal),
  // The server recomputes it at most once a minute.
  staleTime: 60_000,
});

export const useTrendingImages = () => useQuery(trendingQuery);
