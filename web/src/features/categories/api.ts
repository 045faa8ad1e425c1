import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { Category } from '../../lib/types.js';
import {
  browserStorage,
  CATEGORIES_MAX_AGE_MS,
  readCachedCategories,
  writeCachedCategories,
} from './categoriesCache.js';

/** GET /categories, remembered in browser storage for the next hour (SPEC §7). */
export async function fetchCategories(signal?: AbortSignal): Promise<Category[]> {
  const categories = await api<Category[]>('/categories', { signal });
  writeCachedCategories(browserStorage(), categories, Date.now());
  return categories;
}

export const categoriesQuery = queryOptions({
  queryKey: ['categories'],
  queryFn: ({ signal }) => fetchCategories(signal),
  // A fresh stored list is the starting data, dated when it was fetched: TanStack asks the
  // server again only once that hour is over. Should the entry age out between the two reads,
  // the date 0 makes the list stale at once rather than fresh for another hour.
  initialData: () => readCachedCategories(browserStorage(), Date.now())?.categories,
  initialDataUpdatedAt: () => readCachedCategories(browserStorage(), Date.now())?.savedAt ?? 0,
  staleTime: CATEGORIES_MAX_AGE_MS,
  gcTime: CATEGORIES_MAX_AGE_MS,
});

export const popularCategoriesQuery = (limit: number) =>
  queryOptions({
    queryKey: ['categories', 'popular', limit],
    queryFn: () => api<Category[]>(`/categories/popular?limit=${limit}`),
    staleTime: CATEGORIES_MAX_AGE_MS,
  });

export const useCategories = () => useQuery(categoriesQuery);
export const usePopularCategories = (limit: number) => useQuery(popularCategoriesQuery(limit));
