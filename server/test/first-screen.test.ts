import { describe, expect, it } from 'vitest';
import {
  firstScreenHints,
  firstTrending,
  largeImageSources,
  type HintImage,
} from '../src/plugins/first-screen.js';

const picture = (id: number, over: Partial<HintImage> = {}): HintImage => ({
  filename: `${id}.jpg`,
  image_url: `/static/images/${id}.jpg`,
  display_url: `/static/images/${id}-display.webp`,
  thumbnail_url: `/static/images/${id}-thumb.webp`,
  width: 1600,
  height: 1200,
  likes_count: 0,
  views_count: 0,
  shares_count: 0,
  ...over,
});

describe('the first trending picture, as the web app ranks them (SPEC §7)', () => {
  it('takes the best score: likes + 0.1 × views + 2 × shares', () => {
    const images = [
      picture(1, { likes_count: 3 }),
      picture(2, { views_count: 20, shares_count: 1 }),
      picture(3, { likes_count: 2, views_count: 5 }),
    ];
    expect(firstTrending(images)?.thumbnail_url).toBe('/static/images/2-thumb.webp');
  });

  it("keeps the server's order among equal scores and skips pictures without a file", () => {
    const images = [
      picture(1, { filename: ' ', likes_count: 9 }),
      picture(2, { likes_count: 1 }),
      picture(3, { likes_count: 1 }),
    ];
    expect(firstTrending(images)?.image_url).toBe('/static/images/2.jpg');
    expect(firstTrending([])).toBeUndefined();
  });
});

describe('image page sources, as its <img srcset> lists them', () => {
  it('adds the original only when wider than the display size', () => {
    expect(largeImageSources(picture(7))).toBe(
      '/static/images/7-thumb.webp 400w, /static/images/7-display.webp 1280w, /static/images/7.jpg 1600w',
    );
    expect(largeImageSources(picture(8, { width: 900 }))).toBe(
      '/static/images/8-thumb.webp 400w, /static/images/8-display.webp 900w',
    );
  });
});

describe('first-screen hints', () => {
  const chunks = new Map([['ImagePage', ['/assets/ImagePage-1.js']]]);

  it('preloads the home picture first, at high priority, with its URL escaped', async () => {
    const hints = await firstScreenHints(
      '/',
      chunks,
      {
        trending: () => Promise.resolve({ images: [picture(1, { thumbnail_url: '/a"b&c' })] }),
        image: () => Promise.reject(new Error('unused')),
      },
      '',
    );
    expect(hints).toBe(
      '<link rel="preload" as="image" href="/a&quot;b&amp;c" fetchpriority="high">',
    );
  });

  it("preloads the image page's picture with the <img>'s srcset and sizes", async () => {
    const hints = await firstScreenHints(
      '/image/7',
      chunks,
      {
        trending: () => Promise.reject(new Error('unused')),
        image: (id) => Promise.resolve(picture(id, { width: 800 })),
      },
      '',
    );
    expect(hints.split('\n')[0]).toBe(
      '<link rel="preload" as="image" imagesrcset="/static/images/7-thumb.webp 400w, /static/images/7-display.webp 800w" imagesizes="(min-width: 1200px) 65vw, 100vw" fetchpriority="high">',
    );
    expect(hints).toContain('<link rel="modulepreload" crossorigin href="/assets/ImagePage-1.js">');
  });

  it('names only the chunks when the picture cannot be had', async () => {
    const hints = await firstScreenHints(
      '/image/404',
      chunks,
      {
        trending: () => Promise.reject(new Error('unused')),
        image: () => Promise.reject(new Error('Immagine non trovata')),
      },
      '',
    );
    expect(hints).toBe('<link rel="modulepreload" crossorigin href="/assets/ImagePage-1.js">');
    expect(await firstScreenHints('/image/abc', chunks, undefined, '')).toBe('');
    expect(await firstScreenHints('/admin/dashboard', chunks, undefined, '')).toBe('');
  });
});
