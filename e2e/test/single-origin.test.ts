import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type RunningServer } from './harness.js';

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

/** D1: the app, the API and the files on one origin. */
describe('the web app on the server origin', () => {
  it('answers a deep link with the app and an unknown API path with JSON', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/image/42`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('it');
    // The app itself answers the route: its header, and its word on the missing picture.
    await page.getByRole('link', { name: 'Muri Parlanti' }).waitFor();
    await page.getByText('Immagine non trovata').first().waitFor();

    const api = await page.goto(`${server.url}/api/non-esiste`);
    expect(api?.status()).toBe(404);
    expect(JSON.parse(await page.locator('body').innerText())).toEqual({
      detail: 'Risorsa non trovata.',
    });
    await page.close();
  });

  it('says so when the gallery is still empty', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.getByText('Nessuna immagine disponibile').waitFor();
    await page.getByText('Nessuna immagine trovata').waitFor();
    await page.close();
  });

  it('logs in through the API from the page origin', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Le scritte della settimana' }).waitFor();
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
