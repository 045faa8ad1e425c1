import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImagePage } from '../../lib/types.js';
import { nextPageParam, pageParamQuery } from './paging.js';

/**
 * Infinite pages of a gallery endpoint (`/images`, `/categories/{id}/images`, ...). Galleries
 * continue from the `next_cursor` of the last page until it is null; lists without cursors
 * (search, related) load until the loaded count reaches the total (SPEC §4).
 */
export function useImagePages(path: string, pageSize: number, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['images', path, pageSize],
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const separator = path.includes('?') ? '&' : '?';
      return api<ImagePage>(`${path}${separator}${pageParamQuery(pageParam)}&limit=${pageSize}`, {
        signal,
      });
    },
    getNextPageParam: nextPageParam,
  });
}
