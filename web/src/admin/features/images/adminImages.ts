import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiWithHeaders } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminImage } from '../../types.js';

export const ADMIN_IMAGES_KEY = ['admin', 'images'] as const;

/** What the image list holds, and the server's cap when more images match than it sent. */
export interface AdminImageList {
  rows: AdminImage[];
  /** The number of newest images sent when more match (the server's cap), else null. */
  cappedAt: number | null;
}

/** The cap of x-list-truncated: a positive count, or null ('0', missing, unreadable). */
export function listCap(header: string | null): number | null {
  const value = Number(header ?? '');
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** GET /admin/images: images of every status, newest first; `search` narrows on the server. */
export async function fetchAdminImages(
  search: string,
  signal?: AbortSignal,
): Promise<AdminImageList> {
  const term = search.trim();
  const query = term === '' ? '' : `?search=${encodeURIComponent(term)}`;
  const { body, headers } = await apiWithHeaders(`/admin/images${query}`, { signal });
  return {
    rows: expectList<AdminImage>(body),
    cappedAt: listCap(headers.get('x-list-truncated')),
  };
}

export const adminImagesQuery = (search: string) =>
  queryOptions({
    queryKey: [...ADMIN_IMAGES_KEY, 'list', search.trim()],
    queryFn: ({ signal }) => fetchAdminImages(search, signal),
    // A new search keeps the current rows on screen until its own answer arrives.
    placeholderData: keepPreviousData,
  });

export const useAdminImages = (search: string) => useQuery(adminImagesQuery(search));

/**
 * After an image is edited or deleted: its title, category and tags show on every admin screen
 * (lists, counts, dashboard) and on the public site, so all of those reload.
 */
export async function refreshAfterImageChange(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['admin'], ['images'], ['categories'], ['tags']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
