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
    void prefetchFirstScreen(client, '/');
    expect(asked).toEqual(['/api/trending-images']);
    expect(client.getQueryState(['images', 'trending'])).toBeDefined();
  });

  it('asks for the image on its page, keyed by the (anonymous) viewer', () => {
    const client = new QueryClient();
    void prefetchFirstScreen(client, '/image/42');
    expect(asked).toEqual(['/api/images/42']);
    expect(client.getQueryState(['image', 42, null])).toBeDefined();
  });

  it('asks for nothing elsewhere, nor for an id that names no image', () => {
    const client = new QueryClient();
    for (const path of ['/image/abc', '/image/0', '/image/42/x', '/tags', '/admin/dashboard']) {
      void prefetchFirstScreen(client, path);
    }
    expect(asked).toEqual([]);
  });

  it("starts from the server's answer on home, ranked as the page ranks it, asking nothing", async () => {
    const client = new QueryClient();
    const image = (id: number, likes: number) => ({
      id_image: id,
      filename: `${String(id)}.webp`,
      likes_count: likes,
      views_count: 0,
      shares_count: 0,
    });
    const embedded = JSON.stringify({
      path: '/',
      trending: { images: [image(1, 1), image(2, 5)] },
    });
    await prefetchFirstScreen(client, '/', embedded);
    expect(asked).toEqual([]);
    expect(
      client
        .getQueryData<{ images: Array<{ id_image: number }>; received: number }>([
          'images',
          'trending',
        ])
        ?.images.map((i) => i.id_image),
    ).toEqual([2, 1]);
  });

  it("uses the server's image only for that page and an anonymous visitor", async () => {
    const embedded = JSON.stringify({ path: '/image/42', image: { id_image: 42 } });
    const anonymous = new QueryClient();
    await prefetchFirstScreen(anonymous, '/image/42', embedded);
    expect(asked).toEqual([]);
    expect(anonymous.getQueryData(['image', 42, null])).toEqual({ id_image: 42 });

    // Another page's data, or a broken block: asked for as before.
    const other = new QueryClient();
    await prefetchFirstScreen(other, '/image/7', embedded);
    await prefetchFirstScreen(other, '/', '{"path":"/","trending":');
    expect(asked).toEqual(['/api/images/7', '/api/trending-images']);

    // Logged in: the answer must carry the viewer's own reactions, so it is asked for.
    asked.length = 0;
    const claims = btoa(JSON.stringify({ sub: '5', exp: Math.floor(Date.now() / 1000) + 3600 }));
    const stored: Record<string, string> = {
      'muri.token': `x.${claims}.y`,
      'muri.user': JSON.stringify({ id_utente: 5 }),
    };
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored[key] ?? null,
      removeItem: () => undefined,
    });
    const user = new QueryClient();
    await prefetchFirstScreen(user, '/image/42', embedded);
    expect(asked).toEqual(['/api/images/42']);
    expect(user.getQueryData(['image', 42, null])).toBeUndefined();
    expect(user.getQueryState(['image', 42, 5])).toBeDefined();
  });
});
