import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImageDetail } from '../../lib/types.js';

/** GET /images/{id}: the image with its counts and the viewer's own reactions (D5). */
export function fetchImage(id: number, signal?: AbortSignal): Promise<ImageDetail> {
  return api<ImageDetail>(`/images/${id}`, { signal });
}

/** Every picture's page kept, whoever viewed it: what a change shown on all of them refreshes. */
export const IMAGE_QUERIES = ['image'] as const;

/**
 * Keyed by viewer too: the answer carries the viewer's own reactions, so what one account saw
 * must never be shown to the next one on the same browser.
 */
export const imageQueryKey = (id: number, viewerId: number | null) =>
  [...IMAGE_QUERIES, id, viewerId] as const;

export const imageQuery = (id: number, viewerId: number | null) =>
  queryOptions({
    queryKey: imageQueryKey(id, viewerId),
    queryFn: ({ signal }) => fetchImage(id, signal),
  });

export const useImage = (id: number, viewerId: number | null, enabled = true) =>
  useQuery({ ...imageQuery(id, viewerId), enabled });
