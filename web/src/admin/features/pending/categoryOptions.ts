import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminCategory } from '../../types.js';
import { pendingKeys } from './keys.js';

/** GET /admin/categories: every category, for the detail dialog's category select. */
export async function fetchCategoryOptions(signal?: AbortSignal): Promise<AdminCategory[]> {
  return expectList<AdminCategory>(await api<unknown>('/admin/categories', { signal }));
}

export const categoryOptionsQuery = queryOptions({
  queryKey: pendingKeys.categories,
  queryFn: ({ signal }) => fetchCategoryOptions(signal),
});

export const useCategoryOptions = (enabled: boolean) =>
  useQuery({ ...categoryOptionsQuery, enabled });
