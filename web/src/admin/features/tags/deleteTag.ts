import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import { refreshAfterTagChange } from './adminTags.js';

/** DELETE /admin/tags/{id}: the tag and its links to images. */
export async function deleteTag(id: number): Promise<void> {
  expectObject(await api<unknown>(`/admin/tags/${id}`, { method: 'DELETE' }), 'ok');
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: () => refreshAfterTagChange(queryClient),
  });
}
