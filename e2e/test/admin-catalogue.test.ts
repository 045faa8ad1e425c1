import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createCategory, loginAdmin } from './fixtures.js';
import { categoryDisplayName } from '../../web/src/lib/format.js';
import {
  launchBrowser,
  openSession,
  screenshot,
  startDemoServer,
  tickRow,
  VIEWPORTS,
  type RunningServer,
  type Viewport,
} from './harness.js';

/*
 * The catalogue screens of the back-office (SPEC §2 'Gestione Immagini', 'Gestione Categorie',
 * 'Gestione Tag', D7), driven in a real browser against the server with its demo gallery; every
 * change is checked through the API, public where the public sees it.
 */

interface AdminImage {
  id_image: number;
  filename: string;
  titolo_img: string | null;
  username: string;
  id_categoria: number;
  status: string;
  tags: string[];
}

interface Named {
  nome: string;
  image_count: number;
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
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

function adminApi<T>(path: string, init: RequestInit = {}): Promise<T> {
  return apiAs<T>(server.url, adminToken, path, init);
}

/** A fresh browser profile where the administrator is logged in, on `path`. */
async function openAdmin(
  path: string,
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openSession(browser, server.url, adminToken, { viewport });
  await opened.page.goto(`${server.url}${path}`);
  return opened;
}

/** The ids of the rows the grid shows (all of them while there are fewer than a screenful). */
function rowIds(page: Page): Promise<number[]> {
  return page
    .locator('.MuiDataGrid-row[data-id]')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-id'))));
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

function row(page: Page, id: number): Locator {
  return page.locator(`.MuiDataGrid-row[data-id="${id}"]`);
}

async function searchImages(page: Page, term: string, how: 'enter' | 'button'): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Cerca immagini...' });
  await box.fill(term);
  if (how === 'enter') await box.press('Enter');
  // The page's own search form; the grid's toolbar has a quick filter of its own.
  else await page.getByRole('search').getByRole('button', { name: 'Cerca', exact: true }).click();
}

describe('Gestione Immagini', () => {
  it('searches on the server with Enter and with the button', async () => {
    const all = await adminApi<AdminImage[]>('/admin/images');
    // A term shared by a few images, so the whole answer fits on one screen of the grid.
    const tags = await adminApi<Named[]>('/admin/tags');
    let term = '';
    let expected: number[] = [];
    for (const tag of tags) {
      const found = await adminApi<AdminImage[]>(
        `/admin/images?search=${encodeURIComponent(tag.nome)}`,
      );
      if (found.length >= 2 && found.length <= 5) {
        term = tag.nome;
        expected = found.map((image) => image.id_image);
        break;
      }
    }
    expect(term).not.toBe('');

    const { context, page } = await openAdmin('/admin/images');
    await page.getByRole('heading', { level: 1, name: 'Gestione Immagini' }).waitFor();
    await expect(page.title()).resolves.toBe('Gestione Immagini · Muri Parlanti');
    await row(page, all[0]!.id_image).waitFor();

    await searchImages(page, term.toLocaleUpperCase('it-IT'), 'enter');
    await expect.poll(async () => sorted(await rowIds(page))).toEqual(sorted(expected));

    const target = all.find((image) => !expected.includes(image.id_image))!;
    await searchImages(page, target.filename, 'button');
    await expect.poll(() => rowIds(page)).toEqual([target.id_image]);

    // 'Visualizza' is a link to the public page in a new tab that cannot reach back.
    const view = row(page, target.id_image).getByRole('link', { name: 'Visualizza' });
    await expect(view.getAttribute('href')).resolves.toBe(`/image/${target.id_image}`);
    await expect(view.getAttribute('target')).resolves.toBe('_blank');
    await expect(view.getAttribute('rel')).resolves.toContain('noopener');

    await searchImages(page, 'nessuna-immagine-si-chiama-così', 'enter');
    await page.getByText('Nessuna immagine trovata').waitFor();
    await context.close();
  });

  it("edits an image's title, category and tags", async () => {
    const all = await adminApi<AdminImage[]>('/admin/images');
    const target = all.find((image) => image.status === 'approved' && image.tags.length > 0)!;
    const categoryId = await createCategory(server.url, adminToken, 'messaggi_cortili_e2e');

    const { context, page } = await openAdmin('/admin/images');
    await searchImages(page, target.filename, 'enter');
    await expect.poll(() => rowIds(page)).toEqual([target.id_image]);
    await row(page, target.id_image).getByRole('button', { name: 'Modifica' }).click();

    const dialog = page.getByRole('dialog', { name: 'Modifica Immagine' });
    await dialog.getByRole('textbox', { name: 'Titolo' }).fill('Titolo cambiato dal test');
    await dialog.getByRole('combobox', { name: 'Categoria' }).click();
    await page.getByRole('option', { name: 'Cortili E2e' }).click();
    const tagInput = dialog.getByRole('combobox', { name: 'Tag' });
    await tagInput.click();
    for (const _tag of target.tags) await tagInput.press('Backspace');
    await tagInput.fill('Scritta nuova');
    await tagInput.press('Enter');
    await tagInput.fill('#muro-e2e');
    await tagInput.press('Enter');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Immagine aggiornata').waitFor();
    // The list reloaded with the new values.
    await row(page, target.id_image).getByText('Titolo cambiato dal test').waitFor();
    await row(page, target.id_image).getByText('Cortili E2e').waitFor();

    const image = (await (await fetch(`${server.url}/api/images/${target.id_image}`)).json()) as {
      titolo_img: string;
      category: { id_categoria: number };
      tags: { nome: string }[];
    };
    expect(image.titolo_img).toBe('Titolo cambiato dal test');
    expect(image.category.id_categoria).toBe(categoryId);
    expect(image.tags.map((tag) => tag.nome).sort()).toEqual(['muro-e2e', 'Scritta nuova'].sort());
    await context.close();
  });

  it('refuses to save over an edit another administrator made after the dialog opened', async () => {
    const all = await adminApi<AdminImage[]>('/admin/images');
    const target = all.find((image) => image.status === 'approved' && image.id_image % 2 === 1)!;
    const { context, page } = await openAdmin('/admin/images');
    await searchImages(page, target.filename, 'enter');
    await expect.poll(() => rowIds(page)).toEqual([target.id_image]);
    await row(page, target.id_image).getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Immagine' });
    await dialog.getByRole('textbox', { name: 'Titolo' }).fill('Titolo da un modulo vecchio');

    // Meanwhile another administrator gives it other tags.
    await adminApi(`/admin/images/${target.id_image}`, {
      method: 'PUT',
      body: JSON.stringify({ tags: ['tag-del-collega'] }),
    });

    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog
      .getByText(
        'Un altro amministratore ha modificato questa immagine dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
      )
      .waitFor();
    await screenshot(page, 'admin-images-edit-stale-desktop');
    const kept = (await adminApi<AdminImage[]>('/admin/images')).find(
      (image) => image.id_image === target.id_image,
    )!;
    expect(kept.tags).toEqual(['tag-del-collega']);
    expect(kept.titolo_img).toBe(target.titolo_img);

    // Reopened from the reloaded list, the dialog shows the colleague's tags and saves.
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await row(page, target.id_image).getByText('tag-del-collega').waitFor();
    await row(page, target.id_image).getByRole('button', { name: 'Modifica' }).click();
    await dialog.getByText('tag-del-collega').waitFor();
    await dialog.getByRole('textbox', { name: 'Titolo' }).fill('Titolo dopo il ricarico');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await adminApi<AdminImage[]>('/admin/images')).find(
      (image) => image.id_image === target.id_image,
    )!;
    expect(saved).toMatchObject({
      titolo_img: 'Titolo dopo il ricarico',
      tags: ['tag-del-collega'],
    });
    await context.close();
  });

  it('deletes an image after confirmation', async () => {
    const all = await adminApi<AdminImage[]>('/admin/images');
    const target = all.findLast((image) => image.status === 'approved')!;
    const { context, page } = await openAdmin('/admin/images');
    await searchImages(page, target.filename, 'enter');
    await expect.poll(() => rowIds(page)).toEqual([target.id_image]);

    await row(page, target.id_image).getByRole('button', { name: 'Elimina' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm.getByText('Sei sicuro di voler eliminare questa immagine?').waitFor();
    // Which picture it means: its title and its author.
    await confirm
      .getByText(`«${target.titolo_img ?? 'Immagine senza titolo'}», di ${target.username}.`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await page.getByText('Immagine eliminata').waitFor();
    await page.getByText('Nessuna immagine trovata').waitFor();

    const gone = await fetch(`${server.url}/api/images/${target.id_image}`);
    expect(gone.status).toBe(404);
    const left = await adminApi<AdminImage[]>('/admin/images');
    expect(left.some((image) => image.id_image === target.id_image)).toBe(false);
    await context.close();
  });
});

describe('Gestione Categorie', () => {
  it('renames a category, which the public category page then shows', async () => {
    const categories = await adminApi<(Named & { id_categoria: number })[]>('/admin/categories');
    const target = categories.find((category) => category.image_count > 0)!;
    const { context, page } = await openAdmin('/admin/categories');
    await page.getByRole('heading', { level: 1, name: 'Gestione Categorie' }).waitFor();
    await row(page, target.id_categoria)
      .getByText(categoryDisplayName(target.nome), { exact: true })
      .waitFor();

    await row(page, target.id_categoria).getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Categoria' });
    const field = dialog.getByRole('textbox', { name: 'Nome Categoria' });
    await expect(field.inputValue()).resolves.toBe(target.nome);
    await field.fill('messaggi_muri_del_test');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, target.id_categoria).getByText('Muri Del Test', { exact: true }).waitFor();
    await row(page, target.id_categoria).getByText('messaggi_muri_del_test').waitFor();

    await page.goto(`${server.url}/category/${target.id_categoria}`);
    await page.getByRole('heading', { level: 1, name: 'Muri Del Test' }).waitFor();
    await context.close();
  });

  it("offers a category just created in the image dialog, also after a reload within the list's hour", async () => {
    const { context, page } = await openAdmin('/admin/images');
    const categoryOptions = async () => {
      await page.getByRole('button', { name: 'Modifica' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Modifica Immagine' });
      await dialog.getByRole('combobox', { name: 'Categoria' }).click();
      await page.getByRole('option').first().waitFor();
      const names = await page.getByRole('option').allInnerTexts();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Annulla' }).click();
      await dialog.waitFor({ state: 'hidden' });
      return names;
    };
    // The public category list is now kept in this browser's storage (SPEC §7: one hour).
    expect(await categoryOptions()).not.toContain('Portici Nuovi');

    await page.goto(`${server.url}/admin/categories`);
    await page.getByRole('button', { name: 'Aggiungi Categoria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuova Categoria' });
    await dialog.getByRole('textbox', { name: 'Nome Categoria' }).fill('messaggi_portici_nuovi');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.goto(`${server.url}/admin/images`);
    expect(await categoryOptions()).toContain('Portici Nuovi');
    await context.close();
  });

  it('exports the list as a CSV that an Italian spreadsheet opens: semicolons, UTF-8 marked', async () => {
    await createCategory(server.url, adminToken, 'messaggi_città_e2e');
    const opened = await openSession(browser, server.url, adminToken, {
      viewport: VIEWPORTS.desktop,
      acceptDownloads: true,
    });
    const { context, page } = opened;
    await page.goto(`${server.url}/admin/categories`);
    await page.getByRole('button', { name: 'Esporta' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Esporta in CSV' }).click(),
    ]);
    const path = await download.path();
    const bytes = await (await import('node:fs/promises')).readFile(path);
    // Excel guesses a file without the byte order mark as Windows-1252: 'Città' read 'CittÃ '.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const [header, ...lines] = text.split(/\r?\n/);
    // Italian Excel splits columns on ';' (its list separator), a ',' file lands in one column.
    expect(header?.split(';').length).toBeGreaterThan(2);
    // The name as the grid shows it, its accent intact; the date Italian, unquoted.
    expect(lines.find((line) => line.includes(';Città E2e;'))).toMatch(
      /^\d+;Città E2e;0;\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/u,
    );
    await context.close();
  });

  it('lists the categories by the names it shows, in Italian alphabetical order', async () => {
    const categories = await adminApi<(Named & { id_categoria: number })[]>('/admin/categories');
    const shown = categories.map((category) => categoryDisplayName(category.nome));
    expect(shown).toEqual([...shown].sort((a, b) => a.localeCompare(b, 'it')));
    const { context, page } = await openAdmin('/admin/categories');
    await row(page, 1).waitFor();
    const inGrid = await page
      .locator('.MuiDataGrid-row[data-id] [data-field="nome"] .MuiTypography-body2')
      .allInnerTexts();
    expect(inGrid).toEqual(shown.slice(0, inGrid.length));

    // The toolbar's search finds a category by its stored name too, shown under the other.
    const stored = categories.find(
      (category) => category.nome !== categoryDisplayName(category.nome),
    )!;
    await page.getByRole('button', { name: 'Cerca', exact: true }).click();
    await page.getByPlaceholder('Cerca…').fill(stored.nome.toUpperCase());
    await expect
      .poll(() =>
        page
          .locator('.MuiDataGrid-row[data-id]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
      )
      .toEqual([String(stored.id_categoria)]);
    await context.close();
  });

  it("offers no deletion of 'Non categorizzata' (D6), the others' kept", async () => {
    const categories = await adminApi<(Named & { id_categoria: number })[]>('/admin/categories');
    const other = categories.find((category) => category.id_categoria !== 1)!;
    const { context, page } = await openAdmin('/admin/categories');
    const uncategorised = row(page, 1);
    await uncategorised.getByText('Non categorizzata', { exact: true }).first().waitFor();
    await expect(uncategorised.getByRole('button', { name: 'Elimina' }).isDisabled()).resolves.toBe(
      true,
    );
    // Nor by the bulk deletion: its row takes no tick, and 'select all' leaves it out.
    await expect(uncategorised.getByRole('checkbox').isDisabled()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Seleziona tutte le righe' }).click();
    await page
      .getByRole('button', { name: `Elimina selezionate (${Math.min(25, categories.length) - 1})` })
      .waitFor();
    await expect(uncategorised.getByRole('checkbox').isChecked()).resolves.toBe(false);
    await uncategorised.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-categories-uncategorised-desktop');
    await expect(uncategorised.getByRole('button', { name: 'Modifica' }).isEnabled()).resolves.toBe(
      true,
    );
    await expect(
      row(page, other.id_categoria).getByRole('button', { name: 'Elimina' }).isEnabled(),
    ).resolves.toBe(true);
    await context.close();
  });

  it('says why a bulk deletion left a selected category in place', async () => {
    const kept = await createCategory(server.url, adminToken, 'messaggi_gia_eliminati_e2e');
    const doomed = await createCategory(server.url, adminToken, 'messaggi_da_eliminare_e2e');
    const { context, page } = await openAdmin('/admin/categories');
    for (const id of [kept, doomed]) await tickRow(row(page, id).getByRole('checkbox'));
    // Another administrator deletes one of them meanwhile.
    await adminApi(`/admin/categories/${kept}`, { method: 'DELETE' });
    await page.getByRole('button', { name: 'Elimina selezionate (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    // The server's reason, not only a count.
    await page
      .getByRole('alert')
      .getByText('Eliminate: 1 di 2. Non riusciti: 1. Categoria non trovata')
      .waitFor();
    const after = await adminApi<{ id_categoria: number }[]>('/admin/categories');
    expect(after.map((category) => category.id_categoria)).not.toContain(doomed);
    await context.close();
  });

  it('leaves the name to the server and shows its reason when it refuses', async () => {
    const categories = await adminApi<(Named & { id_categoria: number })[]>('/admin/categories');
    const { context, page } = await openAdmin('/admin/categories');
    await page.getByRole('button', { name: 'Aggiungi Categoria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuova Categoria' });
    const save = dialog.getByRole('button', { name: 'Salva' });
    await save.click();
    await dialog.getByText('Il nome non può essere vuoto.').waitFor();
    await dialog
      .getByRole('textbox', { name: 'Nome Categoria' })
      .fill(categories[0]!.nome.toLocaleUpperCase('it-IT'));
    await save.click();
    await dialog.getByText('Esiste già una categoria con questo nome.').waitFor();
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(adminApi<unknown[]>('/admin/categories')).resolves.toHaveLength(categories.length);
    await context.close();
  });

  it('refuses a rename over another administrator’s made after the dialog opened', async () => {
    const created = await adminApi<Named & { id_categoria: number }>('/admin/categories', {
      method: 'POST',
      body: JSON.stringify({ nome: 'messaggi_banchina' }),
    });
    const { context, page } = await openAdmin('/admin/categories');
    await row(page, created.id_categoria).getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Categoria' });
    await dialog.getByRole('textbox', { name: 'Nome Categoria' }).fill('messaggi_banchina_sud');

    // Meanwhile another administrator renames it.
    await adminApi(`/admin/categories/${created.id_categoria}`, {
      method: 'PUT',
      body: JSON.stringify({ nome: 'messaggi_banchina_nord' }),
    });

    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog
      .getByText(
        'Un altro amministratore ha rinominato questa categoria dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
      )
      .waitFor();
    await screenshot(page, 'admin-categories-rename-stale-desktop');
    // The list reloaded behind the dialog: reopened, it starts from the colleague's name.
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await row(page, created.id_categoria).getByText('Banchina Nord', { exact: true }).waitFor();
    await row(page, created.id_categoria).getByRole('button', { name: 'Modifica' }).click();
    const field = dialog.getByRole('textbox', { name: 'Nome Categoria' });
    await expect(field.inputValue()).resolves.toBe('messaggi_banchina_nord');
    await field.fill('messaggi_banchina_sud');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, created.id_categoria).getByText('Banchina Sud', { exact: true }).waitFor();
    await context.close();
  });
});

describe('Gestione Tag', () => {
  it('creates a tag, filters the list by name and deletes the tag', async () => {
    const before = await adminApi<(Named & { id_tag: number })[]>('/admin/tags');
    const { context, page } = await openAdmin('/admin/tags');
    await page.getByRole('heading', { level: 1, name: 'Gestione Tag' }).waitFor();
    await page
      .locator('.MuiCard-root', { hasText: 'Tag totali' })
      .getByText(String(before.length), { exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Aggiungi Tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuovo Tag' });
    const save = dialog.getByRole('button', { name: 'Salva' });
    const field = dialog.getByRole('textbox', { name: 'Nome Tag' });
    await expect(save.isDisabled()).resolves.toBe(true);
    await field.fill('   ');
    await expect(save.isDisabled()).resolves.toBe(true);
    await field.fill('Graffito Del Test');
    await expect(save.isEnabled()).resolves.toBe(true);
    await field.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Tag creato').waitFor();

    const created = (await adminApi<(Named & { id_tag: number })[]>('/admin/tags')).find(
      (tag) => tag.nome === 'Graffito Del Test',
    )!;
    expect(created.image_count).toBe(0);

    const filter = page.getByRole('searchbox', { name: 'Cerca tag...' });
    await filter.fill('graffito del');
    await expect.poll(() => rowIds(page)).toEqual([created.id_tag]);
    await filter.fill('nessun tag si chiama così');
    // Tags exist, none matches: not the invitation to create the first one.
    await page.getByText('Nessun tag corrisponde alla ricerca').waitFor();
    await filter.fill('GRAFFITO');
    await expect.poll(() => rowIds(page)).toEqual([created.id_tag]);

    await row(page, created.id_tag).getByRole('button', { name: 'Elimina' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm.getByText('Sei sicuro di voler eliminare questo tag?').waitFor();
    // The dialog names the one tag it asks about, and what becomes of its images.
    await confirm
      .getByText(
        '«Graffito Del Test»: verrà tolto dalle immagini che lo hanno (nessuna pubblicata).',
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await page.getByText('Tag eliminato').waitFor();
    await expect.poll(() => rowIds(page)).toEqual([]);
    const after = await adminApi<{ id_tag: number }[]>('/admin/tags');
    expect(after.some((tag) => tag.id_tag === created.id_tag)).toBe(false);
    await context.close();
  });

  it('keeps each notice for its own 6 seconds, one following another too', async () => {
    const { context, page } = await openAdmin('/admin/tags');
    const create = async (nome: string) => {
      await page.getByRole('button', { name: 'Aggiungi Tag' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuovo Tag' });
      await dialog.getByRole('textbox', { name: 'Nome Tag' }).fill(nome);
      await dialog.getByRole('button', { name: 'Salva' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    const created = page.getByRole('status').getByText('Tag creato');
    await create('avviso-primo');
    await created.waitFor();
    const first = Date.now();
    await page.waitForTimeout(2000);
    await create('avviso-secondo');
    const second = Date.now();
    // The second came while the first was still on screen...
    expect(second - first).toBeLessThan(5000);
    await expect(created.isVisible()).resolves.toBe(true);
    // ...and stays its own 6 s: 4.5 s after it, past the first one's time, it is still there
    // (it closed with the first one's timer).
    await page.waitForTimeout(4500 - (Date.now() - second));
    await expect(created.isVisible()).resolves.toBe(true);
    await created.waitFor({ state: 'hidden', timeout: 10_000 });
    await context.close();
    const tags = await adminApi<(Named & { id_tag: number })[]>('/admin/tags');
    for (const tag of tags.filter((one) => one.nome.startsWith('avviso-'))) {
      await adminApi(`/admin/tags/${tag.id_tag}`, { method: 'DELETE' });
    }
  });

  it('tells how many images use a tag and deletes the selected tags at once', async () => {
    for (const nome of ['lotto-uno', 'lotto-due']) {
      await adminApi('/admin/tags', { method: 'POST', body: JSON.stringify({ nome }) });
    }
    const tags = await adminApi<(Named & { id_tag: number })[]>('/admin/tags');
    const used = tags.find((tag) => tag.image_count > 1)!;

    const { context, page } = await openAdmin('/admin/tags');
    const filter = page.getByRole('searchbox', { name: 'Cerca tag...' });
    await filter.fill(used.nome);
    // Rows move as the filter applies: click only once the grid shows the filtered list.
    const matching = tags.filter((tag) => tag.nome.toLowerCase().includes(used.nome.toLowerCase()));
    await expect
      .poll(async () => sorted(await rowIds(page)))
      .toEqual(sorted(matching.map((tag) => tag.id_tag)));
    await row(page, used.id_tag).getByRole('button', { name: 'Modifica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica Tag' });
    await dialog.getByText(`Questo tag è utilizzato in ${used.image_count} immagini`).waitFor();
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await filter.fill('lotto-');
    const batch = tags.filter((tag) => tag.nome.startsWith('lotto-')).map((tag) => tag.id_tag);
    await expect.poll(async () => sorted(await rowIds(page))).toEqual(sorted(batch));
    for (const id of batch) await tickRow(row(page, id).getByRole('checkbox'));
    await page.getByRole('button', { name: 'Elimina selezionati (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm.getByText('Sei sicuro di voler eliminare i 2 tag selezionati?').waitFor();
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await page.getByText('Eliminati: 2 di 2.').waitFor();
    await expect.poll(() => rowIds(page)).toEqual([]);
    const after = await adminApi<{ id_tag: number }[]>('/admin/tags');
    expect(after.filter((tag) => batch.includes(tag.id_tag))).toEqual([]);
    await context.close();
  });
});

describe('screenshots', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`of the three screens and their dialogs (${name})`, async () => {
      const { context, page } = await openAdmin('/admin/images', viewport);
      await page.locator('.MuiDataGrid-row[data-id]').first().waitFor();
      await page.locator('.MuiDataGrid-row img').first().waitFor();
      await screenshot(page, `admin-images-${name}`);
      await page
        .locator('.MuiDataGrid-row')
        .first()
        .getByRole('button', { name: 'Modifica' })
        .click();
      const imageDialog = page.getByRole('dialog', { name: 'Modifica Immagine' });
      await imageDialog.waitFor();
      await screenshot(page, `admin-images-edit-${name}`);
      await imageDialog.getByRole('button', { name: 'Annulla' }).click();

      await page.goto(`${server.url}/admin/categories`);
      await page.locator('.MuiDataGrid-row[data-id]').first().waitFor();
      await screenshot(page, `admin-categories-${name}`);
      await page
        .locator('.MuiDataGrid-row')
        .first()
        .getByRole('button', { name: 'Modifica' })
        .click();
      await page.getByRole('dialog', { name: 'Modifica Categoria' }).waitFor();
      await screenshot(page, `admin-categories-edit-${name}`);

      await page.goto(`${server.url}/admin/tags`);
      await page.locator('.MuiDataGrid-row[data-id]').first().waitFor();
      await screenshot(page, `admin-tags-${name}`);
      await page
        .locator('.MuiDataGrid-row')
        .first()
        .getByRole('button', { name: 'Modifica' })
        .click();
      await page.getByRole('dialog', { name: 'Modifica Tag' }).waitFor();
      await screenshot(page, `admin-tags-edit-${name}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Aggiungi Tag' }).click();
      await page.getByRole('dialog', { name: 'Nuovo Tag' }).waitFor();
      await screenshot(page, `admin-tags-new-${name}`);
      await context.close();
    });
  }
});
