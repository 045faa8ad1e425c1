import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, loginAdmin, publish, registerUser } from './fixtures.js';
import {
  animationsDone,
  launchBrowser,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
} from './harness.js';

/*
 * Browsing as a visitor: home with its carousels and gallery, a category, a tag, the tags
 * list, search from the header and the redirect of unknown paths (SPEC §2).
 */

let server: RunningServer;
let browser: Browser;
const ids = { love: 0, protest: 0, empty: 0, poetry: 0, anger: 0 };

/** Seven pictures of love (more than a carousel shows at once), one of protest, one by the sea. */
const LOVE_TITLES = [
  'Ti amo Giulia',
  'Per sempre noi',
  'Sei il mio sole',
  'Amore mio',
  'Cuore rosso',
  'Baci',
  'Resta',
];
const COLOURS = ['#c9b99a', '#9ab0c9', '#c99aa7', '#a7c99a', '#b89ac9', '#c9c49a', '#9ac9c4'];

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: '0' });
  browser = await launchBrowser();
  const admin = await loginAdmin(server.url);
  const user = await registerUser(server.url, 'writer');
  ids.love = await createCategory(server.url, admin, 'messaggi_amore');
  ids.protest = await createCategory(server.url, admin, 'messaggi_di_protesta');
  ids.empty = await createCategory(server.url, admin, 'messaggi_vuoti');
  for (const [index, title] of LOVE_TITLES.entries()) {
    await publish(server.url, user, admin, title, {
      categoryId: ids.love,
      tags: ['poesia'],
      colour: COLOURS[index] ?? '#c9b99a',
    });
  }
  await publish(server.url, user, admin, 'Basta guerre', {
    categoryId: ids.protest,
    tags: ['rabbia'],
  });
  await publish(server.url, user, admin, 'Muro del porto', {
    colour: '#6d8fa8',
    tags: ['libertà'],
  });
  const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as Array<{
    id_tag: number;
    nome: string;
  }>;
  ids.poetry = tags.find((tag) => tag.nome === 'poesia')?.id_tag ?? 0;
  ids.anger = tags.find((tag) => tag.nome === 'rabbia')?.id_tag ?? 0;
});

afterAll(async () => {
  // beforeAll may have failed half-way; close what exists.
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

/** A page that records console errors and uncaught exceptions. */
async function openPage(viewport: { width: number; height: number } = VIEWPORTS.desktop) {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** The page's own heading, once the page that has it is on screen. */
function pageHeading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** Nothing sticks out sideways: the page never scrolls horizontally. */
async function expectNoSideScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(widths[0]).toBe(widths[1]);
}

/** Scrolls to the bottom step by step, so everything that loads on approach has loaded. */
async function scrollThrough(page: Page): Promise<void> {
  for (let step = 0; step < 20; step += 1) {
    const done = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight);
      return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    });
    if (done) break;
    await page.waitForTimeout(100);
  }
}

/**
 * Waits until the pictures a full-page screenshot shows have arrived: all but those a carousel
 * holds outside the screen's width, which load only when they slide in.
 */
async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => {
      const box = image.getBoundingClientRect();
      const aside = box.right <= 0 || box.left >= window.innerWidth;
      return aside || (image.complete && image.naturalWidth > 0);
    }),
  );
}

describe('home', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the week's writings, a carousel per category and every picture at ${name} width`, async () => {
      const { page, errors } = await openPage(viewport);
      await page.goto(`${server.url}/`);
      await expect(page.title()).resolves.toBe('Muri Parlanti');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('it');

      const week = page.getByRole('region', { name: 'Le scritte della settimana' });
      await week.getByRole('link').first().waitFor();
      // The server draws the first slides, React the first five, then the rest (goal 8).
      await expect.poll(() => week.getByRole('link').count()).toBe(LOVE_TITLES.length + 2);

      // Category titles use the display names and lead to the category; the most popular first.
      const headings = page.getByRole('heading', { level: 2 });
      await page.getByRole('heading', { name: 'Tutte le nostre immagini' }).waitFor();
      const titles = await headings.allTextContents();
      expect(titles[0]).toBe('Le scritte della settimana');
      // By count, then by age: 'Non categorizzata' (category 1) holds the picture by the sea.
      expect(titles).toEqual([
        'Le scritte della settimana',
        'Amore',
        'Non categorizzata',
        'Di Protesta',
        'Tutte le nostre immagini',
      ]);
      await expect(
        page
          .getByRole('main')
          .getByRole('link', { name: 'Amore', exact: true })
          .getAttribute('href'),
      ).resolves.toBe(`/category/${ids.love}`);

      // The carousel shows 5 pictures side by side on desktop, 2 on a phone.
      const love = page.getByRole('region', { name: 'Amore', exact: true });
      const slides = love.locator('[aria-roledescription="immagine"]');
      await slides.first().getByRole('link').waitFor();
      const slide = await slides.first().boundingBox();
      const frame = await love.boundingBox();
      const perView = name === 'desktop' ? 5 : 2;
      expect(Math.round((frame?.width ?? 0) / (slide?.width ?? 1))).toBe(perView);

      // The arrows move it; it wraps around, so 'previous' works from the start too.
      const track = slides.first().locator('xpath=..');
      const start = await track.getAttribute('style');
      await love.getByRole('button', { name: 'Immagini precedenti' }).click();
      await expect.poll(() => track.getAttribute('style')).not.toBe(start);
      const wrapped = await track.getAttribute('style');
      await love.getByRole('button', { name: 'Immagini successive' }).click();
      await expect.poll(() => track.getAttribute('style')).not.toBe(wrapped);
      // They sit under the pictures, never over them.
      const pictures = await track.locator('xpath=..').boundingBox();
      for (const arrow of ['Immagini precedenti', 'Immagini successive']) {
        const box = await love.getByRole('button', { name: arrow }).boundingBox();
        expect(box?.y).toBeGreaterThanOrEqual((pictures?.y ?? 0) + (pictures?.height ?? 0));
      }

      // A category with all its pictures on screen at once stands still: no arrows.
      const protest = page.getByRole('region', { name: 'Di Protesta', exact: true });
      await protest.getByRole('link').first().waitFor();
      expect(await protest.getByRole('button', { name: 'Immagini successive' }).isVisible()).toBe(
        false,
      );

      const all = page.getByRole('region', { name: 'Tutte le nostre immagini' });
      await all.getByRole('link', { name: 'Muro del porto' }).waitFor();
      expect(await all.getByRole('link').count()).toBe(LOVE_TITLES.length + 2);

      await scrollThrough(page);
      await page.getByRole('button', { name: 'Torna su' }).waitFor();
      await page.evaluate(() => {
        window.scrollTo(0, 0);
      });
      await imagesLoaded(page);
      await expectNoSideScroll(page);
      await screenshot(page, `browse-home-${name}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("'Torna su' takes the focus back to the top with the page, not to the body", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/`);
    await page
      .getByRole('region', { name: 'Tutte le nostre immagini' })
      .getByRole('link')
      .first()
      .waitFor();
    await scrollThrough(page);
    const button = page.getByRole('button', { name: 'Torna su' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('MAIN');
    // The next Tab goes on from the top of the content, not from the end of the page.
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => {
      const active = document.activeElement;
      return active === null ? null : active.getBoundingClientRect().top + window.scrollY;
    });
    expect(next).not.toBeNull();
    expect(next).toBeLessThan(900);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a picture from a carousel', async () => {
    const { page } = await openPage();
    await page.goto(`${server.url}/`);
    const week = page.getByRole('region', { name: 'Le scritte della settimana' });
    await week.getByRole('link').first().click();
    await page.waitForURL(/\/image\/\d+$/);
    await page.close();
  });

  it("writes a card's caption in white, not in the link colour of the card around it", async () => {
    const { page } = await openPage();
    await page.goto(`${server.url}/`);
    const card = page
      .getByRole('region', { name: 'Le scritte della settimana' })
      .getByRole('link')
      .first();
    await card.hover();
    const caption = card.locator('.caption');
    await expect
      .poll(() => caption.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
    await expect(caption.evaluate((element) => getComputedStyle(element).color)).resolves.toBe(
      'rgb(255, 255, 255)',
    );
    await page.close();
  });
});

describe('category and tag pages', () => {
  it('shows a category with its name, count and pictures', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('main').getByRole('link', { name: 'Amore', exact: true }).click();
    await page.waitForURL(`${server.url}/category/${ids.love}`);
    await pageHeading(page, 'Amore').waitFor();
    await page.getByText('7 immagini', { exact: true }).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Percorso' });
    await expect(crumbs.getByText('Categoria').isVisible()).resolves.toBe(true);
    await expect(crumbs.getByRole('link', { name: 'Home' }).getAttribute('href')).resolves.toBe(
      '/',
    );
    await page.getByRole('link', { name: 'Resta' }).waitFor();
    expect(await page.locator('main a[href^="/image/"]').count()).toBe(LOVE_TITLES.length);
    await expect(page.title()).resolves.toBe('Amore · Muri Parlanti');
    // The strip marks the category on screen, and only it.
    const strip = page.getByRole('navigation', { name: 'Categorie più popolari' });
    await expect(
      strip.getByRole('link', { name: /^Amore/ }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await expect(
      strip.getByRole('link', { name: /^Di Protesta/ }).getAttribute('aria-current'),
    ).resolves.toBeNull();
    // The drawer lists them by the names people read, the empty one left out.
    await page.getByRole('button', { name: 'Categorie', exact: true }).click();
    const drawer = page.getByRole('navigation', { name: 'Tutte le categorie' });
    await drawer.getByRole('link').first().waitFor();
    await expect(drawer.getByRole('link').allInnerTexts()).resolves.toEqual([
      'Amore',
      'Di Protesta',
      'Non categorizzata',
    ]);
    // It marks the category on screen too.
    await expect(
      drawer.getByRole('link', { name: 'Amore', exact: true }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await expect(
      drawer.getByRole('link', { name: 'Di Protesta', exact: true }).getAttribute('aria-current'),
    ).resolves.toBeNull();
    await animationsDone(page);
    await screenshot(page, 'browse-category-drawer-desktop');
    await page.getByRole('button', { name: 'Chiudi categorie' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await imagesLoaded(page);
    await expectNoSideScroll(page);
    await screenshot(page, 'browse-category-desktop');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("rings the strip's chip that the keyboard focuses", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/tags`);
    await pageHeading(page, 'Tag disponibili').waitFor();
    const strip = page.getByRole('navigation', { name: 'Categorie più popolari' });
    const chip = strip.getByRole('link', { name: /^Amore/ });
    await chip.waitFor();
    // From the header's last button, as a keyboard reaches the strip.
    await page.getByRole('link', { name: 'Account' }).focus();
    await page.keyboard.press('Tab');
    await expect(chip.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    const ring = await chip.evaluate((element) => {
      const style = getComputedStyle(element);
      return [style.outlineStyle, style.outlineWidth];
    });
    expect(ring).toEqual(['solid', '2px']);
    await screenshot(page, 'browse-strip-focus-desktop');
    // Next to the current category's chip, on its page, and at a phone's width.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${server.url}/category/${ids.protest}`);
    await pageHeading(page, 'Di Protesta').waitFor();
    await chip.waitFor();
    await page.getByRole('link', { name: 'Account' }).focus();
    await page.keyboard.press('Tab');
    await expect(chip.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    await screenshot(page, 'browse-strip-focus-phone');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("offers 'Riprova' when the pictures could not be loaded, and loads them on it", async () => {
    const { page } = await openPage(VIEWPORTS.phone);
    // The network drops the gallery's first answers: the first try and the one retry after it.
    let dropped = 0;
    await page.route(`**/api/categories/${String(ids.love)}/images**`, async (route) => {
      if (dropped < 2) {
        dropped += 1;
        await route.abort('internetdisconnected');
      } else {
        await route.continue();
      }
    });
    await page.goto(`${server.url}/category/${ids.love}`);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'Errore nel caricamento delle immagini' });
    await alert.waitFor();
    await screenshot(page, 'browse-gallery-failed-phone');
    await alert.getByRole('button', { name: 'Riprova' }).click();
    await page.getByRole('link', { name: 'Resta' }).waitFor();
    await expect(alert.count()).resolves.toBe(0);
    await page.close();
  });

  it('drags the strip sideways with a mouse pressed on a chip, without opening it', async () => {
    // Narrow enough for the strip's three chips to overflow it.
    const { page, errors } = await openPage({ width: 260, height: 700 });
    await page.goto(`${server.url}/tags`);
    await pageHeading(page, 'Tag disponibili').waitFor();
    const strip = page.getByRole('navigation', { name: 'Categorie più popolari' });
    const chip = strip.getByRole('link', { name: /^Di Protesta/ });
    await chip.waitFor();
    const room = await strip.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(room).toBeGreaterThan(60);
    const box = await chip.boundingBox();
    if (box === null) throw new Error('the chip is not drawn');
    const y = box.y + box.height / 2;
    const x = box.x + box.width / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    // Step by step, as a hand moves: the browser's own drag of the link began after a few
    // pixels and cancelled the strip's pointer events.
    for (let step = 1; step <= 10; step += 1) await page.mouse.move(x - step * 6, y);
    await page.mouse.up();
    await expect(strip.evaluate((element) => element.scrollLeft)).resolves.toBeGreaterThanOrEqual(
      Math.min(room, 60) - 1,
    );
    // The drag ended over a chip: it was no click on it.
    expect(new URL(page.url()).pathname).toBe('/tags');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says "1 immagine" for one and names an empty category', async () => {
    const { page } = await openPage(VIEWPORTS.phone);
    await page.goto(`${server.url}/category/${ids.protest}`);
    await page.getByText('1 immagine', { exact: true }).waitFor();
    await pageHeading(page, 'Di Protesta').waitFor();
    await imagesLoaded(page);
    await expectNoSideScroll(page);
    await screenshot(page, 'browse-category-phone');

    await page.goto(`${server.url}/category/${ids.empty}`);
    await page.getByText('Nessuna immagine trovata per questa categoria').waitFor();
    await page.getByText('0 immagini', { exact: true }).waitFor();
    await page.goto(`${server.url}/category/999999`);
    await page.getByText('Categoria non trovata').waitFor();
    // The tab names the page as it is, like a missing picture's or user's.
    await expect(page.title()).resolves.toBe('Categoria non trovata · Muri Parlanti');
    await page.close();
  });

  it('shows a tag with its name and count, and "Tag non trovato" only for a missing tag', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/tag/${ids.poetry}`);
    await pageHeading(page, 'poesia').waitFor();
    await page.getByText('7 immagini con questo tag', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Cuore rosso' }).waitFor();
    expect(await page.getByText('Tag non trovato').count()).toBe(0);
    await imagesLoaded(page);
    await expectNoSideScroll(page);
    await screenshot(page, 'browse-tag-desktop');
    expect(errors).toEqual([]);

    await page.goto(`${server.url}/tag/${ids.anger}`);
    await page.getByText('1 immagine con questo tag', { exact: true }).waitFor();
    await page.close();

    const { page: phone } = await openPage(VIEWPORTS.phone);
    await phone.goto(`${server.url}/tag/999999`);
    await phone.getByText('Tag non trovato').waitFor();
    await expect(phone.title()).resolves.toBe('Tag non trovato · Muri Parlanti');
    await screenshot(phone, 'browse-tag-missing-phone');
    await phone.close();
  });
});

describe('tags list', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`filters the tags by name, ignoring case and accents, at ${name} width`, async () => {
      const { page, errors } = await openPage(viewport);
      await page.goto(`${server.url}/tags`);
      await pageHeading(page, 'Tag disponibili').waitFor();
      await page.getByRole('link', { name: 'poesia (7)' }).waitFor();
      await page.getByRole('link', { name: 'rabbia (1)' }).waitFor();
      await expectNoSideScroll(page);
      await screenshot(page, `browse-tags-${name}`);

      const box = page.getByPlaceholder('Cerca tag...');
      await box.fill('RAB');
      await page.waitForFunction(() => !document.body.innerText.includes('poesia (7)'));
      await page.getByRole('link', { name: 'rabbia (1)' }).waitFor();
      // Accents are ignored as the site's search ignores them.
      await box.fill('LIBERTA');
      await page.getByRole('link', { name: 'libertà (1)' }).waitFor();
      await page.waitForFunction(() => !document.body.innerText.includes('rabbia (1)'));
      await box.fill('zzz');
      await page.getByText('Nessun tag trovato').waitFor();
      await box.fill('');
      await page.getByRole('link', { name: 'poesia (7)' }).click();
      await page.waitForURL(`${server.url}/tag/${ids.poetry}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

describe('search', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`searches from the header overlay at ${name} width`, async () => {
      const { page, errors } = await openPage(viewport);
      await page.goto(`${server.url}/tags`);
      const input = page.getByPlaceholder('Cerca immagini, utenti, categorie...');

      // Escape closes the overlay.
      await page.getByRole('button', { name: 'Cerca', exact: true }).click();
      await input.waitFor();
      await input.press('Escape');
      await input.waitFor({ state: 'detached' });

      // A blank query is ignored.
      await page.getByRole('button', { name: 'Cerca', exact: true }).click();
      await input.fill('   ');
      await input.press('Enter');
      await page.waitForTimeout(200);
      expect(new URL(page.url()).pathname).toBe('/tags');

      await input.fill('  porto ');
      await input.press('Enter');
      await page.waitForURL(`${server.url}/search?q=porto`);
      await pageHeading(page, 'Risultati della ricerca').waitFor();
      await page.getByText('1 risultato per:', { exact: true }).waitFor();
      const crumbs = page.getByRole('navigation', { name: 'Percorso' });
      await expect(crumbs.getByText('Ricerca').isVisible()).resolves.toBe(true);
      await page.getByRole('main').getByText('porto', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Muro del porto' }).waitFor();
      // The focus goes on to the results, not to the body: the next Tab is inside them.
      await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('MAIN');
      await page.keyboard.press('Tab');
      await expect(
        page.evaluate(() => document.querySelector('main')?.contains(document.activeElement)),
      ).resolves.toBe(true);
      await imagesLoaded(page);
      await expectNoSideScroll(page);
      await screenshot(page, `browse-search-${name}`);

      await page.getByRole('button', { name: 'Cerca', exact: true }).click();
      await input.fill('zanzibar');
      await input.press('Enter');
      await page.getByText('Nessun risultato trovato').waitFor();
      await page.getByText('0 risultati per:', { exact: true }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("closes by Escape from anywhere in the overlay, giving the focus back to 'Cerca'", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/tags`);
    const input = page.getByPlaceholder('Cerca immagini, utenti, categorie...');
    const toggle = page.getByRole('button', { name: 'Cerca', exact: true });
    const close = page.getByRole('button', { name: 'Chiudi ricerca' });
    const focused = (element: Locator) =>
      element.evaluate((node) => node === document.activeElement);
    const open = async () => {
      await page.keyboard.press('Enter');
      await input.waitFor();
    };
    const closedBackToToggle = async () => {
      await input.waitFor({ state: 'detached' });
      await expect(focused(toggle)).resolves.toBe(true);
    };
    // The server's first screen draws a header of its own: React's, once the page is there.
    await pageHeading(page, 'Tag disponibili').waitFor();

    // From the field.
    await toggle.focus();
    await open();
    await expect(focused(input)).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await closedBackToToggle();

    // From 'Chiudi ricerca'.
    await open();
    await page.keyboard.press('Tab');
    await expect(focused(close)).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await closedBackToToggle();

    // By 'Chiudi ricerca' itself.
    await open();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await closedBackToToggle();

    // A click outside closes it too.
    await toggle.click();
    await input.waitFor();
    await pageHeading(page, 'Tag disponibili').click();
    await input.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a result', async () => {
    const { page } = await openPage();
    await page.goto(`${server.url}/search?q=porto`);
    await page.getByRole('link', { name: 'Muro del porto' }).click();
    await page.waitForURL(/\/image\/\d+$/);
    await page.close();
  });

  it('finds nothing for emoji alone, and says so as for any other search', async () => {
    const { page } = await openPage();
    await page.goto(`${server.url}/search?q=${encodeURIComponent('😀🔥')}`);
    await page.getByText('Nessun risultato trovato').waitFor();
    await page.getByText('0 risultati per:', { exact: true }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await page.close();
  });
});

describe('privacy policy', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`is a tap away from the categories drawer of any public page at ${name} width`, async () => {
      const { page, errors } = await openPage(viewport);
      await page.goto(`${server.url}/category/${ids.love}`);
      await pageHeading(page, 'Amore').waitFor();
      await page.getByRole('button', { name: 'Categorie', exact: true }).click();
      const drawer = page.getByRole('presentation').filter({ has: page.getByText('Categorie') });
      await drawer.getByRole('link', { name: 'Informativa sulla privacy', exact: true }).click();
      await page.waitForURL(`${server.url}/privacy-policy`);
      await pageHeading(page, 'Informativa sulla privacy').waitFor();
      await drawer.waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

it('sends an unknown path to home', async () => {
  const { page } = await openPage();
  await page.goto(`${server.url}/non/esiste`);
  await page.waitForURL(`${server.url}/`);
  await page.getByRole('heading', { name: 'Le scritte della settimana' }).waitFor();
  await page.close();
});
