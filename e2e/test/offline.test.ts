import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, loginAdmin, publish, registerUser, type ApiUser } from './fixtures.js';
import {
  launchBrowser,
  openSession,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
} from './harness.js';

/*
 * The connection drops after the page is there, and the next screen's code has not been loaded
 * yet (every page, overlay and back-office screen is a chunk of its own). The app must stay
 * on its feet, say what happened, and not ask again and again.
 */

const FAILURE = 'Impossibile caricare la pagina. Controlla la connessione e riprova.';
const SEARCH_FAILURE = 'Impossibile caricare la ricerca. Controlla la connessione e riprova.';
const CATEGORIES_FAILURE = 'Impossibile caricare le categorie. Controlla la connessione e riprova.';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let categoryId: number;
let user: ApiUser;
let imageId: number;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  user = await registerUser(server.url);
  categoryId = await createCategory(server.url, adminToken, 'Amore');
  imageId = await publish(server.url, user, adminToken, 'Muro Amore', { categoryId });
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

/** Counts the requests for the app's scripts that failed. */
function failedScripts(page: Page): { count: () => number } {
  let count = 0;
  page.on('requestfailed', (request) => {
    if (request.url().includes('/assets/')) count += 1;
  });
  return { count: () => count };
}

async function open(token: string | null): Promise<{ context: BrowserContext; page: Page }> {
  return openSession(browser, server.url, token, { viewport: VIEWPORTS.phone });
}

/**
 * The image's page in a session of its own (`token`'s, or anonymous for null), settled: its
 * 'Mi piace' drawn and nothing more in flight. `prepare` runs before the page is opened.
 */
async function openImagePage(
  token: string | null,
  viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS],
  prepare: (page: Page) => void = () => undefined,
) {
  const { context, page } = await openSession(browser, server.url, token, { viewport });
  prepare(page);
  await page.goto(`${server.url}/image/${imageId}`);
  const like = page.getByRole('button', { name: /^Mi piace/ });
  await like.waitFor();
  await page.waitForLoadState('networkidle');
  return { context, page, like };
}

describe('offline, a screen whose code is not loaded yet', () => {
  it('is told in the page, with Riprova, and asked for a bounded number of times', async () => {
    const { context, page } = await open(null);
    await page.goto(`${server.url}/tags`);
    await page.getByRole('heading', { name: 'Tag disponibili' }).waitFor();
    const failed = failedScripts(page);
    await context.setOffline(true);
    await page.getByRole('link', { name: /^Amore/ }).click();
    const main = page.getByRole('main');
    await main.getByText(FAILURE).waitFor({ timeout: 5000 });
    // The header is still there to go elsewhere.
    await expect(page.getByRole('link', { name: 'Muri Parlanti' }).isVisible()).resolves.toBe(true);
    await page.waitForTimeout(1000);
    expect(failed.count()).toBeLessThan(10);
    await screenshot(page, 'offline-page-phone');
    // Back online, 'Riprova' brings the page.
    await context.setOffline(false);
    await main.getByRole('button', { name: 'Riprova' }).click();
    await page.getByRole('heading', { name: 'Amore' }).waitFor();
    await context.close();
  });

  it("says so when the search overlay's code cannot come, and opens it once back online", async () => {
    const { context, page } = await open(null);
    await page.goto(`${server.url}/tags`);
    await page.getByRole('heading', { name: 'Tag disponibili' }).waitFor();
    const failed = failedScripts(page);
    await context.setOffline(true);
    const search = page.getByRole('button', { name: 'Cerca', exact: true });
    await search.click();
    const alert = page.getByRole('alert').filter({ hasText: SEARCH_FAILURE });
    await alert.waitFor({ timeout: 5000 });
    // The page and the header stay, and nobody asks again and again.
    await page.waitForTimeout(1000);
    expect(failed.count()).toBeLessThan(10);
    await expect(page.getByRole('heading', { name: 'Tag disponibili' }).isVisible()).resolves.toBe(
      true,
    );
    await screenshot(page, 'offline-search-phone');
    // Still offline, 'Riprova' asks once more and says it again; the focus stays near.
    const before = failed.count();
    await alert.getByRole('button', { name: 'Riprova' }).click();
    await alert.waitFor();
    await page.waitForTimeout(500);
    expect(failed.count() - before).toBeLessThan(10);
    await expect(search.evaluate((button) => button === document.activeElement)).resolves.toBe(
      true,
    );
    // Back online, 'Riprova' opens the overlay, without a reload, its field ready to type in.
    await context.setOffline(false);
    await alert.getByRole('button', { name: 'Riprova' }).click();
    const field = page.getByRole('textbox', { name: 'Cerca immagini, utenti, categorie...' });
    await field.waitFor();
    await expect(field.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    await expect(alert.count()).resolves.toBe(0);
    await field.fill('Amore');
    await field.press('Enter');
    await page.waitForURL(/\/search\?q=Amore$/);
    await context.close();
  });

  it("says so when the categories drawer's code cannot come, and its button opens it later", async () => {
    const { context, page } = await openSession(browser, server.url, null, {
      viewport: VIEWPORTS.desktop,
    });
    await page.goto(`${server.url}/tags`);
    await page.getByRole('heading', { name: 'Tag disponibili' }).waitFor();
    await context.setOffline(true);
    const button = page.getByRole('button', { name: 'Categorie', exact: true });
    await button.click();
    const alert = page.getByRole('alert').filter({ hasText: CATEGORIES_FAILURE });
    await alert.waitFor({ timeout: 5000 });
    await screenshot(page, 'offline-categories-desktop');
    // 'Chiudi' puts the message away and gives the focus back to the button.
    await alert.getByRole('button', { name: 'Chiudi' }).click();
    await alert.waitFor({ state: 'detached' });
    await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    // Back online, the button itself opens the drawer.
    await context.setOffline(false);
    await button.click();
    const drawer = page.getByRole('navigation', { name: 'Tutte le categorie' });
    await drawer.getByRole('link', { name: /Amore/ }).waitFor();
    await context.close();
  });

  it('keeps the side navigation of the back-office', async () => {
    const { context, page } = await openSession(browser, server.url, adminToken);
    await page.goto(`${server.url}/admin/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard Amministratore' }).waitFor();
    await context.setOffline(true);
    const navigation = page.getByRole('navigation', { name: 'Amministrazione' });
    await navigation.getByRole('link', { name: 'Categorie' }).click();
    await page.getByRole('main').getByText(FAILURE).waitFor({ timeout: 5000 });
    await expect(navigation.isVisible()).resolves.toBe(true);
    await screenshot(page, 'offline-admin-desktop');
    await context.setOffline(false);
    await context.close();
  });
});

describe('a first request that met a network drop', () => {
  it("offers 'Riprova' on a category page, which brings the category", async () => {
    const { context, page } = await open(null);
    // The first try and the automatic second one (worthRetrying).
    let drops = 2;
    await page.route(`**/api/categories/${categoryId}`, async (route) => {
      if (drops > 0) {
        drops -= 1;
        await route.abort('internetdisconnected');
      } else {
        await route.continue();
      }
    });
    await page.goto(`${server.url}/category/${categoryId}`);
    const retry = page.getByRole('main').getByRole('button', { name: 'Riprova' });
    await retry.waitFor({ timeout: 10_000 });
    await screenshot(page, 'offline-category-retry-phone');
    await retry.click();
    await page.getByRole('heading', { name: 'Amore' }).waitFor();
    await context.close();
  });
});

describe('offline, a piece beside the page whose code is not loaded yet', () => {
  it("keeps the home page when 'Torna su' cannot come, and shows it once back online", async () => {
    // Short, so that one picture is enough to scroll past 'Torna su''s 200 px.
    const { context, page } = await openSession(browser, server.url, null, {
      viewport: { width: 390, height: 400 },
    });
    await page.goto(`${server.url}/`);
    const all = page.getByRole('heading', { name: 'Tutte le nostre immagini' });
    await all.waitFor();
    await page.waitForLoadState('networkidle');
    const failed = failedScripts(page);
    await context.setOffline(true);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => window.scrollY > 200);
    await page.waitForTimeout(1000);
    // Before, the whole gallery gave way to 'Impossibile caricare la pagina'.
    await expect(page.getByRole('main').getByText(FAILURE).count()).resolves.toBe(0);
    await expect(all.isVisible()).resolves.toBe(true);
    expect(failed.count()).toBeLessThan(10);
    // Back online, the next time the page is scrolled down the button comes.
    await context.setOffline(false);
    await page.mouse.wheel(0, -2000);
    await page.waitForFunction(() => window.scrollY === 0);
    await page.mouse.wheel(0, 600);
    await page.getByRole('button', { name: 'Torna su' }).waitFor({ timeout: 5000 });
    await context.close();
  });

  it("tells a reaction's failure even when the snackbar's code cannot come", async () => {
    const { context, page, like } = await openImagePage(user.token, VIEWPORTS.phone);
    // A network that lets the page's API calls through but neither the like nor any chunk.
    await page.route('**/assets/**', (route) => route.abort('internetdisconnected'));
    await page.route(`**/api/images/${imageId}/interactions`, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await like.click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Errore durante il like' })
      .waitFor({ timeout: 5000 });
    await expect(page.getByRole('main').getByText(FAILURE).count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: 'Muro Amore' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'offline-reaction-failure-phone');
    await context.close();
  });

  it("gives a reaction's label once back online, after a failed load offline, quietly", async () => {
    const errors: string[] = [];
    const { context, page, like } = await openImagePage(null, VIEWPORTS.desktop, (opened) =>
      opened.on('pageerror', (error) => errors.push(error.message)),
    );
    const failed = failedScripts(page);
    await context.setOffline(true);
    await like.hover();
    await page.waitForTimeout(1000);
    const label = page.getByRole('tooltip', { name: 'Mi piace' });
    await expect(label.count()).resolves.toBe(0);
    // One attempt for one pointing, and no unhandled rejection for it.
    expect(failed.count()).toBeLessThan(10);
    expect(errors).toEqual([]);
    // Back online, the next pointing asks again and the label comes, without a reload.
    await context.setOffline(false);
    await page.mouse.move(0, 0);
    await like.hover();
    await label.waitFor({ timeout: 5000 });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('offline, an action', () => {
  /** The viewer's own like on the image, as the server has it. */
  const liked = async (): Promise<boolean> => {
    const response = await fetch(`${server.url}/api/images/${imageId}/interactions`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    return ((await response.json()) as { is_liked: boolean }).is_liked;
  };

  it('is refused at once in Italian, and not applied later when the network is back', async () => {
    const { context, page, like } = await openImagePage(user.token, VIEWPORTS.phone);
    const before = await like.getAttribute('aria-label');
    const wasLiked = await liked();
    await context.setOffline(true);
    await like.click();
    // Told at once, with the words of any failed like (React Query held it silently before).
    await page
      .getByRole('alert')
      .filter({ hasText: 'Errore durante il like' })
      .waitFor({ timeout: 3000 });
    await expect(like.getAttribute('aria-label')).resolves.toBe(before);
    // Back online, nothing is sent behind the reader's back.
    await context.setOffline(false);
    await page.waitForTimeout(1500);
    await expect(liked()).resolves.toBe(wasLiked);
    await expect(like.getAttribute('aria-label')).resolves.toBe(before);
    await context.close();
  });
});
