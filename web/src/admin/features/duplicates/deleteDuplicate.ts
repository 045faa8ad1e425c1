import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { updateGroups } from './duplicateGroups.js';
import { withoutImage } from './groups.js';
import { duplicateKeys, refreshAfterChange } from './keys.js';

/** DELETE /admin/duplicate-images/{id}: the row, its links, interactions and files. */
export async function deleteDuplicate(idImage: number): Promise<void> {
  await api<unknown>(`/admin/duplicate-images/${idImage}`, { method: 'DELETE' });
}

/**
 * Deletes one image. The page drops it from its group at once, then reloads the groups from
 * the server, which has the last word.
 */
export function useDeleteDuplicate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: duplicateKeys.change,
    mutationFn: deleteDuplicate,
    onSuccess: (_answer, idImage) => {
      updateGroups(queryClient, (groups) => withoutImage(groups, idImage));
    },
    onSettled: () => refreshAfterChange(queryClient),
  });
}
