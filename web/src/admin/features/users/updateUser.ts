import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api.js';
import { getUser, saveUser } from '../../../lib/session.js';
import type { AdminUserDetail, AdminUserInput } from '../../types.js';
import { invalidateAfterUserChange } from './keys.js';

/** PUT /admin/users/{id} -> the account as saved; no password keeps the current one. */
export function updateUser(id: number, input: AdminUserInput): Promise<AdminUserDetail> {
  return api<AdminUserDetail>(`/admin/users/${id}`, { method: 'PUT', body: input });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: AdminUserInput }) => updateUser(id, input),
    onSuccess: (saved) => {
      // An administrator editing their own account: the side navigation shows their name.
      if (getUser()?.id_utente === saved.id_utente) saveUser(saved);
      return invalidateAfterUserChange(queryClient, 'update');
    },
    // A stale form (409): the list and the form's account load again, so that the next
    // opening shows what the other administrator saved.
    onError: (error) =>
      error instanceof ApiError && error.status === 409
        ? invalidateAfterUserChange(queryClient, 'update')
        : undefined,
  });
}
