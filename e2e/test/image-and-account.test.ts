import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  createCategory,
  jpeg,
  loginAdmin,
  publish,
  registerUser,
  type ApiUser,
} from './fixtures.js';
import {
  announcedFromBefore,
  launchBrowser,
  rememberLiveRegions,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
} from './harness.js';

/*
 * The account screens (registration, login, upload) and the image page, in a real Chromium
 * against the real server, with data made through the API.
 */

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let author: ApiUser;
let viewer: ApiUser;
let categoryId: number;
let imageId: number;
let relatedId: number;

beforeAll(async () => {
  // Six accounts are opened here, one more than an address may open in ten minutes; the
  // limits themselves are proven by the server suite.
  server = await startServer({ RATE_LIMITS: '0' });
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  author = await registerUser(server.url, 'autore');
  viewer = await registerUser(server.url, 'lettore');
  categoryId = await createCategory(server.url, adminToken, 'messaggi_di_prova');
  imageId = await publish(server.url, author, adminToken, 'Il muro ricorda', {
    categoryId,
    tags: ['memoria', 'periferia'],
  });
  relatedId = await publish(server.url, author, adminToken, 'Anche questo muro', {
    categoryId,
    tags: ['memoria'],
    colour: '#7a9bb5',
  });
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

interface Opened {
  page: Page;
  /** Closes the context, and fails the test if the page threw or logged a script error. */
  close: () => Promise<void>;
}

/** A fresh browser context at the given width, already logged in as `user` when given. */
async function open(
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
  user?: ApiUser,
): Promise<Opened> {
  const context: BrowserContext = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // Failed requests are part of some tests (a missing image, a refused download).
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  if (user !== undefined) {
    const body = await (
      await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: user.password }),
      })
    ).json();
    // Any path serves the app; storage belongs to the origin.
    await page.goto(`${server.url}/login`);
    await page.evaluate(
      ({ token, account }) => {
        localStorage.setItem('muri.token', token);
        localStorage.setItem('muri.user', account);
      },
      { token: body.access_token as string, account: JSON.stringify(body.user) },
    );
  }
  return {
    page,
    close: async () => {
      await context.close();
      expect(errors).toEqual([]);
    },
  };
}

/** A reaction button of the image page: named by its reaction and its count ('Mi piace: 3'). */
function reaction(page: Page, label: string): Locator {
  return page.getByRole('button', { name: new RegExp(`^${label}: \\d+$`) });
}

async function counts(user: ApiUser, id: number) {
  const response = await fetch(`${server.url}/api/images/${id}/interactions`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return (await response.json()) as {
    interactions_count: { likes: number; favorites: number; downloads: number; views: number };
    is_liked: boolean;
  };
}

describe('registration', () => {
  it('checks the passwords, shows the server’s answer and opens a session', async () => {
    const { page, close } = await open();
    await page.goto(`${server.url}/register`);
    await page.getByRole('heading', { name: 'Registrati' }).waitFor();
    await expect(page.title()).resolves.toBe('Registrati · Muri Parlanti');

    const username = `nuovo${Date.now() % 100000}`;
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`${username}@example.it`);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('password-lunga');
    await page
      .getByRole('textbox', { name: 'Conferma Password', exact: true })
      .fill('password-diversa');
    await page.getByRole('checkbox', { name: 'Dichiaro di avere almeno 16 anni' }).check();
    await page.getByRole('button', { name: 'Registrati' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Le password non coincidono');
    await screenshot(page, 'image-and-account-register-desktop');

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('corta');
    await page.getByRole('textbox', { name: 'Conferma Password', exact: true }).fill('corta');
    await page.getByRole('button', { name: 'Registrati' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'La password deve essere di almeno 8 caratteri',
    );

    // An address without its domain is said at once, on the field it is about.
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('password-lunga');
    await page
      .getByRole('textbox', { name: 'Conferma Password', exact: true })
      .fill('password-lunga');
    await email.fill(`${username}@example`);
    await page.getByRole('button', { name: 'Registrati' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Inserisci un indirizzo email valido.',
    );
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    await email.fill(`${username}@example.it`);

    // The server's 400 detail: the name belongs to somebody else; the fields it is about marked.
    const name = page.getByRole('textbox', { name: 'Username', exact: true });
    await name.fill(author.username);
    await page.getByRole('button', { name: 'Registrati' }).click();
    await page.getByText('Username o email già in uso').waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
    await page.getByRole('button', { name: 'Registrati' }).click();
    await page.waitForURL(`${server.url}/`);
    const stored = await page.evaluate(() => localStorage.getItem('muri.user'));
    expect(JSON.parse(stored ?? 'null')).toMatchObject({ username });
    await close();

    const phone = await open(VIEWPORTS.phone);
    await phone.page.goto(`${server.url}/register`);
    await phone.page.getByRole('link', { name: 'Hai già un account? Accedi' }).waitFor();
    await screenshot(phone.page, 'image-and-account-register-phone');
    await phone.page.getByRole('link', { name: 'Hai già un account? Accedi' }).click();
    await phone.page.waitForURL(`${server.url}/login`);
    await phone.close();
  });
});

describe('login', () => {
  it('refuses wrong credentials and returns to the requested page', async () => {
    const { page, close } = await open();
    await page.goto(`${server.url}/create`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Accedi' }).waitFor();
    await expect(page.title()).resolves.toBe('Accedi · Muri Parlanti');
    await page.getByRole('link', { name: 'Non hai un account? Registrati' }).waitFor();

    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(viewer.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('password-sbagliata');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Username o password non validi',
    );
    await screenshot(page, 'image-and-account-login-desktop');

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(viewer.password);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL(`${server.url}/create`);
    await page.getByRole('heading', { name: 'Carica una nuova immagine' }).waitFor();
    await close();

    const phone = await open(VIEWPORTS.phone);
    await phone.page.goto(`${server.url}/login`);
    await phone.page.getByRole('button', { name: 'Accedi' }).waitFor();
    await screenshot(phone.page, 'image-and-account-login-phone');
    await phone.close();
  });
});

/** The secret of the newest reset link in the server's outbox for `address`, once it is written. */
async function resetSecretMailedTo(address: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const names = await fs.readdir(outbox).catch(() => [] as string[]);
    for (const name of names.sort().reverse()) {
      // Quoted-printable: soft line breaks ('=' at a line's end) joined back.
      const raw = (await fs.readFile(path.join(outbox, name), 'utf8')).replace(/=\r?\n/g, '');
      if (!raw.includes(`To: ${address}`)) continue;
      const secret = /\/reset-password#([\w-]+)/.exec(raw)?.[1];
      if (secret !== undefined) return secret;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset e-mail to ${address}`);
}

/** The text of the element holding the focus ('BODY' when it fell to the page). */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement === document.body
      ? 'BODY'
      : (document.activeElement?.textContent ?? '').trim(),
  );
}

/** The text the focused element is described by (aria-describedby), '' for none. */
function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() =>
    (document.activeElement?.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );
}

describe('a forgotten password', () => {
  it('is asked for from the login page and chosen again through the e-mail’s link', async () => {
    const user = await registerUser(server.url, 'smemorato');
    const { page, close } = await open(VIEWPORTS.phone);
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Password dimenticata?' }).click();
    await page.waitForURL(`${server.url}/forgot-password`);
    await page.getByRole('heading', { name: 'Password dimenticata' }).waitFor();
    await expect(page.title()).resolves.toBe('Password dimenticata · Muri Parlanti');

    // Checked before the round trip, in the server's words.
    await page.getByRole('textbox', { name: 'Email' }).fill('non-un-indirizzo');
    await page.getByRole('button', { name: 'Invia il link' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Inserisci un indirizzo email valido.',
    );
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await rememberLiveRegions(page);
    await page.getByRole('button', { name: 'Invia il link' }).click();
    const sent =
      'Se l’indirizzo è quello di un account, riceverai a breve un’e-mail con il link per scegliere una nuova password.';
    await page.getByRole('status').filter({ hasText: sent }).waitFor();
    await expect(page.getByRole('status').innerText()).resolves.toBe(sent);
    // Into a live region that was there before the form went: announced.
    await expect(announcedFromBefore(page, sent)).resolves.toBe(true);
    // The form went with the focus in it: the way back to the login has it, not the body.
    await expect(focusedText(page)).resolves.toBe('Torna all’accesso');
    // A screen reader drops the polite announcement when the focus moves: the link it moved to
    // is described by the confirmation, which is read with it.
    await expect(focusedDescription(page)).resolves.toBe(sent);
    await screenshot(page, 'image-and-account-forgot-password-phone');

    const secret = await resetSecretMailedTo(user.email);
    await page.goto(`${server.url}/reset-password#${secret}`);
    await page.getByRole('heading', { name: 'Nuova password' }).waitFor();
    const fresh = page.getByRole('textbox', { name: 'Nuova password', exact: true });
    const again = page.getByRole('textbox', { name: 'Conferma Password', exact: true });
    await fresh.fill('nuova-password-1');
    await again.fill('nuova-password-2');
    await page.getByRole('button', { name: 'Salva la nuova password' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Le password non coincidono');
    await again.fill('nuova-password-1');
    await rememberLiveRegions(page);
    await page.getByRole('button', { name: 'Salva la nuova password' }).click();
    const saved = 'Password aggiornata: ora puoi accedere con la nuova password.';
    await page.getByRole('status').filter({ hasText: saved }).waitFor();
    await expect(page.getByRole('status').innerText()).resolves.toBe(saved);
    await expect(announcedFromBefore(page, saved)).resolves.toBe(true);
    await expect(focusedText(page)).resolves.toBe('Accedi');
    await expect(focusedDescription(page)).resolves.toBe(saved);
    await screenshot(page, 'image-and-account-reset-password-phone');

    await page.getByRole('link', { name: 'Accedi' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(user.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('nuova-password-1');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL(`${server.url}/`);

    // The link served once: opened again, it says so and offers a new one.
    await page.goto(`${server.url}/reset-password#${secret}`);
    await fresh.fill('ancora-un-altra');
    await again.fill('ancora-un-altra');
    await page.getByRole('button', { name: 'Salva la nuova password' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Il link per scegliere una nuova password non è valido o è scaduto: chiedine uno nuovo.',
    );
    await page.getByRole('link', { name: 'Chiedi un nuovo link' }).waitFor();
    await close();
  });
});

describe('registrations closed by an administrator', () => {
  it('are said at once on /register, instead of a form bound to be refused', async () => {
    const setOpen = (open: boolean) =>
      apiAs(server.url, adminToken, '/admin/settings', {
        method: 'PUT',
        body: JSON.stringify({ registrations_open: open }),
      });
    await setOpen(false);
    try {
      const { page, close } = await open(VIEWPORTS.phone);
      await page.goto(`${server.url}/register`);
      await page.getByText('Le registrazioni sono chiuse al momento.').waitFor();
      await expect(page.getByRole('textbox').count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Registrati' }).count()).resolves.toBe(0);
      await screenshot(page, 'image-and-account-register-closed-phone');
      await page.getByRole('link', { name: 'Hai già un account? Accedi' }).click();
      await page.waitForURL(`${server.url}/login`);
      await close();
    } finally {
      await setOpen(true);
    }
  });
});

describe('a session ended elsewhere', () => {
  it('is followed by every open tab: logging out in one logs the others out at once', async () => {
    const { page, close } = await open(VIEWPORTS.desktop, viewer);
    // A page that records nothing: the image page's test counts this viewer's first view.
    await page.goto(`${server.url}/tags`);
    const account = page.getByRole('link', { name: 'Account' });
    // Once the scripts run (the server's first screen draws the visitor's header).
    await expect.poll(() => account.getAttribute('href')).toBe(`/user/${viewer.id}`);
    const other = await page.context().newPage();
    await other.goto(`${server.url}/user/me`);
    await other.getByRole('button', { name: 'Opzioni' }).click();
    await other.getByRole('menuitem', { name: 'Esci' }).click();
    await other.waitForURL(`${server.url}/login`);
    // The first tab did nothing, and shows the visitor it now is.
    await expect.poll(() => account.getAttribute('href')).toBe('/login');
    await close();
  });

  it('leaves the visitor anonymous, with the public pages shown, not an error', async () => {
    const guest = await registerUser(server.url, 'ospite');
    const { page, close } = await open(VIEWPORTS.desktop, guest);
    // The password changed on another device: every token issued before is refused (401).
    const changed = await fetch(`${server.url}/api/users/me`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${guest.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'password-nuova-1', current_password: guest.password }),
    });
    expect(changed.status).toBe(200);
    // Before, the lists fetched with the dead token showed 'Token scaduto, effettua il logout'
    // until a reload, although the session had already been dropped.
    for (const path of [`/category/${categoryId}`, '/search?q=muro', '/']) {
      await page.goto(`${server.url}${path}`);
      await page
        .getByRole('link', { name: /Il muro ricorda/ })
        .first()
        .waitFor();
      await expect(page.getByText('Token scaduto, effettua il logout').count()).resolves.toBe(0);
    }
    await expect(page.evaluate(() => localStorage.getItem('muri.token'))).resolves.toBeNull();
    await screenshot(page, 'session-ended-home-desktop');
    await close();
  });
});

describe('upload', () => {
  it('checks type and size, sends the chosen file and points to the profile', async () => {
    const uploader = await registerUser(server.url, 'fotografo');
    const { page, close } = await open(VIEWPORTS.desktop, uploader);
    await page.goto(`${server.url}/create`);
    await page.getByRole('heading', { name: 'Carica una nuova immagine' }).waitFor();
    await expect(page.title()).resolves.toBe('Carica una nuova immagine · Muri Parlanti');
    for (const rule of [
      'Le immagini devono essere appropriate e rispettare le linee guida della community.',
      'Gli amministratori esaminano ogni immagine prima della pubblicazione.',
      "L'approvazione richiede dalle 24 alle 48 ore.",
      "Riceverai un'e-mail quando la tua immagine sarà approvata o rifiutata.",
    ]) {
      await page.getByText(rule).waitFor();
    }
    await expect(
      page.getByRole('link', { name: 'informativa sulla privacy' }).getAttribute('href'),
    ).resolves.toBe('/privacy-policy');
    await screenshot(page, 'image-and-account-upload-desktop');

    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: 'animazione.gif',
      mimeType: 'image/gif',
      buffer: Buffer.from('GIF89a'),
    });
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Formato file non supportato. Usa JPG, PNG o WEBP.',
    );
    await input.setInputFiles({
      name: 'enorme.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Il file è troppo grande. La dimensione massima è 5MB.',
    );

    // A JPEG by its first bytes, broken after them: only the server can tell, and its
    // detail is what the person reads (SPEC §8).
    await input.setInputFiles({
      name: 'rotta.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 7)]),
    });
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Il file è danneggiato o non è un’immagine valida.',
    );
    await screenshot(page, 'image-and-account-upload-error-desktop');

    // Through the picker, as a person does: the file goes out as soon as it is chosen.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: "Scegli un'immagine" }).click();
    await (
      await chooser
    ).setFiles({
      name: 'muro-del-porto.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg('Porto'),
    });
    await page.getByText('Immagine caricata con successo!').waitFor();
    // The focus left with the button that opened the picker; it goes on to the outcome, not
    // to the body, and the next Tab reaches 'Vai al tuo profilo'.
    await expect(page.evaluate(() => document.activeElement?.textContent ?? null)).resolves.toBe(
      'Immagine caricata con successo!',
    );
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent ?? null)).resolves.toBe(
      'Vai al tuo profilo',
    );
    await screenshot(page, 'image-and-account-upload-success-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'image-and-account-upload-success-phone');
    await page.setViewportSize(VIEWPORTS.desktop);

    const own = await (
      await fetch(`${server.url}/api/users/me/images`, {
        headers: { authorization: `Bearer ${uploader.token}` },
      })
    ).json();
    expect(own.images).toHaveLength(1);
    // The title sent is the file name; the server keeps it without the extension.
    expect(own.images[0]).toMatchObject({ titolo_img: 'muro-del-porto', status: 'pending' });

    await page.getByRole('link', { name: 'Vai al tuo profilo' }).click();
    await page.waitForURL(`${server.url}/user/me`);
    await close();

    const phone = await open(VIEWPORTS.phone, uploader);
    await phone.page.goto(`${server.url}/create`);
    await phone.page.getByRole('button', { name: "Scegli un'immagine" }).waitFor();
    await screenshot(phone.page, 'image-and-account-upload-phone');
    await phone.close();
  });

  it('says and checks the limit an administrator set', async () => {
    const setLimit = (bytes: number) =>
      apiAs(server.url, adminToken, '/admin/settings', {
        method: 'PUT',
        body: JSON.stringify({ upload_max_bytes: bytes }),
      });
    await setLimit(2 * 1024 * 1024);
    try {
      const { page, close } = await open(VIEWPORTS.desktop, viewer);
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') sent.push(request.url());
      });
      await page.goto(`${server.url}/create`);
      await page.getByText('JPG, PNG o WEBP · massimo 2MB').waitFor();
      await page.getByText(/Formati accettati: JPG, PNG o WEBP, fino a 2MB\./).waitFor();
      await page.locator('input[type="file"]').setInputFiles({
        name: 'grande.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.alloc(3 * 1024 * 1024),
      });
      await expect(page.getByRole('alert').innerText()).resolves.toBe(
        'Il file è troppo grande. La dimensione massima è 2MB.',
      );
      // Refused here, before a byte of it went out.
      expect(sent).toEqual([]);
      await close();
    } finally {
      await setLimit(5 * 1024 * 1024);
    }
  });

  it('opens the file picker from the keyboard, on Enter as on Space', async () => {
    const uploader = await registerUser(server.url, 'tastiera');
    const { page, close } = await open(VIEWPORTS.desktop, uploader);
    // Playwright starts catching pickers when the first listener comes, without waiting for
    // the browser: a key pressed at once could open a real one, unseen, that blocks the next.
    page.on('filechooser', () => undefined);
    await page.goto(`${server.url}/create`);
    // A real button that opens the hidden file field: Enter and Space both click it.
    const button = page.getByRole('button', { name: "Scegli un'immagine" });
    for (const key of ['Space', 'Enter']) {
      await button.focus();
      // A key that opens nothing would otherwise wait the test's whole timeout.
      const chooser = page.waitForEvent('filechooser', { timeout: 5000 });
      await page.keyboard.press(key);
      const opened = await chooser;
      expect(opened.isMultiple()).toBe(false);
      await expect(opened.element().getAttribute('accept')).resolves.toBe(
        '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp',
      );
      if (key === 'Enter') {
        // The file chosen goes out as a click's would.
        await opened.setFiles({
          name: 'muro-da-tastiera.jpg',
          mimeType: 'image/jpeg',
          buffer: await jpeg('Tastiera'),
        });
        await page.getByText('Immagine caricata con successo!').waitFor();
      }
    }
    await close();
  });
});

describe('image page', () => {
  it('names a deactivated author without a link to the profile that is hidden', async () => {
    const gone = await registerUser(server.url, 'sospeso');
    const picture = await publish(server.url, gone, adminToken, 'Muro sospeso');
    await apiAs(server.url, adminToken, `/admin/users/${gone.id}`, {
      method: 'PUT',
      body: JSON.stringify({
        username: gone.username,
        email: `${gone.username}@example.it`,
        is_active: false,
      }),
    });
    const { page, close } = await open(VIEWPORTS.desktop, viewer);
    await page.goto(`${server.url}/image/${picture}`);
    const main = page.getByRole('main');
    await main.getByText(gone.username, { exact: true }).waitFor();
    // Its profile answers 'Utente non trovato': the name is shown, not offered as a way there.
    await expect(main.getByRole('link', { name: gone.username }).count()).resolves.toBe(0);
    await close();
  });

  it('shows the picture, its counts and links, and toggles reactions', async () => {
    const { page, close } = await open(VIEWPORTS.desktop, viewer);
    await page.goto(`${server.url}/image/${imageId}`);
    await page.getByRole('heading', { name: 'Il muro ricorda', level: 1 }).waitFor();
    await expect(page.title()).resolves.toBe('Il muro ricorda · Muri Parlanti');
    // The view of this load is counted once.
    await page.getByText('1 visualizzazione', { exact: true }).waitFor();

    // Each button is named by its reaction and its count, which is also its visible text.
    const like = reaction(page, 'Mi piace');
    await expect(like.getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(like.innerText()).resolves.toBe('0');
    await page.getByRole('button', { name: 'Mi piace: 0', exact: true }).waitFor();
    for (const name of ['Preferiti', 'Triste', 'Non mi piace', 'Wow']) {
      await page.getByRole('button', { name: `${name}: 0`, exact: true }).waitFor();
    }

    await like.click();
    await page.locator('[aria-label="Mi piace: 1"][aria-pressed="true"]').waitFor();
    await expect(like.innerText()).resolves.toBe('1');
    expect((await counts(viewer, imageId)).is_liked).toBe(true);
    await like.click();
    await page.locator('[aria-label="Mi piace: 0"][aria-pressed="false"]').waitFor();
    await expect(like.innerText()).resolves.toBe('0');

    // A reaction's label opens above it, never over 'Scarica' below (1 px for rounding).
    const favourite = reaction(page, 'Preferiti');
    await favourite.hover();
    const label = page.getByRole('tooltip', { name: 'Preferiti' });
    await label.waitFor();
    const labelBox = await label.boundingBox();
    const favouriteBox = await favourite.boundingBox();
    expect((labelBox?.y ?? 0) + (labelBox?.height ?? 0)).toBeLessThanOrEqual(
      (favouriteBox?.y ?? 0) + 1,
    );
    await favourite.click();
    await page.locator('[aria-label="Preferiti: 1"][aria-pressed="true"]').waitFor();
    await expect(favourite.innerText()).resolves.toBe('1');

    // The download: saved under the server's name, counted at once.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Scarica: \d+$/ }).click();
    expect((await download).suggestedFilename()).toBe(
      `muri-parlanti-${imageId}-il-muro-ricorda.webp`,
    );
    await expect(page.getByTestId('downloads').innerText()).resolves.toBe('1');

    // Views are written in batches (VIEW_FLUSH_MS), so the stored count may lag a moment.
    await expect.poll(async () => (await counts(viewer, imageId)).interactions_count.views).toBe(1);
    const after = await counts(viewer, imageId);
    expect(after.interactions_count).toMatchObject({
      likes: 0,
      favorites: 1,
      downloads: 1,
      views: 1,
    });

    // Inside the page itself: the category strip above has a link of the same name.
    const main = page.getByRole('main');
    await expect(
      main.getByRole('link', { name: 'Di Prova', exact: true }).getAttribute('href'),
    ).resolves.toBe(`/category/${categoryId}`);
    const tags = await (await fetch(`${server.url}/api/images/${imageId}`)).json();
    for (const tag of tags.tags as Array<{ id_tag: number; nome: string }>) {
      await expect(
        main.getByRole('link', { name: tag.nome, exact: true }).getAttribute('href'),
      ).resolves.toBe(`/tag/${tag.id_tag}`);
    }
    await expect(
      main.getByRole('link', { name: author.username }).getAttribute('href'),
    ).resolves.toBe(`/user/${author.id}`);

    await page.getByRole('heading', { name: 'Immagini Correlate' }).waitFor();
    await page.getByText('Scorri per vedere altre immagini correlate').waitFor();
    const related = page.getByRole('link', { name: 'Anche questo muro' });
    await expect(related.getAttribute('href')).resolves.toBe(`/image/${relatedId}`);
    await screenshot(page, 'image-and-account-image-desktop');

    await related.click();
    await page.getByRole('heading', { name: 'Anche questo muro', level: 1 }).waitFor();
    await close();

    const phone = await open(VIEWPORTS.phone, viewer);
    await phone.page.goto(`${server.url}/image/${imageId}`);
    await phone.page.getByRole('heading', { name: 'Immagini Correlate' }).waitFor();
    await phone.page.locator('[aria-label^="Preferiti: "][aria-pressed="true"]').waitFor();
    await screenshot(phone.page, 'image-and-account-image-phone');
    await phone.close();
  });

  it('sends an anonymous reader to log in, then back to the picture', async () => {
    const { page, close } = await open();
    await page.goto(`${server.url}/image/${imageId}`);
    await reaction(page, 'Mi piace').click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(viewer.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(viewer.password);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL(`${server.url}/image/${imageId}`);
    await page.getByRole('heading', { name: 'Il muro ricorda', level: 1 }).waitFor();
    await close();
  });

  it('reports failed reactions and rolls a failed download back', async () => {
    const { page, close } = await open(VIEWPORTS.desktop, viewer);
    await page.route('**/api/images/*/interactions', (route) =>
      route.request().method() === 'POST' &&
      route.request().postData()?.includes('"id_tipo_interazione":1') === true
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{}' })
        : route.continue(),
    );
    await page.route('**/api/images/*/download', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await page.goto(`${server.url}/image/${relatedId}`);
    await page.getByRole('heading', { name: 'Anche questo muro', level: 1 }).waitFor();

    await reaction(page, 'Mi piace').click();
    await page.getByText('Errore durante il like').waitFor();
    await expect(reaction(page, 'Mi piace').innerText()).resolves.toBe('0');

    await page.getByRole('button', { name: /^Scarica: \d+$/ }).click();
    await page.getByText("Errore nel download dell'immagine").waitFor();
    await expect(page.getByTestId('downloads').innerText()).resolves.toBe('0');
    await close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`says when an image does not exist (${name})`, async () => {
      const { page, close } = await open(viewport);
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/images/999999') asked.push(request.url());
      });
      await page.goto(`${server.url}/image/999999`);
      await page.getByRole('heading', { name: 'Immagine non trovata' }).waitFor();
      // The first screen's 404 is the answer: the page does not ask a second time.
      expect(asked).toHaveLength(1);
      await expect(page.title()).resolves.toBe('Immagine non trovata · Muri Parlanti');
      await screenshot(page, `image-and-account-image-missing-${name}`);
      await close();
    });
  }
});
