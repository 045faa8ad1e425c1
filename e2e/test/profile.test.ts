import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, publish, registerUser, upload, type ApiUser } from './fixtures.js';
import {
  announcedFromBefore,
  launchBrowser,
  openSession,
  rememberLiveRegions,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
  type Viewport,
} from './harness.js';

/*
 * The profile screens (SPEC §2 'User profile', D3, D5, D9) and the privacy policy, driven in a
 * real browser against the real server.
 */

let server: RunningServer;
let browser: Browser;
let adminToken: string;
/** Has two public pictures and one waiting for review. */
let owner: ApiUser;
/** Has nothing: the empty states. */
let visitor: ApiUser;

beforeAll(async () => {
  // Five accounts are opened here, all an address may open in ten minutes; the limits
  // themselves are proven by the server suite.
  server = await startServer({ RATE_LIMITS: '0' });
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  owner = await registerUser(server.url, 'marta');
  visitor = await registerUser(server.url, 'paolo');
  await publish(server.url, owner, adminToken, 'Ti amo Roma', { colour: '#c9b99a' });
  await publish(server.url, owner, adminToken, 'Resistere sempre', { colour: '#8aa1b1' });
  await upload(server.url, owner, 'Sogna forte', { colour: '#9ab18a' });
});

afterAll(async () => {
  // beforeAll may have failed half-way; close what exists.
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

/** A page of a fresh browser profile, logged in as `user` the way the app keeps a session. */
function openAs(
  user: ApiUser | null,
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  return openSession(browser, server.url, user?.token ?? null, {
    viewport,
    acceptDownloads: true,
  });
}

function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('muri.token'));
}

async function openMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Opzioni' }).click();
  await page.getByRole('menuitem', { name }).click();
}

describe('a public profile', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the user without e-mail, with figures and approved images (${name})`, async () => {
      const { context, page } = await openAs(null, viewport);
      await page.goto(`${server.url}/user/${owner.id}`);

      await page.getByRole('heading', { level: 1, name: owner.username }).waitFor();
      await expect(page.title()).resolves.toBe(`${owner.username} · Muri Parlanti`);
      await page.getByText('Membro dal:').waitFor();
      await page.getByText('0 follower', { exact: true }).waitFor();
      await page.getByText('2 immagini', { exact: true }).waitFor();
      await page.getByText('0 mi piace', { exact: true }).waitFor();

      // Only approved pictures, and only the public tab.
      await page.getByRole('link', { name: 'Ti amo Roma' }).waitFor();
      await page.getByRole('link', { name: 'Resistere sempre' }).waitFor();
      await expect(page.getByRole('link', { name: 'Sogna forte' }).count()).resolves.toBe(0);
      const tabs = await page.getByRole('tab').allTextContents();
      expect(tabs).toEqual(['Immagini']);
      await expect(
        page.getByRole('tab', { name: 'Immagini' }).getAttribute('aria-selected'),
      ).resolves.toBe('true');
      expect(await page.locator('body').innerText()).not.toContain('@example.it');
      await expect(page.getByRole('button', { name: 'Opzioni' }).count()).resolves.toBe(0);

      await screenshot(page, `profile-public-${name}`);
      await context.close();
    });
  }

  it('shows the empty state and a missing user; sends anonymous visitors to log in', async () => {
    const { context, page } = await openAs(null);
    await page.goto(`${server.url}/user/${visitor.id}`);
    await page.getByText('Nessuna immagine pubblicata').waitFor();
    await page.getByRole('button', { name: 'Segui' }).click();
    await page.waitForURL(`${server.url}/login`);

    await page.goto(`${server.url}/user/999999`);
    await page.getByText('Utente non trovato').waitFor();

    await page.goto(`${server.url}/user/me`);
    await page.waitForURL(`${server.url}/login`);
    await context.close();
  });

  it('follows and unfollows, with the count from the server', async () => {
    const { context, page } = await openAs(visitor);
    await page.goto(`${server.url}/user/${owner.id}`);
    await page.getByText('0 follower', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Segui' }).click();
    await page.getByRole('button', { name: 'Non seguire più' }).waitFor();
    await page.getByText('1 follower', { exact: true }).waitFor();

    // The state is the server's, not just the page's.
    await page.reload();
    await page.getByRole('button', { name: 'Non seguire più' }).click();
    await page.getByRole('button', { name: 'Segui' }).waitFor();
    await page.getByText('0 follower', { exact: true }).waitFor();
    await context.close();
  });
});

describe('the own profile', () => {
  it('has the three tabs; ?tab=upload lists the pending upload', async () => {
    const { context, page } = await openAs(owner);
    await page.goto(`${server.url}/user/me`);
    await page.getByRole('tab', { name: 'Carica' }).waitFor();
    await expect(page.getByRole('tab').allTextContents()).resolves.toEqual([
      'Immagini',
      'Mi piace',
      'Carica',
    ]);
    await page.getByRole('link', { name: 'Ti amo Roma' }).waitFor();

    await page.getByRole('tab', { name: 'Mi piace' }).click();
    await page.getByText('Nessuna immagine piaciuta').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('liked');

    // The keyboard, after WAI-ARIA's tabs pattern: only the selected tab is in the Tab order,
    // the arrows move the focus round the row without selecting, Enter selects.
    const tabStops = () =>
      page.getByRole('tab').evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex));
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect(tabStops()).resolves.toEqual([-1, 0, -1]);
    await page.getByRole('tab', { name: 'Mi piace' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(focused()).resolves.toBe('Carica');
    await page.keyboard.press('ArrowRight');
    await expect(focused()).resolves.toBe('Immagini');
    await page.keyboard.press('ArrowLeft');
    await expect(focused()).resolves.toBe('Carica');
    await page.keyboard.press('Home');
    await expect(focused()).resolves.toBe('Immagini');
    // A key with a modifier is the browser's or the system's (Alt+Left is Back).
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+End');
    await expect(focused()).resolves.toBe('Immagini');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('liked');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Carica una nuova immagine' }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('upload');
    await expect(tabStops()).resolves.toEqual([-1, -1, 0]);
    await expect(focused()).resolves.toBe('Carica');

    await page.goto(`${server.url}/user/me?tab=upload`);
    await expect(
      page.getByRole('tab', { name: 'Carica' }).getAttribute('aria-selected'),
    ).resolves.toBe('true');
    const pending = page.locator('article', { hasText: 'Sogna forte' });
    await pending.getByText('In attesa').waitFor();
    await expect(page.getByText('Approvata', { exact: true }).count()).resolves.toBe(2);
    await expect(
      page.getByRole('link', { name: 'Carica una nuova immagine' }).getAttribute('href'),
    ).resolves.toBe('/create');
    await screenshot(page, 'profile-own-upload-desktop');
    await context.close();
  });

  it('looks right at phone width', async () => {
    const { context, page } = await openAs(owner, VIEWPORTS.phone);
    await page.goto(`${server.url}/user/me?tab=upload`);
    await page.locator('article', { hasText: 'Sogna forte' }).getByText('In attesa').waitFor();
    await screenshot(page, 'profile-own-upload-phone');
    await context.close();
  });

  it('opens a pending upload whose reactions wait for its publication, counting no view', async () => {
    const { context, page } = await openAs(owner, VIEWPORTS.phone);
    const interactions: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/interactions')) {
        interactions.push(request.url());
      }
    });
    await page.goto(`${server.url}/user/me?tab=upload`);
    await page.getByRole('link', { name: /Sogna forte/ }).click();
    await page.getByRole('heading', { name: 'Sogna forte' }).waitFor();
    await page
      .getByText(
        'In attesa di approvazione: non è ancora pubblica. Reazioni e visualizzazioni si contano dalla pubblicazione.',
      )
      .waitFor();
    const reactions = page.getByRole('group', { name: 'Reazioni' }).getByRole('button');
    await expect(reactions.count()).resolves.toBe(5);
    for (const button of await reactions.all()) {
      await expect(button.isDisabled()).resolves.toBe(true);
    }
    await expect(page.getByRole('button', { name: /^Scarica: \d+$/ }).isEnabled()).resolves.toBe(
      true,
    );
    await page.getByText('0 visualizzazioni').waitFor();
    await screenshot(page, 'profile-own-pending-image-phone');
    expect(interactions).toEqual([]);
    await context.close();
  });

  it('shows a rejected upload with its reason', async () => {
    const author = await registerUser(server.url, 'rifiutato');
    const image = await upload(server.url, author, 'Muro sbagliato');
    const response = await fetch(`${server.url}/api/admin/reject-image/${image.filename}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify('Nella foto si vede una persona.'),
    });
    expect(response.ok).toBe(true);
    const { context, page } = await openAs(author);
    await page.goto(`${server.url}/user/me?tab=upload`);
    const card = page.locator('article', { hasText: 'Muro sbagliato' });
    await card.getByText('Rifiutata').waitFor();
    await card.getByText('Nella foto si vede una persona.').waitFor();
    await context.close();
  });

  it('edits the profile: the server explains a missing password, a new username is saved', async () => {
    const editor = await registerUser(server.url, 'editor');
    const { context, page } = await openAs(editor);
    await page.goto(`${server.url}/user/me`);
    await openMenuItem(page, 'Modifica profilo');
    const dialog = page.getByRole('dialog', { name: 'Modifica Profilo' });
    await dialog.getByText('Lascia vuoto per mantenere la password attuale').waitFor();

    await dialog.getByLabel('Email').fill(`nuovo-${editor.username}@example.it`);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog
      .getByText('Per cambiare email o password inserisci la password attuale.')
      .waitFor();

    const renamed = `${editor.username}x`;
    await dialog.getByLabel('Email').fill(`${editor.username}@example.it`);
    await dialog.getByLabel('Username').fill(renamed);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    const stored = await page.evaluate(() => localStorage.getItem('muri.user'));
    expect(JSON.parse(stored ?? '{}').username).toBe(renamed);

    // A new password with the current one: the session goes on with the new token.
    await openMenuItem(page, 'Modifica profilo');
    await dialog.getByLabel('Nuova Password').fill('nuova-password-sicura');
    await dialog.getByLabel('Password attuale').fill(editor.password);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    const token = await storedToken(page);
    expect(token).not.toBe(editor.token);
    const me = await fetch(`${server.url}/api/users/me`, {
      headers: { authorization: `Bearer ${token ?? ''}` },
    });
    expect(me.status).toBe(200);
    await context.close();
  });

  it('a new username shows at once on a picture of theirs seen earlier in the session', async () => {
    const author = await registerUser(server.url, 'rinomina');
    const imageId = await publish(server.url, author, adminToken, 'Nome nuovo', {
      colour: '#b1a08a',
    });
    const { context, page } = await openAs(author);
    await page.goto(`${server.url}/image/${imageId}`);
    await page.getByRole('heading', { name: 'Nome nuovo' }).waitFor();
    // From the picture's page to the own profile, as its 'Caricata da' chip leads there.
    const uploader = page.locator(`main a[href="/user/${String(author.id)}"]`);
    await expect(uploader.innerText()).resolves.toContain(author.username);
    await uploader.click();
    await page.getByRole('heading', { level: 1, name: author.username }).waitFor();
    await openMenuItem(page, 'Modifica profilo');
    const dialog = page.getByRole('dialog', { name: 'Modifica Profilo' });
    const renamed = `${author.username}z`;
    await dialog.getByLabel('Username').fill(renamed);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    // Back to the picture within the half minute its page is kept: the chip names them anew.
    await page.goBack();
    await page.getByRole('heading', { name: 'Nome nuovo' }).waitFor();
    await uploader.filter({ hasText: renamed }).waitFor({ timeout: 5000 });
    await context.close();
  });

  it("'Scarica i miei dati' downloads the JSON file", async () => {
    const { context, page } = await openAs(owner);
    await page.goto(`${server.url}/user/me`);
    const downloading = page.waitForEvent('download');
    await openMenuItem(page, 'Scarica i miei dati');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`muri-parlanti-dati-${owner.username}.json`);
    const data = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
    expect(data.account.username).toBe(owner.username);
    expect(data.images).toHaveLength(3);
    await context.close();
  });

  it("'Elimina account' refuses a wrong password, then ends the session", async () => {
    const leaving = await registerUser(server.url, 'addio');
    const { context, page } = await openAs(leaving);
    await page.goto(`${server.url}/user/me`);
    await openMenuItem(page, 'Elimina account');
    const dialog = page.getByRole('dialog', { name: 'Elimina account' });
    await dialog.getByText('entro 5 giorni').waitFor();

    await dialog.getByLabel('Password', { exact: true }).fill('password-sbagliata');
    await dialog.getByRole('button', { name: 'Elimina account' }).click();
    await dialog.getByText('La password non è corretta.').waitFor();

    await dialog.getByLabel('Password', { exact: true }).fill(leaving.password);
    await rememberLiveRegions(page);
    await dialog.getByRole('button', { name: 'Elimina account' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect(storedToken(page)).resolves.toBeNull();
    // The home page says the deletion was taken, and when it is complete, in a live region
    // that was there before the text: so a screen reader says it too.
    const notice = page.getByRole('status').filter({ hasText: 'account è stato disattivato' });
    await notice.getByText('entro 5 giorni').waitFor();
    await expect(announcedFromBefore(page, 'account è stato disattivato')).resolves.toBe(true);
    await screenshot(page, 'profile-account-deleted-desktop');
    await notice.getByRole('button', { name: 'Chiudi' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'Muri Parlanti' }).waitFor();
    await expect(notice.count()).resolves.toBe(0);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: leaving.username, password: leaving.password }),
    });
    expect(login.ok).toBe(false);
    await context.close();
  });

  it("'Esci' ends the session and goes to /login", async () => {
    const { context, page } = await openAs(visitor);
    await page.goto(`${server.url}/user/${visitor.id}`);
    await openMenuItem(page, 'Esci');
    await page.waitForURL(`${server.url}/login`);
    await expect(storedToken(page)).resolves.toBeNull();
    await context.close();
  });
});

describe('the privacy policy', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders its headings and promises (${name})`, async () => {
      const { context, page } = await openAs(null, viewport);
      await page.goto(`${server.url}/privacy-policy`);
      await page.getByRole('heading', { level: 1, name: 'Informativa sulla privacy' }).waitFor();
      await expect(page.title()).resolves.toBe('Informativa sulla privacy · Muri Parlanti');
      for (const heading of [
        'Quali dati raccogliamo',
        'Cosa è pubblico e cosa resta privato',
        'Statistiche e indirizzo IP anonimizzato',
        'Età minima',
        'Come eliminare il tuo account',
        'I tuoi diritti',
        'Come inviare una richiesta',
      ]) {
        await expect(
          page.getByRole('heading', { level: 2, name: heading, exact: true }).count(),
        ).resolves.toBe(1);
      }
      const text = await page.locator('main').innerText();
      for (const promise of [
        'almeno 16 anni',
        'entro 5 giorni',
        'Scarica i miei dati',
        'Garante per la protezione dei dati personali',
        'privacy@muriparlanti.it',
      ]) {
        expect(text).toContain(promise);
      }
      // The table of contents is for wide screens.
      await expect(page.getByRole('navigation', { name: 'Indice' }).isVisible()).resolves.toBe(
        name === 'desktop',
      );
      await screenshot(page, `privacy-policy-${name}`);
      await context.close();
    });
  }
});
