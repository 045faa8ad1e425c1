import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { Tag } from '../../lib/types.js';

/** GET /tags/{id}: the name of one tag for its page (D11, D13). */
export const tagQuery = (id: number) =>
  queryOptions({
    queryKey: ['tags', 'one', id],
    queryFn: ({ signal }) => api<Tag>(`/tags/${id}`, { signal }),
  });

export const useTag = (id: number, enabled = true) => useQuery({ ...tagQuery(id), enabled });
