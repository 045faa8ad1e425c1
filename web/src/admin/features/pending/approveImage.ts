import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import { pendingKeys, refreshAfterDecision } from './keys.js';
import { updateClassification, type Classification } from './updateClassification.js';

export interface Decision {
  id_image: number;
  filename: string;
  status: string;
}

/** PUT /admin/approve-image/{filename} with no body (SPEC §7): the image becomes public. */
export async function approveImage(filename: string): Promise<Decision> {
  const answer = await api<unknown>(`/admin/approve-image/${encodeURIComponent(filename)}`, {
    method: 'PUT',
  });
  return expectObject<Decision>(answer, 'id_image', 'status');
}

export interface Approval {
  id_image: number;
  filename: string;
  /** A category and tags the administrator chose in the detail dialog, saved first (issue 6). */
  classification?: Classification | null;
}

/** Saves a changed category and tags, then approves: the image goes public already sorted. */
export async function approveWithClassification({
  id_image,
  filename,
  classification,
}: Approval): Promise<Decision> {
  if (classification !== undefined && classification !== null) {
    await updateClassification(id_image, classification);
  }
  return approveImage(filename);
}

export function useApproveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: pendingKeys.decision,
    mutationFn: approveWithClassification,
    onSettled: () => refreshAfterDecision(queryClient),
  });
}
