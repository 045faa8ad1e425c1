import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchFirstScreen } from './prefetch.js';

describe('prefetchFirstScreen', () => {
  const asked: string[] = [];
  beforeEach(() => {
    asked.length = 0;
    // Anonymous: no session stored.
    vi.stubGlobal('localStorage', { getItem: () => null, removeItem: () => undefined });
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      return Promise.resolve(new Response('{"images":[]}', { status: 200 }));
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for the trending list on home, under the key the home page reads', () => {
    const client = new QueryClient();
    prefetchFirstScreen(client, '/');
    expect(asked).toEqual(['/api/trending-images']);
    expect(client.getQueryState(['images', 'trending'])).toBeDefined();
  });

  it('asks for the image on its page, keyed by the (anonymous) viewer', () => {
    const client = new QueryClient();
    prefetchFirstScreen(client, '/image/42');
    expect(asked).toEqual(['/api/images/42']);
    expect(client.getQueryState(['image', 42, null])).toBeDefined();
  });

  it('asks for nothing elsewhere, nor for an id that names no image', () => {
    const client = new QueryClient();
    for (const path of ['/image/abc', '/image/0', '/image/42/x', '/tags', '/admin/dashboard']) {
      prefetchFirstScreen(client, path);
    }
    expect(asked).toEqual([]);
  });
});
