import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, loginAdmin, publish, registerUser } from './fixtures.js';
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

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let categoryId: number;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  const user = await registerUser(server.url);
  categoryId = await createCategory(server.url, adminToken, 'Amore');
  await publish(server.url, user, adminToken, 'Muro Amore', { categoryId });
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

  it("keeps the app when the search overlay's code cannot come", async () => {
    const { context, page } = await open(null);
    await page.goto(`${server.url}/tags`);
    await page.getByRole('heading', { name: 'Tag disponibili' }).waitFor();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Cerca', exact: true }).click();
    await page.waitForTimeout(1000);
    await expect(page.getByRole('heading', { name: 'Tag disponibili' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(
      page.getByRole('button', { name: 'Cerca', exact: true }).isVisible(),
    ).resolves.toBe(true);
    await context.setOffline(false);
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
