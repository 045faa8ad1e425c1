import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  browserStorage,
  forgetCachedCategories,
} from '../../../features/categories/categoriesCache.js';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminCategory } from '../../types.js';

export const ADMIN_CATEGORIES_KEY = ['admin', 'categories'] as const;

/** GET /admin/categories: every category with its count of approved images. */
export async function fetchAdminCategories(signal?: AbortSignal): Promise<AdminCategory[]> {
  return expectList<AdminCategory>(await api<unknown>('/admin/categories', { signal }));
}

export const adminCategoriesQuery = queryOptions({
  queryKey: [...ADMIN_CATEGORIES_KEY, 'list'],
  queryFn: ({ signal }) => fetchAdminCategories(signal),
});

export const useAdminCategories = () => useQuery(adminCategoriesQuery);

/**
 * After a category is created, renamed or deleted: the name shows beside images on every admin
 * screen and on the public site (whose category list is otherwise kept for an hour), and a
 * deletion moves images to 'Non categorizzata', so all of those reload.
 */
export async function refreshAfterCategoryChange(queryClient: QueryClient): Promise<void> {
  // The list kept in browser storage too: a reload within the hour would bring the old one back.
  forgetCachedCategories(browserStorage());
  await Promise.all(
    [['admin'], ['categories'], ['images']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
