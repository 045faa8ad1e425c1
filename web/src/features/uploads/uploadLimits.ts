import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** GET /images/export/limits: the size limit an administrator set (D7). */
export interface UploadLimits {
  upload_max_bytes: number;
  /** The limit as the server's refusal writes it ('5MB', '2,5MB', '200KB'). */
  upload_max_label: string;
}

/** SPEC §5's 5MB, the default: what the page says until the server has answered. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  upload_max_bytes: 5 * 1024 * 1024,
  upload_max_label: '5MB',
};

export const uploadLimitsQuery = queryOptions({
  queryKey: ['uploads', 'limits'],
  queryFn: ({ signal }) => api<UploadLimits>('/images/export/limits', { signal }),
  // An administrator may lower it at any moment: asked again each time the page opens.
  staleTime: 0,
});

/**
 * The limit the upload page says and checks. Should the question fail the server's own check
 * still applies, and its refusal names the limit in force.
 */
export function useUploadLimits(): UploadLimits {
  return useQuery(uploadLimitsQuery).data ?? DEFAULT_UPLOAD_LIMITS;
}

/** SPEC §5's sentence, with the limit in force. */
export function tooLargeMessage(limits: UploadLimits): string {
  return `Il file è troppo grande. La dimensione massima è ${limits.upload_max_label}.`;
}
