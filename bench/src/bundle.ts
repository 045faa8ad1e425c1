import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readPageChunks } from '../../server/src/plugins/first-screen.js';
import { buildWeb } from './demo-site.js';
import { callerPath } from './options.js';

/*
 * `npm run bench:bundle -- [--web <dir>]`
 *
 * Issue 8, goal 8: the JavaScript a first visit to each public page loads, from the build's
 * manifest, counted as the server sends it to a browser that takes brotli: the build's `.br`
 * copy of each file (quality 11), or the file where brotli would not make it smaller. A first
 * visit loads index.html's entry (boot.ts), the chunks boot.ts always imports (React, core,
 * MUI), the app (main.tsx) and the page's chunk, each with every chunk it imports statically.
 * What a page loads later (a menu, a dialog, the categories drawer) is not counted: it is not
 * first-load. Lighthouse (`bench:lighthouse`) measures two pages in a browser and the browser
 * tests (e2e/test/public-bundle.test.ts) hold every page to the goal; this prints every page's
 * figure in seconds. Prints each page's size against the 150 KB goal and whether any back-office
 * chunk (Data Grid, Charts) is among it. Exits with 1 when a public page misses either.
 */

const { values } = parseArgs({
  options: {
    /** A web app built before (`npx vite build --outDir <dir>`) instead of the working tree's. */
    web: { type: 'string' },
  },
});
const GOAL_BYTES = 150 * 1024;
const ADMIN_CHUNK = /Admin|DataGrid|charts/i;
const say = (text: string) => process.stdout.write(`${text}\n`);

interface EntryChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** The entry's chunk and the chunks it always imports, dynamically or not (boot.ts's steps). */
function entryFiles(webDir: string): string[] {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(webDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, EntryChunk>;
  const entry = manifest['index.html'];
  if (entry === undefined) throw new Error('the manifest has no index.html entry');
  const files = [`/${entry.file}`];
  // main.tsx is the app, counted through readPageChunks with what it imports.
  for (const key of [...(entry.imports ?? []), ...(entry.dynamicImports ?? [])]) {
    const chunk = manifest[key];
    if (chunk !== undefined && key !== 'src/main.tsx') files.push(`/${chunk.file}`);
  }
  return files;
}

function main(): void {
  const webDir = values.web === undefined ? buildWeb() : callerPath(values.web);
  try {
    const sizes = new Map<string, { raw: number; sent: number }>();
    const sizeOf = (file: string) => {
      let size = sizes.get(file);
      if (size === undefined) {
        const full = path.join(webDir, file);
        // What the server sends a browser that takes brotli: the build's copy where it made
        // one (smaller files too, web/vite.config.ts), else the file itself.
        size = {
          raw: fs.statSync(full).size,
          sent: fs.statSync(fs.existsSync(`${full}.br`) ? `${full}.br` : full).size,
        };
        sizes.set(file, size);
      }
      return size;
    };
    // A build without the compression plugin's copies would be counted plain and look heavy.
    const assets = path.join(webDir, 'assets');
    if (!fs.existsSync(assets) || !fs.readdirSync(assets).some((name) => name.endsWith('.js.br'))) {
      say(`warning: ${assets} holds no .br copies; sizes below are uncompressed`);
    }
    const pages = readPageChunks(webDir);
    const shared = new Set([...entryFiles(webDir), ...(pages.get('(app)') ?? [])]);
    say('\npage               files   JS raw   JS as sent  goal (150 KB)  admin code');
    let missed = 0;
    for (const [page, chunks] of [...pages].sort(([a], [b]) => a.localeCompare(b))) {
      if (page === '(app)') continue;
      const files = new Set([...shared, ...chunks]);
      let raw = 0;
      let sent = 0;
      for (const file of files) {
        raw += sizeOf(file).raw;
        sent += sizeOf(file).sent;
      }
      const admin = [...files].some((file) => ADMIN_CHUNK.test(file));
      const met = sent <= GOAL_BYTES && !admin;
      if (!met) missed += 1;
      say(
        [
          page.padEnd(18),
          String(files.size).padStart(5),
          `${(raw / 1024).toFixed(1)} KB`.padStart(9),
          `${(sent / 1024).toFixed(1)} KB`.padStart(12),
          (sent <= GOAL_BYTES ? 'met' : 'MISSED').padStart(14),
          admin ? '  LOADED' : '  none',
        ].join(' '),
      );
    }
    say(`\n${String(pages.size - 1)} public pages, ${String(missed)} missing the goal`);
    if (missed > 0) process.exitCode = 1;
  } finally {
    if (values.web === undefined) fs.rmSync(webDir, { recursive: true, force: true });
  }
}

main();
