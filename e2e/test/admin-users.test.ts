import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, loginAdmin } from './fixtures.js';
import {
  animationsDone,
  announcedFromBefore,
  launchBrowser,
  openSession,
  rememberLiveRegions,
  screenshot,
  startDemoServer,
  tickRow,
  VIEWPORTS,
  type RunningServer,
  type Viewport,
} from './harness.js';

/*
 * 'Gestione Utenti' and the user form pages (SPEC §2 'Admin users', §8, D7), driven in a real
 * browser against the real server with its demo users.
 */

interface ApiAdminUser {
  id_utente: number;
  username: string;
  email: string;
  revision: number;
  is_active: boolean;
  is_superuser: boolean;
}

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

function apiUsers(): Promise<{ users: ApiAdminUser[]; total: number }> {
  return apiAs(server.url, adminToken, '/admin/users');
}

/** Demo users (never the administrator), lowest ids first: the grid's first rows. */
async function demoUsers(): Promise<ApiAdminUser[]> {
  const { users } = await apiUsers();
  return users.filter((user) => !user.is_superuser);
}

/** A page of a fresh browser profile, logged in as the administrator. */
function openAsAdmin(
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  return openSession(browser, server.url, adminToken, { viewport });
}

async function openList(page: Page): Promise<void> {
  await page.goto(`${server.url}/admin/users`);
  await page.getByRole('heading', { level: 1, name: 'Gestione Utenti' }).waitFor();
  await page.getByText(/^Totale utenti: \d+$/).waitFor();
}

/**
 * The grid row of a user. The grid draws only the rows in view, so the toolbar's quick search
 * narrows it to that user first. The search applies after a debounce and moves the rows, so a
 * click on a row found before that could land on whatever takes its place: wait until every
 * row shown matches.
 */
async function rowOf(page: Page, username: string): Promise<Locator> {
  await page.getByPlaceholder('Cerca…').fill(username);
  await expect
    .poll(() => page.locator('.MuiDataGrid-row').filter({ hasNotText: username }).count())
    .toBe(0);
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name: username, exact: true }) });
  await row.waitFor();
  return row;
}

/** A confirmation after an action, said politely (role status). */
async function expectNotice(page: Page, text: string | RegExp): Promise<void> {
  // The region itself takes no room (the snackbar is fixed): its text is what shows.
  await page.getByRole('status').getByText(text).waitFor();
}

describe('Gestione Utenti', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`lists every user with the total the API gives (${name})`, async () => {
      const { total, users } = await apiUsers();
      const { context, page } = await openAsAdmin(viewport);
      await openList(page);
      await expect(page.title()).resolves.toBe('Gestione Utenti · Muri Parlanti');
      await page.getByText(`Totale utenti: ${total}`, { exact: true }).waitFor();
      expect(total).toBe(users.length);

      for (const header of ['ID', 'Username', 'Email', 'Ruolo', 'Immagini caricate']) {
        await page.getByRole('columnheader', { name: header }).first().waitFor();
      }
      // The administrator is the first row, with the Admin chip; a demo user has 'Utente'.
      const adminRow = page
        .getByRole('row')
        .filter({ has: page.getByRole('gridcell', { name: 'admin', exact: true }) });
      await adminRow.getByText('Admin', { exact: true }).waitFor();
      const [first] = await demoUsers();
      if (first === undefined) throw new Error('the demo has no users');
      await page.getByRole('gridcell', { name: first.username, exact: true }).waitFor();
      await page.getByRole('gridcell', { name: 'Utente', exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Modifica' }).first().waitFor();
      await page.getByRole('button', { name: 'Elimina' }).first().waitFor();
      // Nothing of the page itself spills sideways on a phone: only the grid scrolls.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await screenshot(page, `admin-users-list-${name}`);
      // The page size can be chosen at every width (SPEC: 10, 25, 50, 100).
      const pageSize = page.getByRole('combobox', { name: 'Righe per pagina:' });
      await expect(pageSize.isVisible()).resolves.toBe(true);
      await pageSize.click();
      await page.getByRole('option', { name: '10', exact: true }).click();
      await page.getByText(`1–${Math.min(10, total)} di ${total}`, { exact: true }).waitFor();
      await animationsDone(page);
      await screenshot(page, `admin-users-list-10-${name}`);

      await page.getByRole('button', { name: 'Aggiungi Utente' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuovo Utente' });
      await dialog.getByLabel('Username').waitFor();
      await screenshot(page, `admin-users-dialog-new-${name}`);
      await context.close();
    });
  }

  it('exports the list as a CSV with the words the grid shows for role and state', async () => {
    const demo = await demoUsers();
    const target = demo.at(-1);
    if (target === undefined) throw new Error('the demo has no users');
    await apiAs(server.url, adminToken, `/admin/users/${target.id_utente}`, {
      method: 'PUT',
      body: JSON.stringify({ username: target.username, email: target.email, is_active: false }),
    });
    const { context, page } = await openSession(browser, server.url, adminToken, {
      viewport: VIEWPORTS.desktop,
      acceptDownloads: true,
    });
    await openList(page);
    await page.getByRole('button', { name: 'Esporta' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Esporta in CSV' }).click(),
    ]);
    const bytes = await (await import('node:fs/promises')).readFile(await download.path());
    const [header = '', ...lines] = bytes.subarray(3).toString('utf8').split(/\r?\n/u);
    const columns = header.split(';');
    const cellsOf = (username: string) =>
      lines.map((line) => line.split(';')).find((cells) => cells[1] === username) ?? [];
    const cell = (username: string, name: string) => cellsOf(username)[columns.indexOf(name)];
    expect(cell(target.username, 'Stato')).toBe('Disattivato');
    expect(cell(target.username, 'Ruolo')).toBe('Utente');
    expect(cell('admin', 'Stato')).toBe('Attivo');
    expect(cell('admin', 'Ruolo')).toBe('Admin');
    await context.close();
  });

  it('edits a demo user in the dialog: e-mail changed, account deactivated', async () => {
    const [, target] = await demoUsers();
    if (target === undefined) throw new Error('the demo has too few users');
    const newEmail = `nuovo.${target.id_utente}@example.it`;
    const { context, page } = await openAsAdmin();
    await openList(page);

    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/api/admin/users/')) {
        sent.push(request.postDataJSON());
      }
    });
    const row = await rowOf(page, target.username);
    await row.getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Utente' });
    await dialog.waitFor();
    await expect(dialog.getByLabel('Username').inputValue()).resolves.toBe(target.username);
    await expect(dialog.getByLabel('Email').inputValue()).resolves.toBe(target.email);
    await expect(dialog.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    await dialog.getByText('Lascia vuoto per mantenere la password attuale').waitFor();
    await expect(dialog.getByLabel('Utente Attivo').isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel('Amministratore').isChecked()).resolves.toBe(false);

    await dialog.getByLabel('Email').fill(newEmail);
    await dialog.getByLabel('Utente Attivo').uncheck();
    await screenshot(page, 'admin-users-dialog-edit-desktop');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectNotice(page, 'Utente aggiornato');

    // The grid reloaded: the new e-mail and the deactivated state are there.
    const updated = await rowOf(page, target.username);
    await updated.getByRole('gridcell', { name: newEmail, exact: true }).waitFor();
    await updated.getByText('Disattivato', { exact: true }).waitFor();
    const saved = (await apiUsers()).users.find((user) => user.id_utente === target.id_utente);
    expect(saved).toMatchObject({ email: newEmail, is_active: false, is_superuser: false });
    // An empty password is not sent: the current one stays. The revision the row was listed
    // with goes back, so an edit someone saved meanwhile would be a 409, not undone.
    expect(sent).toEqual([
      {
        username: target.username,
        email: newEmail,
        is_active: false,
        is_superuser: false,
        revision: target.revision,
      },
    ]);
    await context.close();
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    const [first, second] = await demoUsers();
    if (first === undefined || second === undefined) throw new Error('too few demo users');
    const { context, page } = await openAsAdmin();
    await openList(page);
    const row = await rowOf(page, second.username);
    await row.getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Utente' });
    await dialog.getByLabel('Username').fill(first.username);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Username o email già in uso' }).waitFor();
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await dialog.waitFor({ state: 'detached' });
    const unchanged = (await apiUsers()).users.find((user) => user.id_utente === second.id_utente);
    expect(unchanged?.username).toBe(second.username);
    await context.close();
  });

  it('creates a user on /admin/users/new (reached from the dialog) and edits it on its page', async () => {
    const { context, page } = await openAsAdmin();
    await openList(page);
    const username = `nuova_utente${Date.now() % 100_000}`;

    // What was typed in the dialog goes along to the full page.
    await page.getByRole('button', { name: 'Aggiungi Utente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuovo Utente' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByRole('button', { name: 'Apri a pagina intera' }).click();
    await page.waitForURL(`${server.url}/admin/users/new`);
    await page.getByRole('heading', { level: 1, name: 'Nuovo Utente' }).waitFor();
    const form = page.getByRole('form', { name: 'Nuovo Utente' });
    await expect(form.getByLabel('Username').inputValue()).resolves.toBe(username);

    // Required fields are checked by the browser here: nothing is sent while one is empty.
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/users')) posted += 1;
    });
    await form.getByRole('button', { name: 'Salva' }).click();
    await expect(form.locator('input:invalid').count()).resolves.toBe(2);
    expect(posted).toBe(0);
    await expect(form.getByLabel('Email').getAttribute('type')).resolves.toBe('email');
    await form.getByLabel('Superuser').waitFor();

    await form.getByLabel('Email').fill(`${username}@example.it`);
    await form.getByLabel(/^Password/).fill('password-nuova-1');
    await screenshot(page, 'admin-users-form-new-desktop');
    await form.getByRole('button', { name: 'Salva' }).click();
    await page.waitForURL(`${server.url}/admin/users`);
    await expectNotice(page, 'Utente creato');
    await rowOf(page, username);
    const created = (await apiUsers()).users.find((user) => user.username === username);
    expect(created).toMatchObject({
      email: `${username}@example.it`,
      is_active: true,
      is_superuser: false,
    });
    if (created === undefined) throw new Error('not created');
    // The password given is the one that works.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'password-nuova-1' }),
    });
    expect(login.status).toBe(200);

    await page.goto(`${server.url}/admin/users/${created.id_utente}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Modifica Utente' }).waitFor();
    const edit = page.getByRole('form', { name: 'Modifica Utente' });
    await expect(edit.getByLabel('Username').inputValue()).resolves.toBe(username);
    await expect(edit.getByLabel('Email').inputValue()).resolves.toBe(`${username}@example.it`);
    await expect(edit.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    await expect(
      edit.getByLabel('Password', { exact: true }).getAttribute('required'),
    ).resolves.toBeNull();
    await edit.getByText('Lascia vuoto per mantenere la password attuale').waitFor();
    await screenshot(page, 'admin-users-form-edit-desktop');

    await edit.getByLabel('Username').fill(`${username}_b`);
    await edit.getByLabel('Superuser').check();
    await edit.getByRole('button', { name: 'Salva' }).click();
    await page.waitForURL(`${server.url}/admin/users`);
    await expectNotice(page, 'Utente aggiornato');
    const row = await rowOf(page, `${username}_b`);
    await row.getByText('Admin', { exact: true }).waitFor();
    const edited = (await apiUsers()).users.find((user) => user.id_utente === created.id_utente);
    expect(edited).toMatchObject({ username: `${username}_b`, is_superuser: true });
    // The blank password kept the old one.
    const again = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `${username}_b`, password: 'password-nuova-1' }),
    });
    expect(again.status).toBe(200);

    // Annulla goes back to the list without saving.
    await page.goto(`${server.url}/admin/users/${created.id_utente}/edit`);
    await page.getByRole('form', { name: 'Modifica Utente' }).getByLabel('Username').fill('zzz');
    await page.getByRole('link', { name: 'Annulla' }).click();
    await page.waitForURL(`${server.url}/admin/users`);
    const kept = (await apiUsers()).users.find((user) => user.id_utente === created.id_utente);
    expect(kept?.username).toBe(`${username}_b`);
    await context.close();
  });

  it('starts the form page from the account as it is now, not as last seen', async () => {
    const [, , , target] = await demoUsers();
    if (target === undefined) throw new Error('the demo has too few users');
    const renamed = `${target.username}_nuovo`;
    const { context, page } = await openAsAdmin();
    await page.goto(`${server.url}/admin/users/${target.id_utente}/edit`);
    const form = page.getByRole('form', { name: 'Modifica Utente' });
    await expect(form.getByLabel('Username').inputValue()).resolves.toBe(target.username);
    await page.getByRole('link', { name: 'Annulla' }).click();
    await page.getByText(/^Totale utenti: \d+$/).waitFor();

    // Renamed in the list's dialog, then back to the page seen before.
    const row = await rowOf(page, target.username);
    await row.getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Utente' });
    await dialog.getByLabel('Username').fill(renamed);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectNotice(page, 'Utente aggiornato');
    await page.goBack();
    await page.waitForURL(`${server.url}/admin/users/${target.id_utente}/edit`);
    // The old name there would be saved back by the next 'Salva'.
    await expect(form.getByLabel('Username').inputValue()).resolves.toBe(renamed);
    await context.close();
  });

  it('says so when the user of the form page cannot be loaded', async () => {
    const { context, page } = await openAsAdmin();
    await page.goto(`${server.url}/admin/users/abc/edit`);
    await page
      .getByRole('alert')
      .filter({ hasText: "Errore nel caricamento dell'utente" })
      .waitFor();
    await page.goto(`${server.url}/admin/users/999999/edit`);
    await page
      .getByRole('alert')
      .filter({ hasText: "Errore nel caricamento dell'utente: Utente non trovato" })
      .waitFor();
    await context.close();
  });

  it('shows the form pages on a phone', async () => {
    const [first] = await demoUsers();
    if (first === undefined) throw new Error('the demo has no users');
    const { context, page } = await openAsAdmin(VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/users/new`);
    await page.getByRole('form', { name: 'Nuovo Utente' }).getByLabel('Username').waitFor();
    await screenshot(page, 'admin-users-form-new-phone');
    await page.goto(`${server.url}/admin/users/${first.id_utente}/edit`);
    const edit = page.getByRole('form', { name: 'Modifica Utente' });
    await expect(edit.getByLabel('Username').inputValue()).resolves.toBe(first.username);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await screenshot(page, 'admin-users-form-edit-phone');

    await page.goto(`${server.url}/admin/users`);
    const row = await rowOf(page, first.username);
    await row.getByRole('button', { name: 'Modifica' }).click();
    await page.getByRole('dialog', { name: 'Modifica Utente' }).getByLabel('Username').waitFor();
    await screenshot(page, 'admin-users-dialog-edit-phone');
    await context.close();
  });

  it('deletes a user after the confirmation', async () => {
    const users = await demoUsers();
    const target = users.at(-1);
    if (target === undefined) throw new Error('the demo has no users');
    const { context, page } = await openAsAdmin();
    await openList(page);
    const row = await rowOf(page, target.username);
    await row.getByRole('button', { name: 'Elimina' }).click();
    const confirm = page.getByRole('dialog', { name: `Elimina ${target.username}` });
    await confirm.getByText('Sei sicuro di voler eliminare questo utente?').waitFor();
    await screenshot(page, 'admin-users-confirm-delete-desktop');

    // Annulla deletes nothing.
    await confirm.getByRole('button', { name: 'Annulla' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await apiUsers()).users.some((user) => user.id_utente === target.id_utente)).toBe(true);

    await row.getByRole('button', { name: 'Elimina' }).click();
    await rememberLiveRegions(page);
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await expectNotice(page, `Utente ${target.username} eliminato`);
    // Into a live region that was there before: announced.
    await expect(announcedFromBefore(page, `Utente ${target.username} eliminato`)).resolves.toBe(
      true,
    );
    const { users: after, total } = await apiUsers();
    expect(after.some((user) => user.id_utente === target.id_utente)).toBe(false);
    await page.getByPlaceholder('Cerca…').fill('');
    await page.getByText(`Totale utenti: ${total}`, { exact: true }).waitFor();
    await expect(
      page.getByRole('gridcell', { name: target.username, exact: true }).count(),
    ).resolves.toBe(0);
    await context.close();
  });

  it('offers no deletion of the administrator’s own row (D7), the others’ kept', async () => {
    const { context, page } = await openAsAdmin();
    await openList(page);
    const own = await rowOf(page, 'admin');
    await expect(own.getByRole('button', { name: 'Elimina' }).isDisabled()).resolves.toBe(true);
    await expect(own.getByRole('button', { name: 'Modifica' }).isEnabled()).resolves.toBe(true);
    const [other] = await demoUsers();
    if (other === undefined) throw new Error('too few demo users');
    const theirs = await rowOf(page, other.username);
    await expect(theirs.getByRole('button', { name: 'Elimina' }).isEnabled()).resolves.toBe(true);
    expect((await apiUsers()).users.some((user) => user.username === 'admin')).toBe(true);
    await screenshot(page, 'admin-users-own-row-desktop');
    await context.close();
  });

  it('shows the own e-mail, password and rights without offering them', async () => {
    const { context, page } = await openAsAdmin();
    await openList(page);
    const own = await rowOf(page, 'admin');
    // D3: e-mail and password change only with the current password, on the profile; the own
    // rights are not the administrator's to drop. The name can still be saved.
    await own.getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Utente' });
    await expect(dialog.getByLabel('Email').isDisabled()).resolves.toBe(true);
    await expect(dialog.getByLabel('Password', { exact: true }).isDisabled()).resolves.toBe(true);
    await dialog.getByText('Cambia la tua email dal tuo profilo.').waitFor();
    await dialog.getByText('Cambia la tua password dal tuo profilo.').waitFor();
    // Nor can it be deactivated or lose its rights here (the server refuses both too).
    await expect(dialog.getByLabel('Utente Attivo').isDisabled()).resolves.toBe(true);
    await expect(dialog.getByLabel('Amministratore').isDisabled()).resolves.toBe(true);
    await dialog
      .getByText('Non puoi togliere a te stesso i permessi di amministratore o disattivarti.')
      .waitFor();
    // The picture once the dialog has faded in.
    await page.waitForTimeout(400);
    await screenshot(page, 'admin-users-own-dialog-desktop');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('bulk-deletes the selected users; the administrator among them is refused', async () => {
    const [first, second] = await demoUsers();
    if (first === undefined || second === undefined) throw new Error('too few demo users');
    const { context, page } = await openAsAdmin();
    await openList(page);
    // Picked on the first page without the quick filter: filtering deselects the rows it
    // hides, so a bulk action never reaches a row the administrator cannot see.
    for (const username of ['admin', first.username, second.username]) {
      await tickRow(
        page
          .getByRole('row')
          .filter({ has: page.getByRole('gridcell', { name: username, exact: true }) })
          .getByRole('checkbox', { name: 'Seleziona riga' }),
      );
    }
    await page.getByRole('button', { name: 'Elimina selezionati (3)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm.getByText('Sei sicuro di voler eliminare 3 utenti?').waitFor();
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    // A refusal among them: said assertively (role alert), not as a plain confirmation.
    await page
      .getByRole('alert')
      .getByText(
        'Eliminati: 2 di 3. Non riusciti: 1. Non puoi eliminare il tuo account da qui: usa il tuo profilo.',
      )
      .waitFor();
    const { users, total } = await apiUsers();
    const ids = users.map((user) => user.id_utente);
    expect(ids).not.toContain(first.id_utente);
    expect(ids).not.toContain(second.id_utente);
    expect(users.some((user) => user.username === 'admin')).toBe(true);
    await page.getByText(`Totale utenti: ${total}`, { exact: true }).waitFor();
    // Only what failed stays selected.
    await page.getByRole('button', { name: 'Elimina selezionati (1)' }).waitFor();
    await screenshot(page, 'admin-users-bulk-summary-desktop');
    await context.close();
  });
});
