import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runBatch, type BatchResult } from '../../batch.js';
import type { DuplicateGroup } from '../../types.js';
import { deleteDuplicate } from './deleteDuplicate.js';
import { updateGroups } from './duplicateGroups.js';
import { withoutImage } from './groups.js';
import { duplicateKeys, refreshAfterChange } from './keys.js';

/** Thrown when some images of a group could not be deleted; the others are gone. */
export class GroupDeleteError extends Error {
  constructor(readonly result: BatchResult) {
    super("Errore durante l'eliminazione del gruppo di immagini");
    this.name = 'GroupDeleteError';
  }
}

/** 'Elimina gruppo' (SPEC §4): each image of the group, one by one. */
export async function deleteGroup(group: DuplicateGroup): Promise<BatchResult> {
  const result = await runBatch(
    group.images.map((image) => image.id_image),
    deleteDuplicate,
  );
  if (result.failed.length > 0) throw new GroupDeleteError(result);
  return result;
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  const dropDeleted = (ids: readonly number[]) => {
    updateGroups(queryClient, (groups) => ids.reduce(withoutImage, groups));
  };
  return useMutation({
    mutationKey: duplicateKeys.change,
    mutationFn: deleteGroup,
    onSuccess: (result) => dropDeleted(result.succeeded),
    onError: (error) => {
      if (error instanceof GroupDeleteError) dropDeleted(error.result.succeeded);
    },
    onSettled: () => refreshAfterChange(queryClient),
  });
}
