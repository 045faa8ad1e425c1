import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, loginAdmin, registerUser, type ApiUser } from './fixtures.js';
import {
  launchBrowser,
  openSession,
  screenshot,
  startDemoServer,
  VIEWPORTS,
  type RunningServer,
  type Viewport,
} from './harness.js';

/*
 * The back-office door, its shell, the dashboard and the settings (SPEC §2 'Admin area' and
 * 'Admin dashboard', D7, issue 6), in a real browser against the real server with demo content.
 */

let server: RunningServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
});

afterAll(async () => {
  // beforeAll may have failed half-way; close what exists.
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

interface Stats {
  total_stats: Record<string, number>;
  top_categories: { name: string; count: number }[];
  top_tags: { name: string; count: number }[];
  most_active_users: { username: string; total_score: number }[];
  daily: { date: string; uploads: number; interactions: number }[];
}

function adminApi<T>(path: string): Promise<T> {
  return apiAs<T>(server.url, adminToken, path);
}

/** A page of a fresh browser profile, logged in the way the app keeps a session. */
function openAs(
  token: string | null,
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  return openSession(browser, server.url, token, { viewport });
}

const count = (value: number) => new Intl.NumberFormat('it-IT').format(value);
const chartDay = (day: string) =>
  new Intl.DateTimeFormat('it-IT', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

const CARDS = [
  ['Utenti', 'users'],
  ['Immagini', 'images'],
  ['Categorie', 'categories'],
  ['Tag', 'tags'],
  ['Interazioni', 'interactions'],
  ['In attesa', 'pending_images'],
] as const;

/** The texts of the elements that hide part of their content (cut, or ending in '…'). */
function clipped(elements: Locator): Promise<string[]> {
  return elements.evaluateAll((nodes) =>
    nodes.filter((node) => node.scrollWidth > node.clientWidth).map((node) => node.textContent),
  );
}

async function expectDashboard(page: Page, stats: Stats): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' }).waitFor();
  for (const [label, key] of CARDS) {
    const card = page.getByRole('group', { name: label, exact: true });
    await card.getByText(count(stats.total_stats[key] ?? -1), { exact: true }).waitFor();
  }

  const uploads = page.getByRole('figure', { name: 'Caricamenti al giorno' });
  const interactions = page.getByRole('figure', { name: 'Interazioni al giorno' });
  const sum = (key: 'uploads' | 'interactions') =>
    stats.daily.reduce((total, day) => total + day[key], 0);
  await uploads.getByText(`${count(sum('uploads'))} negli ultimi 30 giorni`).waitFor();
  await interactions.getByText(`${count(sum('interactions'))} negli ultimi 30 giorni`).waitFor();
  const days = new Set(stats.daily.map((day) => chartDay(day.date)));
  for (const [figure, label] of [
    [uploads, 'Caricamenti'],
    [interactions, 'Interazioni'],
  ] as const) {
    // Axis labels and the legend, in Italian; the ticks are days like '21 nov'.
    await figure.locator('svg').first().waitFor();
    const texts = await figure.locator('svg text').allTextContents();
    expect(texts).toContain('Giorno');
    expect(texts).toContain(label);
    const ticks = texts.filter((text) => days.has(text));
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    await figure.getByText(label, { exact: true }).first().waitFor();
    const legend = await figure.locator('.MuiChartsLegend-root').innerText();
    expect(legend.trim()).toBe(label);
  }

  // The rankings hold the server's rows, in its order.
  const categories = page.getByRole('table', { name: 'Top 20 Categorie' });
  const tags = page.getByRole('table', { name: 'Top 20 Tag' });
  const users = page.getByRole('table', { name: 'Top 20 Utenti Più Attivi' });
  await expect(categories.locator('tbody tr').count()).resolves.toBe(stats.top_categories.length);
  await expect(tags.locator('tbody tr').count()).resolves.toBe(stats.top_tags.length);
  await expect(users.locator('tbody tr').count()).resolves.toBe(stats.most_active_users.length);
  expect(stats.most_active_users.length).toBeGreaterThan(0);
  const firstTag = await tags.locator('tbody tr').first().locator('td').allTextContents();
  expect(firstTag).toEqual(['1', stats.top_tags[0]?.name, count(stats.top_tags[0]?.count ?? -1)]);
  const best = stats.most_active_users[0]!;
  const firstUser = await users.locator('tbody tr').first().locator('td').allTextContents();
  expect(firstUser[1]).toBe(best.username);
  expect(firstUser.at(-1)).toBe(count(best.total_score));
}

describe('the dashboard', () => {
  it('sends an anonymous visitor to log in, then back to the dashboard with its figures', async () => {
    const { context, page } = await openAs(null);
    await page.goto(`${server.url}/admin/dashboard`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill('admin');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('admin-password');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL(`${server.url}/admin/dashboard`);

    const stats = await adminApi<Stats>('/admin/stats');
    expect(stats.daily).toHaveLength(30);
    expect(stats.total_stats['images']).toBeGreaterThan(0);
    await expectDashboard(page, stats);
    await expect(page.title()).resolves.toBe('Dashboard Amministratore · Muri Parlanti');

    // The waiting uploads are one click away.
    expect(stats.total_stats['pending_images']).toBeGreaterThan(0);
    await page.getByRole('link', { name: /In attesa/ }).click();
    await page.waitForURL(`${server.url}/admin/pending-images`);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' }).waitFor();
    await screenshot(page, 'admin-dashboard-desktop');

    await context.close();
  });

  it('keeps every card on a laptop readable: labels whole, the hint on one line', async () => {
    // A common laptop: narrower than VIEWPORTS.desktop, so its six cards are tighter.
    const { context, page } = await openAs(adminToken, { width: 1366, height: 768 });
    await page.goto(`${server.url}/admin/dashboard`);
    const waiting = page.getByRole('group', { name: 'In attesa', exact: true });
    const hint = waiting.getByText('Da moderare', { exact: true });
    await hint.waitFor();
    // A caption's line is 20 px: 'Da moderare ›' used to wrap beside the card's icon.
    expect((await hint.boundingBox())?.height).toBeLessThan(24);
    for (const [label] of CARDS) {
      const card = page.getByRole('group', { name: label, exact: true });
      await expect(clipped(card.getByText(label, { exact: true }))).resolves.toEqual([]);
    }
    await context.close();
  });

  it('fits a phone: cards two by two, charts and tables inside the screen', async () => {
    const { context, page } = await openAs(adminToken, VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/dashboard`);
    const stats = await adminApi<Stats>('/admin/stats');
    await expectDashboard(page, stats);
    // Nothing pushes the page wider than the phone; wide tables scroll inside their box.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    // Every name of the rankings reads in full (it wraps, never ends in an ellipsis), and the
    // users' table still fits the screen.
    const users = page.getByRole('table', { name: 'Top 20 Utenti Più Attivi' });
    await expect(clipped(page.locator('table tbody td'))).resolves.toEqual([]);
    await expect(clipped(users.locator('xpath=..'))).resolves.toEqual([]);
    await screenshot(page, 'admin-dashboard-phone');
    await context.close();
  });
});

const SECTIONS = [
  ['Dashboard', 'dashboard'],
  ['Utenti', 'users'],
  ['Immagini', 'images'],
  ['Immagini in Pending', 'pending-images'],
  ['Immagini Duplicate', 'duplicate-images'],
  ['Categorie', 'categories'],
  ['Tag', 'tags'],
  ['Impostazioni', 'settings'],
] as const;

describe('the side navigation', () => {
  it('shows the administrator and leads to every section; Logout ends the session', async () => {
    const { context, page } = await openAs(adminToken);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/admin/dashboard`);
    const nav = page.getByRole('navigation', { name: 'Amministrazione' });
    // The sections' list; the brand above it leads home.
    await expect(nav.getByRole('listitem').getByRole('link').allTextContents()).resolves.toEqual(
      SECTIONS.map(([label]) => label),
    );
    await expect(
      nav.getByRole('link', { name: 'Muri Parlanti' }).getAttribute('href'),
    ).resolves.toBe('/');
    await page.getByText('admin', { exact: true }).waitFor();
    await page.getByText('Amministratore', { exact: true }).waitFor();

    for (const [label, path] of SECTIONS) {
      const link = nav.getByRole('link', { name: label, exact: true });
      await link.click();
      await page.waitForURL(`${server.url}/admin/${path}`);
      // The address changes first; the menu marks the section once its page has loaded.
      await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
    }

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    await expect(page.evaluate(() => localStorage.getItem('muri.token'))).resolves.toBeNull();
    await page.goto(`${server.url}/admin/users`);
    await page.waitForURL(`${server.url}/login`);
    await context.close();
  });

  it('opens as a menu on a phone and closes once a section is chosen', async () => {
    const { context, page } = await openAs(adminToken, VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Amministrazione' });
    await expect(nav.count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Apri il menu' }).click();
    await nav.waitFor();
    await page.getByText('Amministratore', { exact: true }).waitFor();
    await expect(nav.getByRole('listitem').getByRole('link').count()).resolves.toBe(
      SECTIONS.length,
    );
    // The menu slides in from the left edge; the picture waits until it is all there.
    await expect.poll(async () => (await nav.boundingBox())?.x).toBe(0);
    await screenshot(page, 'admin-shell-menu-phone');

    await nav.getByRole('link', { name: 'Impostazioni' }).click();
    await page.waitForURL(`${server.url}/admin/settings`);
    await nav.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Impostazioni' }).waitFor();
    await context.close();
  });
});

interface Settings {
  registrations_open: boolean;
  upload_max_bytes: number;
  moderation_emails: boolean;
}

function registerStatus(username: string): Promise<number> {
  return fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.it`,
      password: 'password-sicura',
      age_confirmed: true,
    }),
  }).then((response) => response.status);
}

describe('the settings', () => {
  it('closes registrations, refuses a limit the server refuses, and opens them again', async () => {
    const { context, page } = await openAs(adminToken);
    await page.goto(`${server.url}/admin/settings`);
    await page.getByRole('heading', { level: 1, name: 'Impostazioni' }).waitFor();
    const registrations = page.getByRole('switch', { name: 'Registrazioni aperte' });
    const emails = page.getByRole('switch', { name: 'Email di moderazione' });
    const limit = page.getByRole('textbox', { name: 'Dimensione massima dei file' });
    const save = page.getByRole('button', { name: 'Salva', exact: true });

    // The form shows what the server enforces; nothing to save yet.
    await expect(registrations.isChecked()).resolves.toBe(true);
    await expect(emails.isChecked()).resolves.toBe(true);
    await expect(limit.inputValue()).resolves.toBe('5');
    await expect(save.isDisabled()).resolves.toBe(true);
    await page.getByText('gli amministratori possono comunque aggiungere utenti').waitFor();
    await screenshot(page, 'admin-settings-desktop');

    await registrations.click();
    await expect(save.isEnabled()).resolves.toBe(true);
    await save.click();
    await page.getByRole('status').getByText('Impostazioni salvate').waitFor();
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expect(registrations.isChecked()).resolves.toBe(false);
    await expect(adminApi<Settings>('/admin/settings')).resolves.toEqual({
      registrations_open: false,
      upload_max_bytes: 5 * 1024 * 1024,
      moderation_emails: true,
    });
    await expect(registerStatus('chiusi1')).resolves.toBe(403);

    // Above 5 MB: the server says why, and nothing changes.
    await limit.fill('10');
    await save.click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'La dimensione massima dei file non può superare 5 MB.' })
      .waitFor();
    await expect(adminApi<Settings>('/admin/settings')).resolves.toMatchObject({
      upload_max_bytes: 5 * 1024 * 1024,
    });
    // Not a number: nothing can be sent.
    await limit.fill('tanto');
    await page.getByText('Inserisci un numero, ad esempio 2,5.').waitFor();
    await expect(save.isDisabled()).resolves.toBe(true);

    await limit.fill('2,5');
    await registrations.click();
    await save.click();
    // The button is disabled from the click on, while the save is in flight: the server's state
    // is what to wait for (the first save's alert may still be on screen).
    await expect
      .poll(() => adminApi<Settings>('/admin/settings'))
      .toEqual({
        registrations_open: true,
        upload_max_bytes: 2.5 * 1024 * 1024,
        moderation_emails: true,
      });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expect(registerStatus('aperti1')).resolves.toBe(201);

    // Back to the default limit, so the rest of the gallery is as the demo made it.
    await page.reload();
    await expect(limit.inputValue()).resolves.toBe('2,5');
    await limit.fill('5');
    await save.click();
    await page.getByRole('status').getByText('Impostazioni salvate').waitFor();
    await expect(adminApi<Settings>('/admin/settings')).resolves.toMatchObject({
      upload_max_bytes: 5 * 1024 * 1024,
    });
    await context.close();
  });

  it('fits a phone', async () => {
    const { context, page } = await openAs(adminToken, VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/settings`);
    await page.getByRole('switch', { name: 'Registrazioni aperte' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(page, 'admin-settings-phone');
    await context.close();
  });
});

describe('who gets in', () => {
  let user: ApiUser;
  beforeAll(async () => {
    user = await registerUser(server.url, 'curioso');
  });

  it('sends a normal user typing an admin address to the home page', async () => {
    const { context, page } = await openAs(user.token);
    await page.goto(`${server.url}/admin/users`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Le scritte della settimana' }).waitFor();
    await expect(page.getByText('Amministratore').count()).resolves.toBe(0);
    // The server says no as well: the guard in the page is only a convenience.
    const response = await fetch(`${server.url}/api/admin/stats`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(403);
    await context.close();
  });
});
