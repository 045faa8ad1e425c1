import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchAdminImages } from './adminImages.js';

describe('the back-office image list', () => {
  let header: string | null = null;
  beforeEach(() => {
    vi.stubGlobal('localStorage', { getItem: () => null, removeItem: () => undefined });
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response('[]', {
          status: 200,
          headers: header === null ? {} : { 'x-list-truncated': header },
        }),
      ),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('knows when the server sent only the newest of more matches', async () => {
    header = '2000';
    expect(await fetchAdminImages('')).toEqual({ rows: [], cappedAt: 2000 });
  });

  it('knows when it holds every match', async () => {
    for (const value of ['0', null, 'molte', '-3']) {
      header = value;
      expect(await fetchAdminImages('muro')).toEqual({ rows: [], cappedAt: null });
    }
  });
});
