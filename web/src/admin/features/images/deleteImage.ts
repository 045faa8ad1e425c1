import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import { refreshAfterImageChange } from './adminImages.js';

/** DELETE /admin/images/{id}: the row, its links, its interactions and its files (D4). */
export async function deleteAdminImage(id: number): Promise<void> {
  expectObject(await api<unknown>(`/admin/images/${id}`, { method: 'DELETE' }), 'ok');
}

export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminImage,
    onSuccess: () => refreshAfterImageChange(queryClient),
  });
}
