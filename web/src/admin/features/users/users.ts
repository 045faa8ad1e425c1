import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectListIn, InvalidShapeError } from '../../shape.js';
import type { AdminUser } from '../../types.js';
import { userKeys } from './keys.js';

export interface AdminUserList {
  users: AdminUser[];
  total: number;
}

/**
 * GET /admin/users -> {users, total}. Anything else is a shape error (SPEC §5), rows without a
 * numeric id included: the grid keys its rows by id and could not show them.
 */
export function parseUserList(value: unknown): AdminUserList {
  const list = expectListIn<{ users: unknown[]; total: unknown }>(value, 'users');
  const rowsHaveIds = list.users.every(
    (user) =>
      typeof user === 'object' &&
      user !== null &&
      typeof (user as { id_utente?: unknown }).id_utente === 'number',
  );
  if (typeof list.total !== 'number' || !rowsHaveIds) throw new InvalidShapeError();
  return list as AdminUserList;
}

export async function fetchUsers(signal?: AbortSignal): Promise<AdminUserList> {
  return parseUserList(await api<unknown>('/admin/users', { signal }));
}

export const usersQuery = () =>
  queryOptions({
    queryKey: userKeys.list,
    queryFn: ({ signal }) => fetchUsers(signal),
  });

export const useUsers = () => useQuery(usersQuery());
