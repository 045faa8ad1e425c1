import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYSIS_POLL_MS,
  duplicateGroupsQuery,
  pollWhileAnalysing,
  type DuplicatesView,
} from './duplicateGroups.js';

describe('the duplicates screen', () => {
  const asked: string[] = [];
  let waiting = 0;
  beforeEach(() => {
    asked.length = 0;
    vi.stubGlobal('localStorage', { getItem: () => null, removeItem: () => undefined });
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      const body = url.endsWith('/analysis') ? { images_to_analyse: waiting } : [];
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function load(): Promise<DuplicatesView> {
    return new QueryClient().query(duplicateGroupsQuery);
  }

  it('asks how many images are left to read before it reads the groups', async () => {
    waiting = 3;
    const view = await load();
    // Read after the progress, the groups hold every reading the progress no longer counts.
    expect(asked).toEqual(['/api/admin/duplicate-images/analysis', '/api/admin/duplicate-images']);
    expect(view).toEqual({ groups: [], imagesToAnalyse: 3 });
  });

  it('looks again while images are being read, and stops once all are', () => {
    expect(pollWhileAnalysing({ groups: [], imagesToAnalyse: 3 })).toBe(ANALYSIS_POLL_MS);
    expect(pollWhileAnalysing({ groups: [], imagesToAnalyse: 0 })).toBe(false);
    expect(pollWhileAnalysing(undefined)).toBe(false);
  });
});
