import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminImage } from '../../types.js';

export const ADMIN_IMAGES_KEY = ['admin', 'images'] as const;

/** GET /admin/images: images of every status, newest first; `search` narrows on the server. */
export async function fetchAdminImages(
  search: string,
  signal?: AbortSignal,
): Promise<AdminImage[]> {
  const term = search.trim();
  const query = term === '' ? '' : `?search=${encodeURIComponent(term)}`;
  return expectList<AdminImage>(await api<unknown>(`/admin/images${query}`, { signal }));
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
