import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api.js';
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
    // Edited by someone else since the dialog opened (409): the list loads again, so the
    // next opening shows their change.
    onError: (error) =>
      error instanceof ApiError && error.status === 409
        ? refreshAfterImageChange(queryClient)
        : undefined,
  });
}
