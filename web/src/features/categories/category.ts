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

/**
 * The id of the category whose page `pathname` is, as written in it, or undefined: the strip
 * and the drawer mark that category's link by hand, not by fifty NavLinks each matching the
 * location (goal 8's blocking time).
 */
export function currentCategoryId(pathname: string): string | undefined {
  return /^\/category\/(\d+)$/.exec(pathname)?.[1];
}
