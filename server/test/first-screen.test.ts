import { describe, expect, it } from 'vitest';
import { firstScreen } from '../src/plugins/first-screen.js';
import { linkPreview } from '../src/plugins/link-preview.js';
import {
  escapeHtml,
  imageAltText,
  imageLinkLabel,
  jsonForScript,
  largeImageSources,
  rankTrending,
  type ShellImage,
} from '../src/plugins/first-screen-shell.js';

const picture = (id: number, over: Partial<ShellImage> = {}): ShellImage => ({
  id_image: id,
  filename: `${id}.jpg`,
  image_url: `/static/images/${id}.jpg`,
  display_url: `/static/images/${id}-display.webp`,
  thumbnail_url: `/static/images/${id}-thumb.webp`,
  width: 1600,
  height: 1200,
  likes_count: 0,
  views_count: 0,
  shares_count: 0,
  placeholder: null,
  titolo_img: `Muro ${id}`,
  ...over,
});
const firstTrending = (images: ShellImage[]) => rankTrending(images, 1)[0];
/** The hints of a page: its head without the shell's <style> and the links' previews. */
const hintsOf = async (...args: Parameters<typeof firstScreen>) =>
  (await firstScreen(...args)).head
    .split('\n    ')
    .filter((line) => !line.startsWith('<style') && !line.startsWith('<meta'))
    .join('\n');
const SITE = 'https://muri.example/';
const json = (value: unknown) => Promise.resolve(JSON.stringify(value));

describe('text from the database in HTML', () => {
  it('escapes every character that could start or end markup', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('keeps JSON in a data block from closing it, and the same value once parsed', () => {
    const value = { titolo_img: '</script><script>alert(1)</script><!-- \u2028' };
    const text = jsonForScript(JSON.stringify(value));
    expect(text).not.toMatch(/<|\u2028/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('writes the alt texts and link names the web app writes (web/src/lib/imageText.ts)', () => {
    const untitled = picture(1, {
      titolo_img: '  ',
      extracted_text: 'W la\nscuola',
      category: { id_categoria: 4, nome: 'messaggi_di_amore' },
    });
    expect(imageAltText(untitled)).toBe('W la scuola');
    expect(imageLinkLabel(untitled)).toBe('Scritta sul muro: W la scuola');
    const noText = { ...untitled, extracted_text: '~ ,' };
    expect(imageAltText(noText)).toBe('Scritta sul muro, categoria Di Amore');
    expect(imageAltText({ ...noText, category: { id_categoria: 1, nome: 'x' } })).toBe(
      'Scritta sul muro',
    );
    const long = imageAltText(picture(2, { titolo_img: 'parola '.repeat(40) }));
    expect(long).toMatch(/^(parola ){10,}parola…$/);
    expect(long.length).toBeLessThanOrEqual(125);
  });
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
    const hints = await hintsOf(
      '/',
      chunks,
      {
        trending: () => json({ images: [picture(1, { thumbnail_url: '/a"b&c' })] }),
        image: () => Promise.reject(new Error('unused')),
        siteUrl: SITE,
      },
      '',
    );
    expect(hints).toBe(
      '<link rel="preload" as="image" href="/a&quot;b&amp;c" fetchpriority="high">',
    );
  });

  it("preloads the image page's picture with the <img>'s srcset and sizes", async () => {
    const hints = await hintsOf(
      '/image/7',
      chunks,
      {
        trending: () => Promise.reject(new Error('unused')),
        image: (id) => json(picture(id, { width: 800 })),
        siteUrl: SITE,
      },
      '',
    );
    expect(hints.split('\n')[0]).toBe(
      '<link rel="preload" as="image" imagesrcset="/static/images/7-thumb.webp 400w, /static/images/7-display.webp 800w" imagesizes="(min-width: 1200px) 65vw, 100vw" fetchpriority="high">',
    );
    expect(hints).toContain('<link rel="modulepreload" crossorigin href="/assets/ImagePage-1.js">');
  });

  it('holds the chunks back in a <template> when the page draws a picture', async () => {
    const sources = {
      trending: () => json({ images: [picture(1)] }),
      image: (id: number) => json(picture(id)),
      siteUrl: SITE,
    };
    const appChunks = new Map([
      ['(app)', ['/assets/main-1.js', '/assets/core-1.js']],
      ['HomePage', ['/assets/HomePage-1.js', '/assets/core-1.js']],
    ]);
    const { head } = await firstScreen('/', appChunks, sources, '');
    expect(head).toContain(
      '<template id="first-screen-chunks"><link rel="modulepreload" crossorigin href="/assets/main-1.js"><link rel="modulepreload" crossorigin href="/assets/core-1.js"><link rel="modulepreload" crossorigin href="/assets/HomePage-1.js"></template>',
    );
    // Without a picture (an empty gallery) nothing waits: the chunks are named at once.
    const empty = await firstScreen(
      '/',
      appChunks,
      { ...sources, trending: () => json({ images: [] }) },
      '',
    );
    expect(empty.head).not.toContain('<template');
    expect(empty.head).toContain('<link rel="modulepreload" crossorigin href="/assets/main-1.js">');
  });

  it('names only the chunks when the picture cannot be had', async () => {
    const hints = await hintsOf(
      '/image/404',
      chunks,
      {
        trending: () => Promise.reject(new Error('unused')),
        image: () => Promise.reject(new Error('Immagine non trovata')),
        siteUrl: SITE,
      },
      '',
    );
    expect(hints).toBe('<link rel="modulepreload" crossorigin href="/assets/ImagePage-1.js">');
    expect(await hintsOf('/image/abc', chunks, undefined, '')).toBe('');
    expect(await firstScreen('/admin/dashboard', chunks, undefined, '')).toEqual({
      head: '',
      title: '',
      root: '',
      data: '',
    });
  });
});

describe("links' previews", () => {
  const tags = (head: string) =>
    Object.fromEntries(
      [...head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );

  it('name an image page’s writing and show its display size, whole addresses from PUBLIC_URL', () => {
    const image = picture(7, {
      width: 4000,
      height: 3000,
      titolo_img: '  Ti amo  "per sempre" <3 ',
      extracted_text: 'TI AMO PER SEMPRF',
    });
    expect(tags(linkPreview(SITE, '/image/7', image))).toEqual({
      'og:site_name': 'Muri Parlanti',
      'og:locale': 'it_IT',
      'og:type': 'website',
      'og:url': 'https://muri.example/image/7',
      'og:title': 'Ti amo &quot;per sempre&quot; &lt;3',
      'og:image': 'https://muri.example/static/images/7-display.webp',
      'og:image:type': 'image/webp',
      // 1280 wide at most (lib/imaging.ts), the height in proportion.
      'og:image:width': '1280',
      'og:image:height': '960',
      'og:image:alt': 'Ti amo &quot;per sempre&quot; &lt;3',
      'twitter:card': 'summary_large_image',
    });
  });

  it('describe an untitled writing by its reading, and keep a small picture’s own size', () => {
    const read = picture(8, {
      width: 600,
      height: 900,
      titolo_img: ' ',
      extracted_text: 'W LA\nSCUOLA & I PROF',
    });
    const found = tags(linkPreview('http://muri.example:8080', '/image/8', read));
    expect(found['og:title']).toBe('Scritta sul muro');
    expect(found['og:description']).toBe('W LA SCUOLA &amp; I PROF');
    expect([found['og:image:width'], found['og:image:height']]).toEqual(['600', '900']);
    const unread = picture(9, { titolo_img: null, extracted_text: '~' });
    expect(tags(linkPreview(SITE, '/image/9', unread))['og:description']).toBeUndefined();
  });

  it('say only the site on any other page', () => {
    expect(tags(linkPreview(SITE, '/tags'))).toEqual({
      'og:site_name': 'Muri Parlanti',
      'og:locale': 'it_IT',
      'og:type': 'website',
      'og:url': 'https://muri.example/tags',
      'og:title': 'Muri Parlanti',
    });
  });

  it('name no address while PUBLIC_URL is this machine: nobody outside could fetch it', () => {
    const image = picture(10, { titolo_img: 'Muro' });
    for (const site of [
      'http://localhost:3000',
      'http://127.0.0.1:8080/',
      'http://app.localhost',
    ]) {
      const found = tags(linkPreview(site, '/image/10', image));
      expect(found['og:title'], site).toBe('Muro');
      expect(
        Object.keys(found).filter((key) => /url|image|twitter/.test(key)),
        site,
      ).toEqual([]);
    }
  });
});
