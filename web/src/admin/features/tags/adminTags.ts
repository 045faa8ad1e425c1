import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminTag } from '../../types.js';

export const ADMIN_TAGS_KEY = ['admin', 'tags'] as const;

/** GET /admin/tags: every tag, used or not, with its count of approved images. */
export async function fetchAdminTags(signal?: AbortSignal): Promise<AdminTag[]> {
  return expectList<AdminTag>(await api<unknown>('/admin/tags', { signal }));
}

export const adminTagsQuery = queryOptions({
  queryKey: [...ADMIN_TAGS_KEY, 'list'],
  queryFn: ({ signal }) => fetchAdminTags(signal),
});

export const useAdminTags = (enabled = true) => useQuery({ ...adminTagsQuery, enabled });

/**
 * After a tag is created, renamed or deleted: tags show beside images on every admin screen
 * and on the public site, so all of those reload.
 */
export async function refreshAfterTagChange(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['admin'], ['tags'], ['images']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
