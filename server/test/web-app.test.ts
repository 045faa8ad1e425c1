import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
let webDistDir: string;
const INDEX =
  '<!doctype html><html lang="it"><head><title>Muri Parlanti</title>' +
  '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
/** The part of Vite's manifest the server reads: page chunks and what they import. */
const MANIFEST = {
  'index.html': { file: 'assets/index-abc123.js', isEntry: true },
  '_shared-111.js': { file: 'assets/shared-111.js', imports: ['index.html'] },
  'src/pages/HomePage.tsx': {
    file: 'assets/HomePage-222.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared-111.js'],
  },
  'src/pages/TagsPage.tsx': { file: 'assets/TagsPage-333.js', imports: ['index.html'] },
};
const BIG = 'export const muri = ' + JSON.stringify('scritta '.repeat(500)) + ';\n';

beforeAll(async () => {
  // A stand-in for the built web app, so these tests do not depend on `npm run build`.
  webDistDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-web-'));
  await fs.mkdir(path.join(webDistDir, 'assets'));
  await fs.writeFile(path.join(webDistDir, 'index.html'), INDEX);
  await fs.writeFile(path.join(webDistDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  // The copies the build makes of larger assets (web/vite.config.ts).
  await fs.writeFile(path.join(webDistDir, 'assets', 'big-def456.js'), BIG);
  await fs.writeFile(
    path.join(webDistDir, 'assets', 'big-def456.js.br'),
    zlib.brotliCompressSync(BIG),
  );
  await fs.writeFile(path.join(webDistDir, 'assets', 'big-def456.js.gz'), zlib.gzipSync(BIG));
  await fs.writeFile(path.join(webDistDir, 'favicon.svg'), '<svg/>');
  await fs.mkdir(path.join(webDistDir, '.vite'));
  await fs.writeFile(path.join(webDistDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  t = await buildTestApp({ webDistDir });
});
afterAll(async () => {
  await t.close();
  await fs.rm(webDistDir, { recursive: true, force: true });
});

describe('single origin (D1)', () => {
  it.each(['/image/42', '/user/me?tab=liked', '/admin/dashboard', '/una/pagina/ignota'])(
    'serves index.html for the client-side route %s',
    async (url) => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    },
  );

  it("names a page's chunks in index.html, so they load with the entry (goal 8)", async () => {
    const home = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(home.statusCode).toBe(200);
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(home.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/HomePage-222.js">',
    );
    expect(home.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/shared-111.js">',
    );
    // The entry is already there, once; no picture to hint in an empty catalogue.
    expect(home.body.split('/assets/index-abc123.js')).toHaveLength(2);
    expect(home.body).not.toContain('as="image"');
    expect(home.body.indexOf('modulepreload')).toBeLessThan(home.body.indexOf('</head>'));

    const tags = await t.app.inject({
      method: 'GET',
      url: '/tags?q=muro',
      headers: { accept: '*/*' },
    });
    expect(tags.body).toContain('href="/assets/TagsPage-333.js"');
    expect(tags.body).not.toContain('HomePage');
  });

  it('never serves the build manifest', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/.vite/manifest.json',
      headers: { accept: '*/*' },
    });
    expect(response.body).not.toContain('src/pages');
  });

  it('serves built assets with long-lived caching', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('sends the brotli or gzip copy of an asset to a browser that accepts it', async () => {
    const url = '/assets/big-def456.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);

    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(BIG);

    const plain = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('keeps unknown files, image paths and non-GET requests out of the web app', async () => {
    for (const [method, url, accept, detail] of [
      ['GET', '/assets/missing.js', '*/*', 'Risorsa non trovata.'],
      ['GET', '/static/images/nothing.webp', 'text/html', 'Immagine non trovata'],
      ['GET', '/static/other/file.txt', 'text/html', 'Risorsa non trovata.'],
      ['GET', '/favicon.ico', 'image/avif,image/webp', 'Risorsa non trovata.'],
      ['POST', '/image/42', 'text/html', 'Risorsa non trovata.'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { accept } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ detail });
    }
  });

  it('never serves a file outside the web app through dot segments', async () => {
    for (const url of ['/static/images/../../etc/passwd', '/assets/..%2f..%2fetc%2fpasswd']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.body, url).not.toContain('root:');
    }
  });
});
