import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImagePage } from '../../lib/types.js';

/**
 * Infinite pages of a gallery endpoint (`/images`, `/categories/{id}/images`, ...). A further
 * page loads until the loaded count reaches the total (SPEC §4), or while `hasMore` is true.
 */
export function useImagePages(path: string, pageSize: number, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['images', path, pageSize],
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const separator = path.includes('?') ? '&' : '?';
      return api<ImagePage>(`${path}${separator}skip=${pageParam}&limit=${pageSize}`, { signal });
    },
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.images.length, 0);
      if (last.hasMore !== undefined) return last.hasMore ? loaded : undefined;
      return last.total !== undefined && loaded < last.total && last.images.length > 0
        ? loaded
        : undefined;
    },
  });
}
