import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { AdminTag } from '../../types.js';
import { pendingKeys } from './keys.js';

/** GET /admin/tags: the known tags, offered while typing in the detail dialog. */
export async function fetchTagOptions(signal?: AbortSignal): Promise<AdminTag[]> {
  return expectList<AdminTag>(await api<unknown>('/admin/tags', { signal }));
}

export const tagOptionsQuery = queryOptions({
  queryKey: pendingKeys.tags,
  queryFn: ({ signal }) => fetchTagOptions(signal),
});

export const useTagOptions = (enabled: boolean) => useQuery({ ...tagOptionsQuery, enabled });
