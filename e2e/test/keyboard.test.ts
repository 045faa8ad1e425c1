import type { Browser, Page } from 'playwright-core';
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
 * A keyboard's way through the frame of every page: the first Tab offers to skip the header,
 * the category strip (up to 50 chips, SPEC §2) and the back-office's side navigation.
 */

let server: RunningServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  // A strip with chips in it (categories with public pictures), which a keyboard would
  // otherwise go through one by one.
  const user = await registerUser(server.url);
  for (const name of ['Amore', 'Calcio', 'Poesia', 'Protesta']) {
    const categoryId = await createCategory(server.url, adminToken, name);
    await publish(server.url, user, adminToken, `Muro ${name}`, { categoryId });
  }
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName ?? null);
const focusInMain = (page: Page) =>
  page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false);

/** First Tab: 'Vai al contenuto', on screen; Enter: the content; next Tab: inside it. */
async function skipsToContent(page: Page, shot: string): Promise<void> {
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Vai al contenuto' });
  await expect(skip.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
  const box = await skip.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.width ?? 0).toBeGreaterThan(40);
  expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
  await screenshot(page, shot);
  await page.keyboard.press('Enter');
  await expect(focusedTag(page)).resolves.toBe('MAIN');
  await page.keyboard.press('Tab');
  await expect(focusInMain(page)).resolves.toBe(true);
}

describe('the skip link', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`skips the header and the category strip on a public page (${name})`, async () => {
      const { context, page } = await openSession(browser, server.url, null, { viewport });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/tags`);
      await page.getByRole('link', { name: /^Amore/ }).waitFor();
      await page.getByRole('heading', { name: 'Tag disponibili' }).waitFor();
      await skipsToContent(page, `keyboard-skip-public-${name}`);
      // The page did not move to another address on the way.
      expect(new URL(page.url()).pathname).toBe('/tags');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("skips the back-office's side navigation", async () => {
    const { context, page } = await openSession(browser, server.url, adminToken);
    await page.goto(`${server.url}/admin/categories`);
    await page.getByRole('heading', { name: 'Gestione Categorie' }).waitFor();
    await skipsToContent(page, 'keyboard-skip-admin-desktop');
    await context.close();
  });
});

describe("a gallery's order", () => {
  it('goes from a picture to the one beside it, row after row, not down a whole column', async () => {
    // Two lanes on a phone: four pictures make two rows of two.
    const { context, page } = await openSession(browser, server.url, null, {
      viewport: VIEWPORTS.phone,
    });
    await page.goto(server.url);
    const gallery = page.locator('section[aria-labelledby="home-all"]');
    await gallery.scrollIntoViewIfNeeded();
    const pictures = gallery.locator('a[href^="/image/"]');
    await expect.poll(() => pictures.count()).toBe(4);
    const boxes = await pictures.evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect();
        return { x: Math.round(box.x), y: Math.round(box.y) };
      }),
    );
    // In the document (the focus's and a screen reader's order): left, right, then the next row.
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x);
    expect(boxes[2]!.x).toBe(boxes[0]!.x);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
    expect(boxes[3]!.x).toBe(boxes[1]!.x);
    // And by the keyboard: Tab from the first picture reaches the one beside it.
    await pictures.first().focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    expect(focused).toBe(await pictures.nth(1).getAttribute('href'));
    await screenshot(page, 'keyboard-gallery-order-phone');
    await context.close();
  });
});
