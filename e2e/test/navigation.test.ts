import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openSession,
  screenshot,
  startDemoServer,
  VIEWPORTS,
  type RunningServer,
} from './harness.js';

/*
 * Moving through the gallery as a reader does: the home page's gallery loads its next page as
 * its end nears (a page is 120 pictures; the demo here has more), and back and forward land
 * where the reader left each page, even a page that comes back shorter than it was and grows
 * as its lists are drawn (the home page's gallery waits until its place nears the screen).
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // More public pictures than one page holds (about 150 of them).
  server = await startDemoServer({ DEMO_IMAGES: '160' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

async function openPhone(): Promise<{ context: BrowserContext; page: Page }> {
  return openSession(browser, server.url, null, { viewport: VIEWPORTS.phone });
}

const HOME_GALLERY = 'section[aria-labelledby="home-all"]';

/** The home page's gallery, drawn once the reader scrolls down near it. */
async function homeGallery(page: Page): Promise<Locator> {
  await page.goto(server.url);
  const section = page.locator(HOME_GALLERY);
  await section.waitFor({ state: 'attached' });
  await section.scrollIntoViewIfNeeded();
  const pictures = section.locator('a[href^="/image/"]');
  await pictures.first().waitFor();
  return pictures;
}

/**
 * The gallery's picture lowest on the page (a masonry grid's order in the document is not its
 * order down the page), held by its address: a page loaded meanwhile deals new pictures into
 * every lane, so the n-th link of the document may be another one a moment later.
 */
async function lowest(page: Page, gallery: Locator): Promise<{ picture: Locator; href: string }> {
  const found = await gallery.evaluateAll((links) => {
    const top = (link: Element) => link.getBoundingClientRect().top;
    const deepest = links.reduce((best, link) => (top(link) > top(best) ? link : best));
    return deepest.getAttribute('href') ?? '';
  });
  expect(found).toMatch(/^\/image\/\d+$/);
  return { picture: page.locator(`${HOME_GALLERY} a[href="${found}"]`), href: found };
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls so that `target` is near the top of the screen; answers the position. */
async function scrollTo(page: Page, target: Locator): Promise<number> {
  await target.evaluate((element) => {
    window.scrollBy(0, element.getBoundingClientRect().top - 80);
  });
  // The position is recorded from the scroll events, which the browser sends at its next frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return scrollY(page);
}

/** Waits until the page rests at `y` (within a pixel), or fails with where it is. */
async function expectAt(page: Page, y: number): Promise<void> {
  await page
    .waitForFunction((goal) => Math.abs(window.scrollY - goal) <= 1, y, { timeout: 5000 })
    .catch(() => undefined);
  expect(await scrollY(page)).toBeCloseTo(y, -1);
}

describe('the home page gallery', () => {
  it('loads the next pages as the reader nears the end, each picture once, up to the total', async () => {
    const { context, page } = await openPhone();
    const pages: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/api/images/' || url.pathname === '/api/images') {
        pages.push(`${String(response.status())} ${url.search}`);
      }
    });
    const total = (
      (await (await fetch(`${server.url}/api/images/?limit=1`)).json()) as {
        total: number;
      }
    ).total;
    expect(total).toBeGreaterThan(120);
    const gallery = await homeGallery(page);
    const ids = () =>
      gallery.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    for (let round = 0; round < 40 && (await gallery.count()) < total; round++) {
      await page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
      });
      await page.waitForTimeout(250);
    }
    const shown = await ids();
    expect(shown).toHaveLength(total);
    expect(new Set(shown).size).toBe(total);
    // Two pages of 120, the second asked for by the cursor the first handed out (goal 2).
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatch(/^200 .*cursor=/);
    expect(pages.every((line) => line.startsWith('200 '))).toBe(true);
    // Nothing more is asked for at the end.
    const asked = pages.length;
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(500);
    expect(pages).toHaveLength(asked);

    // Back from a picture of the second page: the grid, drawn anew a slice at a time, is
    // followed down to it.
    const { picture: last, href } = await lowest(page, gallery);
    const left = await scrollTo(page, last);
    await last.click();
    await page.waitForURL(`${server.url}${href}`);
    await page.getByRole('group', { name: 'Reazioni' }).waitFor();
    await page.goBack();
    await expectAt(page, left);
    await expect(last.isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe('back and forward', () => {
  it("return to a picture deep in the home page's gallery", async () => {
    const { context, page } = await openPhone();
    const gallery = await homeGallery(page);
    const count = await gallery.count();
    expect(count).toBeGreaterThan(12);
    // The picture lowest on the page, far below the carousels.
    const { picture: deep, href: target } = await lowest(page, gallery);
    const left = await scrollTo(page, deep);
    const carouselsEnd = await page.evaluate(
      () =>
        (document.getElementById('home-all')?.getBoundingClientRect().top ?? 0) + window.scrollY,
    );
    expect(left).toBeGreaterThan(carouselsEnd + 1000);

    await deep.click();
    await page.waitForURL(`${server.url}${target}`);
    await page.getByRole('group', { name: 'Reazioni' }).waitFor();
    // Opened from a scrolled gallery, a picture starts at its top.
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await expectAt(page, left);
    await expect(deep.isVisible()).resolves.toBe(true);
    await screenshot(page, 'navigation-back-home-gallery-phone');
    await context.close();
  });

  it("return to an image page's related pictures, and forward to the one opened", async () => {
    const { context, page } = await openPhone();
    const first = await (await homeGallery(page)).first().getAttribute('href');
    await page.goto(`${server.url}${first ?? ''}`);
    await page.getByRole('heading', { name: 'Immagini Correlate' }).waitFor();
    const related = page.locator('a[href^="/image/"]').nth(3);
    await related.waitFor();
    const left = await scrollTo(page, related);
    expect(left).toBeGreaterThan(500);

    const next = await related.getAttribute('href');
    await related.click();
    await page.waitForURL(`${server.url}${next ?? ''}`);
    await page.getByRole('group', { name: 'Reazioni' }).waitFor();
    expect(await scrollY(page)).toBe(0);
    await page.getByRole('heading', { name: 'Immagini Correlate' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const leftNext = await scrollY(page);
    expect(leftNext).toBeGreaterThan(300);

    await page.goBack();
    await page.waitForURL(`${server.url}${first ?? ''}`);
    await expectAt(page, left);
    await page.goForward();
    await page.waitForURL(`${server.url}${next ?? ''}`);
    await expectAt(page, leftNext);
    await context.close();
  });
});
