import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList } from '../../shape.js';
import type { DuplicateGroup } from '../../types.js';
import { fetchAnalysisProgress } from './analysisProgress.js';
import { duplicateKeys } from './keys.js';

/** How often the page looks again while images are being read. */
export const ANALYSIS_POLL_MS = 10_000;

/** The duplicates screen: the groups found so far, and the images still to be read. */
export interface DuplicatesView {
  groups: DuplicateGroup[];
  imagesToAnalyse: number;
}

/** GET /admin/duplicate-images: the groups, largest first (D7). */
export async function fetchDuplicateGroups(signal?: AbortSignal): Promise<DuplicateGroup[]> {
  return expectList<DuplicateGroup>(await api<unknown>('/admin/duplicate-images', { signal }));
}

/*
 * An empty list means 'no duplicates' only once every image has been read: until then it may
 * mean 'not read yet' (a new server reads its demo photos for a minute or two). So the progress
 * is asked first and the groups after it: when it says 0, every reading was stored before the
 * groups were read, and the list is complete. While images remain, the page asks again.
 */
export const duplicateGroupsQuery = queryOptions({
  queryKey: duplicateKeys.groups,
  queryFn: async ({ signal }): Promise<DuplicatesView> => {
    const progress = await fetchAnalysisProgress(signal);
    return {
      groups: await fetchDuplicateGroups(signal),
      imagesToAnalyse: progress.images_to_analyse,
    };
  },
  refetchInterval: (query) => pollWhileAnalysing(query.state.data),
});

/** The interval of the next look: every ANALYSIS_POLL_MS while images remain, then none. */
export function pollWhileAnalysing(view: DuplicatesView | undefined): number | false {
  return (view?.imagesToAnalyse ?? 0) > 0 ? ANALYSIS_POLL_MS : false;
}

export const useDuplicateGroups = () => useQuery(duplicateGroupsQuery);

/** Changes the groups on screen at once (a delete, a dismissal), before the reload. */
export function updateGroups(
  queryClient: QueryClient,
  change: (groups: DuplicateGroup[]) => DuplicateGroup[],
): void {
  queryClient.setQueryData<DuplicatesView>(duplicateKeys.groups, (view) =>
    view === undefined ? view : { ...view, groups: change(view.groups) },
  );
}
