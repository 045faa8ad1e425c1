import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { AdminImageInput } from '../../types.js';
import { refreshAfterImageChange } from './adminImages.js';

/** PUT /admin/images/{id}: title, category and tags by name (D7). */
export async function updateAdminImage(id: number, input: AdminImageInput): Promise<void> {
  expectObject(await api<unknown>(`/admin/images/${id}`, { method: 'PUT', body: input }), 'ok');
}

export function useUpdateImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: AdminImageInput }) =>
      updateAdminImage(id, input),
    onSuccess: () => refreshAfterImageChange(queryClient),
  });
}
