import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { AnalysisProgress } from '../../types.js';

/**
 * GET /admin/duplicate-images/analysis: how many images are still to be read. Asked together
 * with the groups, just before them (duplicateGroups.ts), so that 0 vouches for the list.
 */
export async function fetchAnalysisProgress(signal?: AbortSignal): Promise<AnalysisProgress> {
  return expectObject<AnalysisProgress>(
    await api<unknown>('/admin/duplicate-images/analysis', { signal }),
    'images_to_analyse',
  );
}
