import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { createTestDatabase } from '../../server/test/helpers/database.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOT_DIR = path.join(repoRoot, 'e2e', 'test-results');

export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** Any window size; VIEWPORTS holds the two every screen is checked at. */
export interface Viewport {
  width: number;
  height: number;
}

export interface RunningServer {
  url: string;
  /** The server's DATA_DIR: its outbox holds the e-mails it wrote (no SMTP_URL here). */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The built server (`npm run build` first), as `npm start` runs it, on a free port with a
 * fresh data folder. PostgreSQL is used when TEST_DATABASE_URL is set, like the server suite.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const entry = path.join(repoRoot, 'server', 'dist', 'main.js');
  const webDist = process.env['E2E_WEB_DIST'] ?? path.join(repoRoot, 'web', 'dist');
  if (!fs.existsSync(entry) || !fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('The app is not built: run "npm run build" before the end-to-end tests');
  }
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'muri-e2e-'));
  const database = await createTestDatabase(dataDir);
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_CONTENT: '0',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'admin-password',
      LOG_LEVEL: 'info',
      // A web build elsewhere (several people building at once) when E2E_WEB_DIST is set.
      ...(process.env['E2E_WEB_DIST'] === undefined
        ? {}
        : { WEB_DIST_DIR: process.env['E2E_WEB_DIST'] }),
      ...(database.config.kind === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Demo content is rendered before the server listens.
  const url = await listeningUrl(child, env['DEMO_CONTENT'] === '1' ? 120_000 : 30_000);
  return {
    url,
    dataDir,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await database.drop();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The server with a small demo gallery (DEMO_IMAGES photos, demo users, reactions, pending and
 * rejected uploads, duplicates), as a newcomer's `npm start` shows it, only smaller, background
 * analysis included: its reading process runs at the lowest CPU priority, so the browser and
 * the server come first.
 */
export function startDemoServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({
    DEMO_CONTENT: '1',
    DEMO_IMAGES: '40',
    RATE_LIMITS: '0',
    ...env,
  });
}

function listeningUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`server did not start:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)}:\n${output}`));
    });
  });
}

/** Debian's Chromium, headless, with nothing that reaches for the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Waits until no transition or animation runs: a drawer slid in, a menu faded out. */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

/** Saves a screenshot under e2e/test-results for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await fsp.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Ticks a Data Grid row's checkbox. Playwright's check() reads the box once, right after its
 * click, and on a busy machine a grid's box was still unticked at that moment (CI, 2026-11-28:
 * 'Clicking the checkbox did not change its state'). This clicks the box it found and, once a
 * click landed, only waits (up to ten seconds) for the tick: the grid has run its handler, and
 * a second click would untick the row. A click refused (the row drawn anew under it, the box
 * covered) is tried again on the box found then.
 */
export async function tickRow(box: Locator): Promise<void> {
  const ticked = () => box.isChecked({ timeout: 1000 }).catch(() => false);
  let refusal: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await ticked()) return;
    const clicked = await box.elementHandle();
    try {
      // The handle, not the locator: a row drawn anew after the look above refuses the click
      // instead of taking it unwatched.
      await clicked.click({ timeout: 5000 });
    } catch (error) {
      refusal = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    } finally {
      await clicked.dispose();
    }
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      if (await ticked()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the row’s checkbox stayed unticked ten seconds after its click');
  }
  throw new Error('the row’s checkbox refused three clicks', { cause: refusal });
}

/**
 * A fresh browser profile, logged in with `token` the way the app keeps a session (token and
 * user in localStorage), or anonymous when `token` is null. The session is written once per
 * tab, before the app starts, so a logout in the test stays a logout on reload.
 */
export async function openSession(
  browser: Browser,
  baseUrl: string,
  token: string | null,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, ...options });
  if (token !== null) {
    const response = await fetch(`${baseUrl}/api/users/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`/users/me answered ${response.status}`);
    await context.addInitScript(
      ([value, user]) => {
        if (sessionStorage.getItem('e2e.session') !== null) return;
        sessionStorage.setItem('e2e.session', '1');
        localStorage.setItem('muri.token', value);
        localStorage.setItem('muri.user', user);
      },
      [token, await response.text()] as const,
    );
  }
  return { context, page: await context.newPage() };
}

const LIVE_REGION = '[role="status"], [role="alert"], [aria-live]';

/**
 * Remembers the live regions now in the page. A screen reader announces the text that enters
 * a region already there; a region drawn together with its text is, for most, silent.
 */
export async function rememberLiveRegions(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    (window as unknown as { e2eLiveRegions: WeakSet<Element> }).e2eLiveRegions = new WeakSet(
      Array.from(document.querySelectorAll(selector)),
    );
  }, LIVE_REGION);
}

/**
 * Whether the element holding `text` sits in a live region that rememberLiveRegions saw, that
 * is, whether the text was announced when it came.
 */
export async function announcedFromBefore(page: Page, text: string): Promise<boolean> {
  return page.evaluate(
    ([selector, wanted]) => {
      const regions = (window as unknown as { e2eLiveRegions?: WeakSet<Element> }).e2eLiveRegions;
      const holders = Array.from(document.querySelectorAll('body *')).filter(
        (element) =>
          element.textContent.includes(wanted) &&
          !Array.from(element.children).some((child) => child.textContent.includes(wanted)),
      );
      return (
        holders.length > 0 &&
        holders.every((holder) => {
          const region = holder.closest(selector);
          return region !== null && regions?.has(region) === true;
        })
      );
    },
    [LIVE_REGION, text] as const,
  );
}
