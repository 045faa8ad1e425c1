import fs from 'node:fs';
import path from 'node:path';
import {
  escapeHtml,
  homeShell,
  imageShell,
  jsonForScript,
  LARGE_IMAGE_SIZES,
  largeImageSources,
  imageTitle,
  rankTrending,
  shell,
  SHELL_CSS,
  type ShellImage,
} from './first-screen-shell.js';
import { linkPreview, pageTitle } from './link-preview.js';

/*
 * The first screen of a page, written into index.html by the server for each navigation.
 *
 * The web app is drawn by JavaScript: without help a phone learns which page chunk to load
 * only once the entry chunk has run, which picture is the largest only once that chunk has run
 * and the API has answered (goal 8 measured 2.8 s of LCP "load delay" on slow 4G), and paints
 * nothing before React has run (the "render delay" that was left). The server knows all of it
 * when it answers the navigation, so it sends:
 * - `modulepreload` for the page's chunk and the chunks it imports (from Vite's manifest), and
 *   a high-priority `preload` of the picture the page shows largest;
 * - the header and that picture as static HTML with inline CSS inside #root
 *   (first-screen-shell.ts), which the web app's first render replaces;
 * - the API answer that picture came from, so the web app draws the same one without asking.
 * The page works the same when any of it is missing: a failing lookup sends the page without.
 */

export interface FirstScreenSources {
  /** The body of GET /api/trending-images as an anonymous visitor gets it. */
  trending(): Promise<string>;
  /** The body of GET /api/images/{id} as an anonymous visitor gets it; throws unless 200. */
  image(id: number): Promise<string>;
  /** The site's address as visitors reach it (PUBLIC_URL), for the links' previews. */
  siteUrl: string;
}

/** A client-side route and the page module (web/src/pages) that draws it. */
const ROUTES: Array<{ pattern: RegExp; page: string; layout: 'strip' | 'header' | 'bare' }> = [
  { pattern: /^\/$/, page: 'HomePage', layout: 'strip' },
  { pattern: /^\/image\/\d+$/, page: 'ImagePage', layout: 'strip' },
  { pattern: /^\/category\/[^/]+$/, page: 'CategoryPage', layout: 'strip' },
  { pattern: /^\/tag\/[^/]+$/, page: 'TagPage', layout: 'strip' },
  { pattern: /^\/tags$/, page: 'TagsPage', layout: 'strip' },
  { pattern: /^\/search$/, page: 'SearchPage', layout: 'strip' },
  // SPEC §2: no category strip on profiles; no header on login and registration.
  { pattern: /^\/user\/[^/]+$/, page: 'ProfilePage', layout: 'header' },
  { pattern: /^\/privacy-policy$/, page: 'PrivacyPolicyPage', layout: 'strip' },
  { pattern: /^\/login$/, page: 'LoginPage', layout: 'bare' },
  { pattern: /^\/register$/, page: 'RegisterPage', layout: 'bare' },
  { pattern: /^\/forgot-password$/, page: 'ForgotPasswordPage', layout: 'bare' },
  { pattern: /^\/reset-password$/, page: 'ResetPasswordPage', layout: 'bare' },
];

/** The key of readPageChunks' answer for the chunks every page needs. */
const APP = '(app)';

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
  // The app itself (web/src/main.tsx), which index.html's entry (boot.ts) imports once the
  // first screen is painted: downloaded meanwhile, on every page.
  const app = new Set<string>();
  collect('src/main.tsx', app);
  pages.set(APP, [...app]);
  for (const key of Object.keys(manifest)) {
    const match = /^src\/pages\/(\w+)\.tsx$/.exec(key);
    if (match?.[1] === undefined) continue;
    const files = new Set<string>();
    collect(key, files);
    pages.set(match[1], [...files]);
  }
  return pages;
}

/** What the server adds to index.html for one navigation; empty strings when nothing. */
export interface FirstScreen {
  /** <link> hints, the links' previews (link-preview.ts) and the shell's <style>, before </head>. */
  head: string;
  /** The page's title when the server knows it (an image page's, D11); '' keeps index.html's. */
  title: string;
  /** The shell's markup, inside #root (first-screen-shell.ts). */
  root: string;
  /**
   * The API answer the shell was drawn from, as a JSON data block after #root: the web app
   * starts from it instead of asking again (web/src/app/prefetch.ts), so its first render
   * draws the same picture the shell shows.
   */
  data: string;
}

const NOTHING: FirstScreen = { head: '', title: '', root: '', data: '' };

/** The additions to index.html for a page at `pathname`. */
export async function firstScreen(
  pathname: string,
  pageChunks: Map<string, string[]>,
  sources: FirstScreenSources | undefined,
  html: string,
): Promise<FirstScreen> {
  const route = ROUTES.find(({ pattern }) => pattern.test(pathname));
  const hinted = new Set<string>();
  /** modulepreload of chunks index.html does not name yet. */
  const preloads = (files: readonly string[]) =>
    files
      .filter((file) => !html.includes(`"${file}"`) && !hinted.has(file) && hinted.add(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(file)}">`);
  if (route === undefined) {
    const head = preloads(pageChunks.get(APP) ?? []).join('\n    ');
    return head === '' ? NOTHING : { ...NOTHING, head };
  }
  const links: string[] = [];
  let main = '';
  let data = '';
  let shown: ShellImage | undefined;
  // The picture first: it is the page's largest paint and the slowest download.
  if (sources !== undefined) {
    try {
      if (route.page === 'HomePage') {
        const body = await sources.trending();
        const images = (JSON.parse(body) as { images: ShellImage[] }).images;
        const [first] = rankTrending(images, 1);
        if (first !== undefined) {
          // A carousel slide: <img src={thumbnail_url}> without srcset (components/ImageCard).
          links.push(
            `<link rel="preload" as="image" href="${escapeHtml(first.thumbnail_url)}" fetchpriority="high">`,
          );
          main = homeShell(images);
        }
        data = `{"path":"/","trending":${body}}`;
      } else if (route.page === 'ImagePage') {
        const body = await sources.image(Number(pathname.slice('/image/'.length)));
        const image = JSON.parse(body) as ShellImage;
        links.push(
          `<link rel="preload" as="image" imagesrcset="${escapeHtml(largeImageSources(image))}" imagesizes="${LARGE_IMAGE_SIZES}" fetchpriority="high">`,
        );
        main = imageShell(image);
        data = `{"path":${JSON.stringify(pathname)},"image":${body}}`;
        shown = image;
      }
    } catch {
      // A missing image or a failing database: the page says so itself, without a hint.
      main = '';
      data = '';
      shown = undefined;
    }
    links.push(linkPreview(sources.siteUrl, pathname, shown));
  }
  // The app's chunks, then the page's (index.html names only its small entry).
  const chunks = [
    ...preloads(pageChunks.get(APP) ?? []),
    ...preloads(pageChunks.get(route.page) ?? []),
  ];
  // With a picture drawn, the chunks wait in an inert <template> that web/src/boot.ts puts in
  // the document once the picture is painted: on a slow network the picture no longer shares
  // the bandwidth with 150 KB of JavaScript (goal 8: the mobile LCP).
  if (main !== '' && chunks.length > 0) {
    links.push(`<template id="first-screen-chunks">${chunks.join('')}</template>`);
  } else {
    links.push(...chunks);
  }
  // Login and registration have no header (SPEC §2): nothing to draw before their script.
  const root = route.layout === 'bare' ? '' : shell(main, route.layout === 'strip');
  if (root !== '') links.push(`<style id="first-screen-css">${SHELL_CSS}</style>`);
  return {
    head: links.join('\n    '),
    title: shown === undefined ? '' : pageTitle(imageTitle(shown)),
    root,
    data:
      data === ''
        ? ''
        : `<script type="application/json" id="first-screen-data">${jsonForScript(data)}</script>`,
  };
}
