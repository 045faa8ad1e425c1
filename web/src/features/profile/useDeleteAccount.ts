import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/**
 * DELETE /users/me {password} (D9): the account is deactivated at once and erased within
 * 5 days. The password is asked again so that a forgotten open session is not enough.
 */
export function deleteAccount(password: string): Promise<{ detail: string }> {
  return api<{ detail: string }>('/users/me', { method: 'DELETE', body: { password } });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
