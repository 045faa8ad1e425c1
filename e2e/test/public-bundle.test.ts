import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSession, VIEWPORTS } from './harness.js';
import { demoSuite, PUBLIC_VISITS } from './routes.js';

/*
 * Issue 8, goal 8, held by CI: a first visit to any public page loads at most 150 KB of
 * JavaScript as the browser receives it (brotli), and never the back-office's code (the Data
 * Grid, the charts, the admin shell), whoever visits. `npm run bench:bundle` prints each page's
 * figure from the build; this counts what Chromium actually downloads, lazy chunks a page asks
 * for while it starts included, and fails the run when a change crosses the line.
 */

const BUDGET_BYTES = 150 * 1024;
/** Text that only the back-office chunks hold: the Data Grid, the charts, the admin shell. */
const ADMIN_MARKERS = ['MuiDataGrid', 'MuiCharts', 'Apri il menu', 'Dashboard Amministratore'];

const suite = demoSuite();

interface Script {
  url: string;
  /** The body's bytes as they came over the wire, compressed when the server compressed it. */
  bytes: number;
  encoding: string | undefined;
  /** The HTTP status: a chunk the server lacks comes back as a small JSON 404. */
  status: number;
}

/**
 * Every script the page receives from now on, with its size as received, and those that
 * failed to load (which the sum would leave out, or count as an error page's bytes).
 */
function recordScripts(page: Page): { scripts: Promise<Script>[]; failed: string[] } {
  const scripts: Promise<Script>[] = [];
  const failed: string[] = [];
  page.on('requestfailed', (request) => {
    if (request.resourceType() !== 'script') return;
    failed.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        url: request.url(),
        bytes: sizes.responseBodySize,
        encoding: response?.headers()['content-encoding'],
        status: response?.status() ?? 0,
      })),
    );
  });
  return { scripts, failed };
}

/** What each script URL holds of the back-office; asked once per URL, shared across tests. */
const markerScans = new Map<string, Promise<string[]>>();

function markersAt(url: string): Promise<string[]> {
  let scan = markerScans.get(url);
  if (scan === undefined) {
    scan = fetch(url)
      .then((response) => {
        if (!response.ok) throw new Error(`${url} answered ${String(response.status)}`);
        return response.text();
      })
      .then((body) => ADMIN_MARKERS.filter((marker) => body.includes(marker)));
    // A failed read fails its own test, and the next test that loads the script reads it anew.
    scan.catch(() => markerScans.delete(url));
    markerScans.set(url, scan);
  }
  return scan;
}

async function adminMarkersIn(scripts: readonly Script[]): Promise<string[]> {
  const found = await Promise.all(
    scripts.map(async ({ url }) => (await markersAt(url)).map((marker) => `${url}: ${marker}`)),
  );
  return found.flat();
}

/** A first visit (empty cache) to `path` at `viewport`, with the scripts it loaded. */
async function firstVisit(
  token: string | null,
  path: string,
  viewport: { width: number; height: number },
): Promise<Script[]> {
  const { context, page } = await openSession(suite.browser, suite.server.url, token, { viewport });
  try {
    const { scripts, failed } = recordScripts(page);
    await page.goto(`${suite.server.url}${path}`);
    await page.waitForLoadState('networkidle');
    // The page is the one asked for, not a redirect to another.
    expect(new URL(page.url()).pathname).toBe(path.split(/[?#]/)[0]);
    const received = await Promise.all(scripts);
    failed.push(
      ...received
        .filter(({ status }) => status < 200 || status > 299)
        .map(({ url, status }) => `${url}: ${String(status)}`),
    );
    expect(failed, `scripts that failed to load on ${path}`).toEqual([]);
    return received;
  } finally {
    await context.close();
  }
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('the public bundle', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    // One test per visit, so each has the whole test timeout and a failure names its page.
    describe(`${name}: at most 150 KB of JavaScript on a first load, no back-office code`, () => {
      for (const [who, route] of PUBLIC_VISITS) {
        it(`${route} (${who})`, async () => {
          const path = suite.demo.pathOf(route);
          const scripts = await firstVisit(suite.demo.tokenOf(who), path, viewport);
          const bytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
          const label = `${path} for a ${who}: ${kilobytes(bytes)} in ${String(scripts.length)} scripts`;
          expect(bytes, label).toBeLessThanOrEqual(BUDGET_BYTES);
          // The sizes are the compressed ones: React alone is over 50 KB as brotli, three
          // times that plain, so a page that measured less than it measured nothing.
          expect(bytes, label).toBeGreaterThan(50 * 1024);
          const largest = scripts.reduce((a, b) => (b.bytes > a.bytes ? b : a));
          expect(largest.encoding, label).toBe('br');
          await expect(adminMarkersIn(scripts), label).resolves.toEqual([]);
        });
      }
    });
  }

  it('would see the back-office code: its markers are in what the admin pages load', async () => {
    const found = new Set<string>();
    for (const path of ['/admin/dashboard', '/admin/users']) {
      const scripts = await firstVisit(
        suite.demo.tokenOf('administrator'),
        path,
        VIEWPORTS.desktop,
      );
      for (const hit of await adminMarkersIn(scripts)) found.add(hit.split(': ').at(-1) ?? '');
    }
    expect([...found].sort()).toEqual([...ADMIN_MARKERS].sort());
  });
});
