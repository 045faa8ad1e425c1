import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
} from './harness.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  // beforeAll may have failed half-way; close what exists.
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

describe('the web app on the server origin', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders the Italian page at ${name} width, with no console errors`, async () => {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));

      await page.goto(`${server.url}/`);
      await expect(page.title()).resolves.toBe('Muri Parlanti');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('it');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Muri Parlanti',
      );
      await screenshot(page, `home-${name}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('answers a deep link with the app and an unknown API path with JSON', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/image/42`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Muri Parlanti',
    );

    const api = await page.goto(`${server.url}/api/non-esiste`);
    expect(api?.status()).toBe(404);
    expect(JSON.parse(await page.locator('body').innerText())).toEqual({
      detail: 'Risorsa non trovata.',
    });
    await page.close();
  });

  it('logs in through the API from the page origin', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const result = await page.evaluate(async () => {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
      });
      return { status: response.status, body: (await response.json()) as { user: unknown } };
    });
    expect(result.status).toBe(200);
    expect(result.body.user).toMatchObject({ username: 'admin', is_superuser: true });
    await page.close();
  });
});
