import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { DuplicateGroup } from '../../types.js';
import { duplicateKeys } from './keys.js';

/** GET /admin/duplicate-images: the groups, largest first (D7). */
export async function fetchDuplicateGroups(signal?: AbortSignal): Promise<DuplicateGroup[]> {
  return expectList<DuplicateGroup>(await api<unknown>('/admin/duplicate-images', { signal }));
}

export const duplicateGroupsQuery = queryOptions({
  queryKey: duplicateKeys.groups,
  queryFn: ({ signal }) => fetchDuplicateGroups(signal),
});

export const useDuplicateGroups = () => useQuery(duplicateGroupsQuery);
