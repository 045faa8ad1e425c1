import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { invalidateAfterUserChange } from './keys.js';

/** DELETE /admin/users/{id}: erases the account with its images and interactions (D9). */
export async function deleteUser(id: number): Promise<void> {
  await api<unknown>(`/admin/users/${id}`, { method: 'DELETE' });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => invalidateAfterUserChange(queryClient, 'delete'),
  });
}
