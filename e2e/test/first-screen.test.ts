import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve, loginAdmin, noise, publish, registerUser, uploadBytes } from './fixtures.js';
import { launchBrowser, screenshot, startServer, type RunningServer } from './harness.js';

/*
 * Goal 8: the server draws the first screen into index.html (server/src/plugins/
 * first-screen.ts), and React's first render replaces it with the same elements at the same
 * places. Checked as a visitor sees it: the page without its scripts, then with them.
 */

let server: RunningServer;
let browser: Browser;
let imageId = 0;
/** A title that would run script if it ever reached the page as markup. */
const XSS_TITLE = `"><img src=x onerror="window.__xss=1"></script><script>window.__xss=2</script>`;

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: '0' });
  browser = await launchBrowser();
  const admin = await loginAdmin(server.url);
  const user = await registerUser(server.url, 'muro');
  // Its own bytes: the fixture that draws a title into a picture would choke on this one.
  const image = await uploadBytes(server.url, user, XSS_TITLE, await noise(7));
  await approve(server.url, admin, image.filename);
  imageId = image.id_image;
  for (const [index, title] of ['Ti amo', 'Basta', 'Sempre noi'].entries()) {
    await publish(server.url, user, admin, title, {
      colour: ['#9ab0c9', '#a7c99a', '#c9c49a'][index],
    });
  }
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

interface Layout {
  header: number[] | null;
  heading: number[] | null;
  picture: number[] | null;
  src: string | null;
}

/** Where the header, the first section heading and the first picture of <main> are. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const box = (element: Element | null) => {
      if (element === null) return null;
      const rect = element.getBoundingClientRect();
      return [rect.x, rect.y, rect.width, rect.height].map(Math.round);
    };
    const picture = document.querySelector<HTMLImageElement>('main img');
    return {
      header: box(document.querySelector('header')),
      heading: box(document.querySelector('main h2')),
      picture: box(picture),
      src: picture?.currentSrc ?? null,
    };
  });
}

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

describe.each(WIDTHS)('the first screen at $name width', ({ name, width, height }) => {
  it.each([
    ['home', () => '/'],
    ['image', () => `/image/${String(imageId)}`],
  ])(
    '%s: the server draws it, and React puts the same picture at the same place',
    async (page_, path) => {
      const url = `${server.url}${path()}`;
      const before = await browser.newContext({
        viewport: { width, height },
        javaScriptEnabled: false,
      });
      const still = await before.newPage();
      await still.goto(url, { waitUntil: 'load' });
      const drawn = await layout(still);
      await screenshot(still, `first-screen-${page_}-${name}-before-scripts`);
      await before.close();
      expect(drawn.header?.[3]).toBe(width < 600 ? 56 : 64);
      expect(drawn.picture).not.toBeNull();

      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.addInitScript(() => {
        // Every layout shift of the visit, as CLS counts them.
        (window as unknown as { __shifts: number[] }).__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput)
              (window as unknown as { __shifts: number[] }).__shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(url, { waitUntil: 'load' });
      // React has replaced the server's first screen once the page's own heading is there.
      await page.locator(page_ === 'home' ? 'main h2#home-trending' : 'main h1').waitFor();
      await page.waitForTimeout(500);
      const rendered = await layout(page);
      expect(rendered.header).toEqual(drawn.header);
      expect(rendered.picture).toEqual(drawn.picture);
      expect(rendered.src).toBe(drawn.src);
      if (page_ === 'home') expect(rendered.heading).toEqual(drawn.heading);
      // The server's markup is gone: one header, one main, no duplicated ids.
      expect(await page.locator('header').count()).toBe(1);
      expect(await page.locator('main').count()).toBe(1);
      expect(await page.locator('.fs-main').count()).toBe(0);
      const shifts = await page.evaluate(
        () => (window as unknown as { __shifts: number[] }).__shifts,
      );
      expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(0.02);
      // The picture is never hidden for a fade once React has it: it was already there.
      const opacity = await page
        .locator('main img')
        .first()
        .evaluate((img) => getComputedStyle(img).opacity);
      expect(opacity).toBe('1');
      expect(
        await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
      ).toBeUndefined();
      expect(errors).toEqual([]);
      await screenshot(page, `first-screen-${page_}-${name}-after-scripts`);
      await context.close();
    },
  );
});

it('shows a title full of markup as text, both before and after the scripts', async () => {
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${server.url}/image/${String(imageId)}`, { waitUntil: 'load' });
    if (javaScriptEnabled) await page.locator('main h1').waitFor();
    await expect(page.locator('main img').first().getAttribute('alt')).resolves.toBe(XSS_TITLE);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    if (javaScriptEnabled)
      await expect(page.locator('main h1').textContent()).resolves.toBe(XSS_TITLE);
    await context.close();
  }
});
