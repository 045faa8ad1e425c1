import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import type { AdminUserDetail, AdminUserInput } from '../../types.js';
import { invalidateAfterUserChange } from './keys.js';

/** POST /admin/users -> the new account. */
export function createUser(input: AdminUserInput): Promise<AdminUserDetail> {
  return api<AdminUserDetail>('/admin/users', { method: 'POST', body: input });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => invalidateAfterUserChange(queryClient, 'create'),
  });
}
