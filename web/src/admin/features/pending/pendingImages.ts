import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api.js';
import { expectList, expectObject } from '../../shape.js';
import type { PendingImage } from '../../types.js';
import { pendingKeys } from './keys.js';
import { loadWithRetry } from './retry.js';

export interface PendingImagesAnswer {
  images: PendingImage[];
  total: number;
}

/** GET /admin/pending-images: one attempt, its shape checked (SPEC §5). */
export async function fetchPendingImages(signal: AbortSignal): Promise<PendingImagesAnswer> {
  const answer = expectObject<PendingImagesAnswer>(
    await api<unknown>('/admin/pending-images', { signal }),
    'images',
    'total',
  );
  expectList(answer.images);
  return answer;
}

/**
 * The list with SPEC §4's timeouts and retries. `onRetry` receives the message to show while
 * waiting, and null when a load starts afresh.
 */
export const pendingImagesQuery = (onRetry: (message: string | null) => void) =>
  queryOptions({
    queryKey: pendingKeys.list,
    queryFn: async ({ signal }) => {
      onRetry(null);
      try {
        return await loadWithRetry({ attempt: fetchPendingImages, onRetry, signal });
      } finally {
        onRetry(null);
      }
    },
    // The retries are SPEC's own, above; the query must not add more.
    retry: false,
  });

export function usePendingImages() {
  const [retryMessage, setRetryMessage] = useState<string | null>(null);
  const query = useQuery(pendingImagesQuery(setRetryMessage));
  return { ...query, retryMessage };
}
