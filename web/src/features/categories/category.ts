import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { Category } from '../../lib/types.js';

/** GET /categories/{id}: the name and count of one category (D13). */
export const categoryQuery = (id: number) =>
  queryOptions({
    queryKey: ['categories', 'one', id],
    queryFn: ({ signal }) => api<Category>(`/categories/${id}`, { signal }),
  });

export const useCategory = (id: number, enabled = true) =>
  useQuery({ ...categoryQuery(id), enabled });
