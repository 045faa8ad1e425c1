import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { Classification } from './classification.js';
import { pendingKeys, refreshAfterDecision } from './keys.js';

export interface Decision {
  id_image: number;
  filename: string;
  status: string;
}

/**
 * PUT /admin/approve-image/{filename}: the image becomes public. With no body, as SPEC §7
 * describes it, when the administrator left category and tags as sent; otherwise with the
 * chosen ones, which the server saves in the approval's own transaction (issue 6), so a
 * refused approval changes nothing.
 */
export async function approveImage(
  filename: string,
  classification: Classification | null = null,
): Promise<Decision> {
  const answer = await api<unknown>(`/admin/approve-image/${encodeURIComponent(filename)}`, {
    method: 'PUT',
    ...(classification === null ? {} : { body: classification }),
  });
  return expectObject<Decision>(answer, 'id_image', 'status');
}

export interface Approval {
  filename: string;
  /** A category and tags the administrator chose in the detail dialog. */
  classification?: Classification | null;
}

export function useApproveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: pendingKeys.decision,
    mutationFn: ({ filename, classification }: Approval) =>
      approveImage(filename, classification ?? null),
    onSettled: () => refreshAfterDecision(queryClient),
  });
}
