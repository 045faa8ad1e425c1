import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { Tag } from '../../lib/types.js';

/** GET /tags: the tags in use on approved images, by name, with their image counts. */
export const tagsQuery = queryOptions({
  queryKey: ['tags'],
  queryFn: ({ signal }) => api<Tag[]>('/tags', { signal }),
});

export const useTags = () => useQuery(tagsQuery);
