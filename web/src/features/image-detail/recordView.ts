import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImageDetail } from '../../lib/types.js';
import { imageQueryKey } from './image.js';

export const VIEW_INTERACTION = 7;

/** POST /images/{id}/interactions type 7: anyone may record a view (D5). */
export interface ViewInput {
  imageId: number;
  viewerId: number | null;
}

export function recordView({
  imageId,
}: ViewInput): Promise<{ action: 'added' | 'exists' | 'removed' }> {
  return api(`/images/${imageId}/interactions`, {
    method: 'POST',
    body: { id_tipo_interazione: VIEW_INTERACTION },
  });
}

/**
 * SPEC §4: the counter rises only when the server counted the view ('added'); a repeated view
 * within its window answers 'exists' and changes nothing.
 */
export function useRecordView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordView,
    onSuccess: ({ action }, { imageId, viewerId }) => {
      if (action !== 'added') return;
      queryClient.setQueryData<ImageDetail>(imageQueryKey(imageId, viewerId), (image) =>
        image === undefined ? image : { ...image, views_count: image.views_count + 1 },
      );
    },
  });
}
