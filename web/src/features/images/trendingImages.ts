import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { GalleryImage } from '../../lib/types.js';
import { rankTrending } from './trending.js';

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
 * GET /trending-images: the server picks them by the last 7 days (D6); the client drops images
 * without a file, orders them by the score of SPEC §7 and keeps the first 20.
 */
export async function fetchTrending(signal?: AbortSignal): Promise<Trending> {
  return toTrending(await api<unknown>('/trending-images', { signal }));
}

/** The answer of GET /trending-images as the home page shows it; throws what SPEC §8 says. */
export function toTrending(data: unknown): Trending {
  if (data === undefined || data === null)
    throw new TrendingProblem('Nessun dato ricevuto dal server');
  const images = (data as { images?: unknown }).images;
  if (!Array.isArray(images)) throw new TrendingProblem('Formato dati non valido');
  return { images: rankTrending(images as GalleryImage[]), received: images.length };
}

export const trendingQuery = queryOptions({
  queryKey: ['images', 'trending'],
  queryFn: ({ signal }) => fetchTrending(signal),
  // The server recomputes it at most once a minute.
  staleTime: 60_000,
});

export const useTrendingImages = () => useQuery(trendingQuery);
