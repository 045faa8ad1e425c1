import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import type { DuplicateGroup } from '../../types.js';
import { updateGroups } from './duplicateGroups.js';
import { duplicateKeys, refreshAfterChange } from './keys.js';

/**
 * POST /admin/duplicate-images/dismiss {image_ids} (D7): 'Non sono duplicati'. The server
 * remembers it, and the group stays hidden unless a new image joins it.
 */
export async function dismissGroup(group: DuplicateGroup): Promise<void> {
  await api<unknown>('/admin/duplicate-images/dismiss', {
    method: 'POST',
    body: { image_ids: group.images.map((image) => image.id_image) },
  });
}

export function useDismissGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: duplicateKeys.change,
    mutationFn: dismissGroup,
    onSuccess: (_answer, dismissed) => {
      const ids = new Set(dismissed.images.map((image) => image.id_image));
      updateGroups(queryClient, (groups) =>
        groups.filter((group) => !group.images.every((image) => ids.has(image.id_image))),
      );
    },
    onSettled: () => refreshAfterChange(queryClient),
  });
}
