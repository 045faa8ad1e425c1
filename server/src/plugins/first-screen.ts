import fs from 'node:fs';
import path from 'node:path';

/*
 * Hints for the first screen of a page, written into index.html's <head> by the server.
 *
 * The web app is drawn by JavaScript: without hints a phone learns which page chunk to load
 * only once the entry chunk has run, and which picture is the largest only once that chunk has
 * run and the API has answered (goal 8 measured 2.8 s of LCP "load delay" on slow 4G). The
 * server already knows both when it answers the navigation, so it names them at once:
 * `modulepreload` for the page's chunk and the chunks it imports (from Vite's manifest), and a
 * high-priority `preload` of the picture the page shows largest. Only hints: the page works the
 * same when they are missing or wrong.
 */

/** The picture fields the hints read (GalleryImage and ImageDetail both have them). */
export interface HintImage {
  filename?: string | null;
  image_url: string;
  display_url: string;
  thumbnail_url: string;
  width: number;
  height: number;
  likes_count: number;
  views_count: number;
  shares_count: number;
}

export interface FirstScreenSources {
  /** The anonymous trending list (GET /api/trending-images), in the server's order. */
  trending(): Promise<{ images: HintImage[] }>;
  /** An image as an anonymous visitor may see it; throws when it is not visible. */
  image(id: number): Promise<HintImage>;
}

/** A client-side route and the page module (web/src/pages) that draws it. */
const ROUTES: Array<{ pattern: RegExp; page: string }> = [
  { pattern: /^\/$/, page: 'HomePage' },
  { pattern: /^\/image\/\d+$/, page: 'ImagePage' },
  { pattern: /^\/category\/[^/]+$/, page: 'CategoryPage' },
  { pattern: /^\/tag\/[^/]+$/, page: 'TagPage' },
  { pattern: /^\/tags$/, page: 'TagsPage' },
  { pattern: /^\/search$/, page: 'SearchPage' },
  { pattern: /^\/user\/[^/]+$/, page: 'ProfilePage' },
  { pattern: /^\/privacy-policy$/, page: 'PrivacyPolicyPage' },
  { pattern: /^\/login$/, page: 'LoginPage' },
  { pattern: /^\/register$/, page: 'RegisterPage' },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * For each page module, the URLs of its chunk and of every chunk it imports statically, read
 * from the manifest the build writes (web/vite.config.ts: build.manifest). Empty without one.
 */
export function readPageChunks(webDistDir: string): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  let manifest: Record<string, ManifestChunk>;
  try {
    const text = fs.readFileSync(path.join(webDistDir, '.vite', 'manifest.json'), 'utf8');
    manifest = JSON.parse(text) as Record<string, ManifestChunk>;
  } catch {
    return pages;
  }
  const collect = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (chunk === undefined || into.has(`/${chunk.file}`)) return;
    into.add(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) collect(imported, into);
  };
  for (const key of Object.keys(manifest)) {
    const match = /^src\/pages\/(\w+)\.tsx$/.exec(key);
    if (match?.[1] === undefined) continue;
    const files = new Set<string>();
    collect(key, files);
    pages.set(match[1], [...files]);
  }
  return pages;
}

/** SPEC §7, as the web app ranks trending (web/src/features/images/trending.ts). */
function trendingScore(image: HintImage): number {
  return image.likes_count + 0.1 * image.views_count + 2 * image.shares_count;
}

/** The picture the home page shows first: the best-ranked trending image with a file. */
export function firstTrending(images: readonly HintImage[]): HintImage | undefined {
  let best: HintImage | undefined;
  for (const image of images) {
    if (typeof image.filename !== 'string' || image.filename.trim() === '') continue;
    // Strictly greater: equal scores keep the server's order, as the web app's stable sort.
    if (best === undefined || trendingScore(image) > trendingScore(best)) best = image;
  }
  return best;
}

/** The candidates of the image page's <img srcset> (web/src/pages/ImagePage.tsx, LargeImage). */
export function largeImageSources(image: HintImage): string {
  const sources = [
    `${image.thumbnail_url} 400w`,
    `${image.display_url} ${Math.min(image.width, 1280)}w`,
  ];
  if (image.width > 1280) sources.push(`${image.image_url} ${image.width}w`);
  return sources.join(', ');
}
/** The same <img>'s sizes: the browser must pick the same candidate for the preload to count. */
const LARGE_IMAGE_SIZES = '(min-width: 1200px) 65vw, 100vw';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The <link> elements for a page at `pathname`; '' when there is nothing to hint. */
export async function firstScreenHints(
  pathname: string,
  pageChunks: Map<string, string[]>,
  sources: FirstScreenSources | undefined,
  html: string,
): Promise<string> {
  const route = ROUTES.find(({ pattern }) => pattern.test(pathname));
  if (route === undefined) return '';
  const links: string[] = [];
  // The picture first: it is the page's largest paint and the slowest download.
  if (sources !== undefined) {
    try {
      if (route.page === 'HomePage') {
        const first = firstTrending((await sources.trending()).images);
        if (first !== undefined) {
          // A carousel slide: <img src={thumbnail_url}> without srcset (components/ImageCard).
          links.push(
            `<link rel="preload" as="image" href="${escapeAttribute(first.thumbnail_url)}" fetchpriority="high">`,
          );
        }
      } else if (route.page === 'ImagePage') {
        const image = await sources.image(Number(pathname.slice('/image/'.length)));
        links.push(
          `<link rel="preload" as="image" imagesrcset="${escapeAttribute(largeImageSources(image))}" imagesizes="${LARGE_IMAGE_SIZES}" fetchpriority="high">`,
        );
      }
    } catch {
      // A missing image or a failing database: the page says so itself, without a hint.
    }
  }
  for (const file of pageChunks.get(route.page) ?? []) {
    // index.html already names the entry's own imports.
    if (html.includes(`"${file}"`)) continue;
    links.push(`<link rel="modulepreload" crossorigin href="${escapeAttribute(file)}">`);
  }
  return links.join('\n    ');
}
