import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { acceptedEncoding, COMPRESS_FROM_BYTES, compressNow } from '../lib/content-encoding.js';
import { MESSAGES } from '../lib/errors.js';
import {
  firstScreen,
  readPageChunks,
  type FirstScreen,
  type FirstScreenSources,
} from './first-screen.js';
import { escapeHtml } from './first-screen-shell.js';

/**
 * The single origin of D1: the built web app's files, and its index.html for every other GET
 * that accepts HTML (client-side routes). Unknown /api and /static paths stay JSON 404s.
 */
export const webAppPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      webDistDir: string;
      /** Where the first screen's picture comes from (first-screen.ts); no picture hint without. */
      firstScreen?: FirstScreenSources;
    },
  ) => {
    const indexFile = path.join(options.webDistDir, 'index.html');
    const built = fs.existsSync(indexFile);
    // Read once: a deploy restarts the server, and every navigation is answered from memory.
    const indexHtml = built ? fs.readFileSync(indexFile, 'utf8') : '';
    const pageChunks = built ? readPageChunks(options.webDistDir) : new Map<string, string[]>();

    if (built) {
      await app.register(fastifyStatic, {
        root: options.webDistDir,
        // Routes for the files present at start: no file-system lookup for other URLs.
        wildcard: false,
        index: false,
        serveDotFiles: false,
        // The build leaves .br and .gz copies of the text assets (web/vite.config.ts): sent,
        // with Vary: Accept-Encoding, to a browser that accepts them.
        preCompressed: true,
        cacheControl: false,
        // reply.sendFile is decorated by the image files' registration; roots are passed per call.
        decorateReply: false,
        setHeaders(reply, filePath) {
          reply.header('cache-control', cacheControlFor(filePath, options.webDistDir));
        },
      });
    } else {
      app.log.warn({ indexFile }, 'web app not built: run "npm run build" to serve it');
    }

    app.setNotFoundHandler(async (request, reply) => {
      if (isAppPage(request)) {
        if (built) {
          const pathname = request.url.split('?', 1)[0] ?? '/';
          const first = await firstScreen(pathname, pageChunks, options.firstScreen, indexHtml);
          const html = withFirstScreen(indexHtml, first);
          // index.html names the current assets: always revalidate, so a deploy shows at once.
          reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
          // Compressed per answer (the first screen differs per page): 40 KB of markup, CSS and
          // data become about 9, which a phone on slow 4G receives before its first paint.
          const encoding = acceptedEncoding(request.headers['accept-encoding']);
          reply.header('vary', 'accept-encoding');
          if (encoding === undefined || html.length < COMPRESS_FROM_BYTES) return reply.send(html);
          return reply.header('content-encoding', encoding).send(compressNow(html, encoding));
        }
        return reply
          .status(503)
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(NOT_BUILT_PAGE);
      }
      return reply.status(404).send({ detail: MESSAGES.notFound });
    });
  },
  { name: 'web-app' },
);

/** index.html with a page's first screen: hints in <head>, the shell in #root, its data after. */
function withFirstScreen(html: string, first: FirstScreen): string {
  let page = html;
  if (first.title !== '') {
    page = page.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(first.title)}</title>`);
  }
  if (first.head !== '') page = page.replace('</head>', () => `  ${first.head}\n  </head>`);
  if (first.root !== '' || first.data !== '') {
    // Functions as replacements: a `$&` in a title must stay text, not a replacement pattern.
    page = page.replace(
      '<div id="root"></div>',
      () => `<div id="root">${first.root}</div>${first.data}`,
    );
  }
  return page;
}

function cacheControlFor(filePath: string, webDistDir: string): string {
  // Vite puts a content hash in every asset name: they never change, cache them for good.
  if (filePath.startsWith(path.join(webDistDir, 'assets') + path.sep)) {
    return 'public, max-age=31536000, immutable';
  }
  // index.html names the current assets: always ask the server, so a deploy shows at once.
  if (filePath === path.join(webDistDir, 'index.html')) return 'no-cache';
  return 'public, max-age=0, must-revalidate';
}

/**
 * A navigation to a client-side route. API, image and asset paths never are: a missing asset
 * answered with index.html would fail in the browser with a confusing parse error.
 */
function isAppPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0] ?? '/';
  if (/^\/(api|static|assets)(\/|$)/.test(pathname)) return false;
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>Muri Parlanti</title></head>
<body><h1>Muri Parlanti</h1><p>L’applicazione web non è ancora stata compilata:
esegui <code>npm run build</code> e riavvia il server.</p></body></html>`;
