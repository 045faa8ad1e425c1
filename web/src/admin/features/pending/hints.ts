import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList, expectObject } from '../../shape.js';
import type { ModerationHints } from '../../types.js';
import { pendingKeys } from './keys.js';

/**
 * GET /admin/pending-images/{id}/hints: one image's possible duplicates and suggestions, asked
 * for when its detail dialog opens (or is about to: `prefetchHints`). The list does not carry
 * them: a queue's worth took seconds, on every reload after a decision.
 */
export async function fetchHints(id: number, signal?: AbortSignal): Promise<ModerationHints> {
  const hints = expectObject<ModerationHints>(
    await api<unknown>(`/admin/pending-images/${String(id)}/hints`, { signal }),
    'possible_duplicates',
    'suggested_category',
    'suggested_tags',
  );
  expectList(hints.possible_duplicates);
  expectList(hints.suggested_tags);
  return hints;
}

const hintsQuery = (id: number) =>
  queryOptions({
    queryKey: pendingKeys.hints(id),
    queryFn: ({ signal }) => fetchHints(id, signal),
    // Another image approved or a duplicate dismissed changes them rarely within a minute;
    // every decision reloads them anyway (refreshAfterDecision).
    staleTime: 60_000,
  });

export const useHints = (id: number) => useQuery(hintsQuery(id));

/** Pointer over or focus on an image's view button: the hints are usually there before the click. */
export function prefetchHints(queryClient: QueryClient, id: number): void {
  // A failure shows in the dialog, which asks again when it opens.
  queryClient.query(hintsQuery(id)).catch(() => undefined);
}
