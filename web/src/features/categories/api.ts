import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { Category } from '../../lib/types.js';

/** SPEC §7: the category list is kept for an hour. */
const HOUR = 60 * 60 * 1000;

export const categoriesQuery = queryOptions({
  queryKey: ['categories'],
  queryFn: () => api<Category[]>('/categories'),
  staleTime: HOUR,
  gcTime: HOUR,
});

export const popularCategoriesQuery = (limit: number) =>
  queryOptions({
    queryKey: ['categories', 'popular', limit],
    queryFn: () => api<Category[]>(`/categories/popular?limit=${limit}`),
    staleTime: HOUR,
  });

export const useCategories = () => useQuery(categoriesQuery);
export const usePopularCategories = (limit: number) => useQuery(popularCategoriesQuery(limit));
