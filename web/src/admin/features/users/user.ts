import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { AdminUserDetail } from '../../types.js';
import { userKeys } from './keys.js';

/** The fields the user form needs; an answer without them is a shape error (SPEC §5). */
const DETAIL_FIELDS = ['id_utente', 'username', 'email', 'is_active', 'is_superuser'];

/** GET /admin/users/{id}: the account itself (D13). */
export async function fetchUser(id: number, signal?: AbortSignal): Promise<AdminUserDetail> {
  const value = await api<unknown>(`/admin/users/${id}`, { signal });
  return expectObject<AdminUserDetail>(value, ...DETAIL_FIELDS);
}

export const userQuery = (id: number) =>
  queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => fetchUser(id, signal),
  });

/**
 * Disabled (and never loading) while there is no id to load, as on /admin/users/new. Asked for
 * again on every mount: the form copies what it gets into its fields once, so a copy kept from
 * an earlier visit (before an edit in the list's dialog, or by another administrator) would be
 * the one saved back.
 */
export const useUser = (id: number | null) =>
  useQuery({ ...userQuery(id ?? 0), enabled: id !== null, refetchOnMount: 'always' });
