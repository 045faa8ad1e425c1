import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { Decision } from './approveImage.js';
import { pendingKeys, refreshAfterDecision } from './keys.js';

/** The one-click reasons of the reject dialog (issue 6); each fills the editable field. */
export const REJECTION_REASONS = [
  'Contiene persone o volti',
  'Immagine duplicata',
  'Contenuto non appropriato',
  'Qualità insufficiente',
] as const;

/** The server keeps at most this many characters of a reason. */
export const REJECTION_REASON_MAX_LENGTH = 1000;

export interface Rejection {
  filename: string;
  reason: string;
}

/**
 * POST /admin/reject-image/{filename}: the body is the reason itself, sent as a JSON string
 * (SPEC §7, D4); the uploader is told by e-mail.
 */
export async function rejectImage({ filename, reason }: Rejection): Promise<Decision> {
  const answer = await api<unknown>(`/admin/reject-image/${encodeURIComponent(filename)}`, {
    method: 'POST',
    body: reason.trim(),
  });
  return expectObject<Decision>(answer, 'id_image', 'status');
}

export function useRejectImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: pendingKeys.decision,
    mutationFn: rejectImage,
    onSettled: () => refreshAfterDecision(queryClient),
  });
}
