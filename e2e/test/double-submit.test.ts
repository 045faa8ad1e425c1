import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './fixtures.js';
import { launchBrowser, openSession, startServer, type RunningServer } from './harness.js';

/*
 * A double click on a form's button, or Enter pressed twice, sends the form once: the button
 * is drawn disabled only at the next render, after the second press has already come.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

/** The answers to POST `path`, as statuses, in the order they came. */
function answers(page: Page, path: string): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) {
      statuses.push(response.status());
    }
  });
  return statuses;
}

describe('a double click on the submit button', () => {
  it('logs in once', async () => {
    const user = await registerUser(server.url);
    const { context, page } = await openSession(browser, server.url, null);
    const sent = answers(page, '/api/auth/login');
    await page.goto(`${server.url}/login`);
    await page.getByLabel(/^Username/).fill(user.username);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByRole('button', { name: 'Accedi' }).dblclick();
    await page.waitForURL(`${server.url}/`);
    await page.waitForLoadState('networkidle');
    expect(sent).toEqual([200]);
    await context.close();
  });

  it('signs up once, without a refusal of the second try', async () => {
    const { context, page } = await openSession(browser, server.url, null);
    const sent = answers(page, '/api/auth/register');
    await page.goto(`${server.url}/register`);
    await page.getByLabel(/^Username/).fill('doppio');
    await page.getByLabel(/^Email/).fill('doppio@example.it');
    await page.getByLabel(/^Password/).fill('password-sicura');
    await page.getByLabel(/^Conferma Password/).fill('password-sicura');
    await page.getByLabel(/16 anni/).check();
    await page.getByRole('button', { name: 'Registrati' }).dblclick();
    await page.waitForURL(`${server.url}/`);
    await page.waitForLoadState('networkidle');
    expect(sent).toEqual([201]);
    await context.close();
  });
});
