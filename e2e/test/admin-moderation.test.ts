import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  approve,
  createCategory,
  jpeg,
  loginAdmin,
  noise,
  registerUser,
  upload,
  uploadBytes,
  type ApiUser,
} from './fixtures.js';
import {
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
 * The moderation screens of the back-office (SPEC §2 'Immagini in Attesa di Approvazione' and
 * 'Gestione Immagini Duplicate', §4, D7), driven in a real browser against the server with its
 * demo gallery. The pictures to review are uploaded through the API by ordinary users; every
 * decision is checked through the API, public where the public sees it.
 */

interface PendingImage {
  id_image: number;
  filename: string;
  title: string | null;
  user: { username: string };
  category: { id_categoria: number; name: string };
  tags: string[];
  file_info: { size_bytes: number };
}

interface ModerationHints {
  possible_duplicates: { id_image: number; similarity: number; kind: string }[];
  suggested_category: { id_categoria: number; nome: string } | null;
  suggested_tags: { id_tag: number; nome: string }[];
}

interface DuplicateGroup {
  count: number;
  testo_estratto: string;
  kind: 'text' | 'visual';
  images: { id_image: number; titolo_img: string | null; user: { username: string } }[];
}

interface OwnImage {
  id_image: number;
  status: string;
  rejection_reason: string | null;
}

const TITLES = {
  approve: 'Muro della stazione, città vecchia',
  reject: 'Vernice fresca sul ponte',
  bulkFirst: 'Lotto primo da approvare',
  bulkSecond: 'Lotto secondo da approvare',
  textOriginal: 'Il sorriso sul muro del liceo',
  textCopy: 'Rifotografata: la stessa scritta',
  deletedGroup: ['Serranda grigia', 'Serranda grigia di nuovo'],
  dismissedGroup: ['Saracinesca a quadri', 'Saracinesca a quadri bis'],
  keptGroup: ['Mosaico del sottopasso', 'Mosaico del sottopasso bis'],
} as const;

let server: RunningServer;
let browser: Browser;
let adminToken: string;
/** Uploads the pictures to approve one by one and to reject. */
let giulia: ApiUser;
/** Uploads the two pictures approved together. */
let piero: ApiUser;
/** Uploads the duplicates. */
let sara: ApiUser;
const ids = {} as Record<
  'approve' | 'reject' | 'bulkFirst' | 'bulkSecond' | 'textOriginal' | 'textCopy',
  number
>;
const groups = {} as Record<'deleted' | 'dismissed' | 'kept', [number, number]>;
let stationCategory: number;
let smileCategory: number;

beforeAll(async () => {
  // A smaller demo gallery: its photos are read before this file's uploads, whose analysis
  // (hints, duplicate groups) the tests wait for.
  server = await startDemoServer({ DEMO_IMAGES: '20' });
  browser = await launchBrowser();
  adminToken = await loginAdmin(server.url);
  giulia = await registerUser(server.url, 'giulia');
  piero = await registerUser(server.url, 'piero');
  sara = await registerUser(server.url, 'sara');
  stationCategory = await createCategory(server.url, adminToken, 'messaggi_binari_e2e');
  smileCategory = await createCategory(server.url, adminToken, 'messaggi_sorrisi_e2e');

  // The duplicates first, so the analysis job reads them while the other tests run. The text
  // original is public with a category and a tag, which its copy is then suggested.
  const smile = await jpeg('Ricordati di sorridere', '#b1a18a');
  const original = await uploadBytes(server.url, sara, TITLES.textOriginal, smile, {
    categoryId: smileCategory,
    tags: ['sorriso'],
  });
  await approve(server.url, adminToken, original.filename);
  ids.textOriginal = original.id_image;
  ids.textCopy = (await uploadBytes(server.url, sara, TITLES.textCopy, smile)).id_image;
  const pairs = [
    ['deleted', TITLES.deletedGroup, 11],
    ['dismissed', TITLES.dismissedGroup, 22],
    ['kept', TITLES.keptGroup, 33],
  ] as const;
  for (const [key, [first, second], seed] of pairs) {
    const bytes = await noise(seed);
    groups[key] = [
      (await uploadBytes(server.url, sara, first, bytes)).id_image,
      (await uploadBytes(server.url, sara, second, bytes)).id_image,
    ];
  }

  ids.approve = (
    await upload(server.url, giulia, TITLES.approve, {
      categoryId: stationCategory,
      tags: ['binario'],
      colour: '#a7b8c9',
    })
  ).id_image;
  ids.reject = (
    await upload(server.url, giulia, TITLES.reject, { tags: ['pennarello'], colour: '#c9a7b8' })
  ).id_image;
  ids.bulkFirst = (
    await upload(server.url, piero, TITLES.bulkFirst, { colour: '#b8c9a7' })
  ).id_image;
  ids.bulkSecond = (
    await upload(server.url, piero, TITLES.bulkSecond, { colour: '#c9c9a7' })
  ).id_image;
});

afterAll(async () => {
  // beforeAll may have failed half-way; close what exists.
  await (browser as Browser | undefined)?.close();
  await (server as RunningServer | undefined)?.stop();
});

function adminApi<T>(path: string, init: RequestInit = {}): Promise<T> {
  return apiAs<T>(server.url, adminToken, path, init);
}

const pendingImages = () =>
  adminApi<{ images: PendingImage[]; total: number }>('/admin/pending-images');

const hintsOf = (id: number) =>
  adminApi<ModerationHints>(`/admin/pending-images/${String(id)}/hints`);

const duplicateGroups = () => adminApi<DuplicateGroup[]>('/admin/duplicate-images');

/** The ids of every picture of the public gallery, page after page. */
async function publicIds(): Promise<number[]> {
  const found: number[] = [];
  for (;;) {
    const response = await fetch(`${server.url}/api/images?skip=${found.length}&limit=50`);
    const page = (await response.json()) as { images: { id_image: number }[]; total: number };
    found.push(...page.images.map((image) => image.id_image));
    if (page.images.length === 0 || found.length >= page.total) return found;
  }
}

async function publicStatus(id: number): Promise<number> {
  return (await fetch(`${server.url}/api/images/${id}`)).status;
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

/** The pending queue, loaded. */
async function openPending(
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openAdmin('/admin/pending-images', viewport);
  await opened.page
    .getByRole('heading', { level: 1, name: 'Immagini in Attesa di Approvazione' })
    .waitFor();
  await counter(opened.page).waitFor();
  return opened;
}

function counter(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: 'immagini in attesa di approvazione' });
}

function searchBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Cerca immagini in attesa' });
}

/** The ids of the rows the grid shows (all of them while there are fewer than a screenful). */
function rowIds(page: Page): Promise<number[]> {
  return page
    .locator('.MuiDataGrid-row[data-id]')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-id'))));
}

const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);

function row(page: Page, id: number): Locator {
  return page.locator(`.MuiDataGrid-row[data-id="${id}"]`);
}

/** Types in the search box and waits for exactly `expected` rows. */
async function search(page: Page, term: string, expected: readonly number[]): Promise<void> {
  await searchBox(page).fill(term);
  await expect.poll(async () => sorted(await rowIds(page))).toEqual(sorted(expected));
}

/** A confirmation after an action: polite (role status), and in a region there before it. */
async function expectNotice(page: Page, text: string): Promise<void> {
  // The region itself takes no room (the snackbar is fixed): its text is what shows.
  await page.getByRole('status').getByText(text).waitFor();
  await expect(announcedFromBefore(page, text)).resolves.toBe(true);
}

/** SPEC §2: Bytes, KB, MB or GB, base 1024, two decimals (web/src/lib/format.ts). */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2).replace('.', ',')} ${units[unit] ?? 'GB'}`;
}

/** Waits until every picture inside `scope` that is in view has arrived. */
async function picturesLoaded(scope: Locator): Promise<void> {
  await expect
    .poll(() =>
      scope.locator('img').evaluateAll((images) =>
        (images as HTMLImageElement[]).every((image) => {
          const box = image.getBoundingClientRect();
          const inView = box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
          return !inView || (image.complete && image.naturalWidth > 0);
        }),
      ),
    )
    .toBe(true);
}

/** Waits until a dialog and its backdrop have faded in: screenshots show it as people do. */
async function settled(dialog: Locator): Promise<void> {
  await expect
    .poll(() =>
      dialog.evaluate((element) => {
        const backdrop = element.closest('.MuiDialog-root')?.querySelector('.MuiBackdrop-root');
        const faded = (node: Element) => getComputedStyle(node).opacity !== '1';
        if (backdrop !== null && backdrop !== undefined && faded(backdrop)) return false;
        for (let node: Element | null = element; node !== null; node = node.parentElement) {
          if (faded(node)) return false;
        }
        return true;
      }),
    )
    .toBe(true);
}

async function sideScroll(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

describe('Immagini in Attesa di Approvazione', () => {
  it('lists the queue with its counter and filters it on the client', async () => {
    const { images, total } = await pendingImages();
    const mine = images.find((image) => image.id_image === ids.approve)!;
    const { context, page } = await openPending();
    await expect(page.title()).resolves.toBe('Immagini in Attesa di Approvazione · Muri Parlanti');
    await counter(page)
      .getByText(`${total} di ${total} immagini in attesa di approvazione`, { exact: true })
      .waitFor();
    // Oldest first: the first rows are the ones the API gives first.
    await row(page, images[0]!.id_image).waitFor();
    for (const header of ['Anteprima', 'Titolo', 'Caricata da', 'Categoria', 'Stato', 'Azioni']) {
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }

    // By title, ignoring case and accents.
    await search(page, 'CITTA', [ids.approve]);
    await counter(page)
      .getByText(`1 di ${total} immagini in attesa di approvazione`, { exact: true })
      .waitFor();
    const approveRow = row(page, ids.approve);
    await approveRow.getByText(TITLES.approve, { exact: true }).waitFor();
    await approveRow.getByText(giulia.username, { exact: true }).waitFor();
    await approveRow.getByText('Binari E2e', { exact: true }).waitFor();
    await approveRow.getByText('In attesa', { exact: true }).waitFor();
    await approveRow.getByText(formatSize(mine.file_info.size_bytes), { exact: true }).waitFor();
    await approveRow.getByRole('img', { name: TITLES.approve }).waitFor();

    // By uploader, by category, by tag, and every word must match somewhere.
    await search(page, piero.username.toLocaleUpperCase('it-IT'), [ids.bulkFirst, ids.bulkSecond]);
    await search(page, 'binari', [ids.approve]);
    await search(page, 'pennarello', [ids.reject]);
    await search(page, `${piero.username} secondo`, [ids.bulkSecond]);
    await search(page, 'nessuna-immagine-si-chiama-così', []);
    await page.getByText('Nessuna immagine corrisponde alla ricerca').waitFor();
    await counter(page)
      .getByText(`0 di ${total} immagini in attesa di approvazione`, { exact: true })
      .waitFor();
    await searchBox(page).fill('');
    await counter(page)
      .getByText(`${total} di ${total} immagini in attesa di approvazione`, { exact: true })
      .waitFor();
    await context.close();
  });

  it('sends anyone who is not an administrator back to the home page', async () => {
    const { context, page } = await openSession(browser, server.url, giulia.token);
    await page.goto(`${server.url}/admin/pending-images`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Tutte le nostre immagini' }).waitFor();
    await context.close();
  });

  it('shows an image in detail and approves it: it goes public', async () => {
    expect(await publicIds()).not.toContain(ids.approve);
    const { context, page } = await openPending();
    await search(page, 'stazione', [ids.approve]);
    await row(page, ids.approve).getByRole('button', { name: 'Visualizza' }).click();

    const dialog = page.getByRole('dialog', { name: TITLES.approve });
    await dialog.waitFor();
    await dialog.getByRole('img', { name: TITLES.approve }).waitFor();
    // Whatever the OCR read (or is still reading), the section is there.
    for (const section of ['Testo estratto', 'Possibili duplicati', 'Categoria e tag']) {
      await dialog.getByRole('heading', { level: 3, name: section }).waitFor();
    }
    await dialog.getByText(giulia.username, { exact: true }).waitFor();
    await dialog.getByText('binario', { exact: true }).first().waitFor();
    await dialog.getByText('In attesa', { exact: true }).waitFor();
    for (const button of ['Chiudi', 'Approva', 'Rifiuta']) {
      await dialog.getByRole('button', { name: button, exact: true }).waitFor();
    }

    // A tag typed and not confirmed with Enter is still one: the field shows it, so the
    // approval saves it (it went without it).
    await dialog.getByRole('combobox', { name: 'Tag' }).fill('pensilina');
    await rememberLiveRegions(page);
    await dialog.getByRole('button', { name: 'Approva', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectNotice(page, 'Immagine approvata con successo');
    await expect.poll(() => rowIds(page)).toEqual([]);

    expect((await pendingImages()).images.some((image) => image.id_image === ids.approve)).toBe(
      false,
    );
    expect(await publicIds()).toContain(ids.approve);
    const published = (await (await fetch(`${server.url}/api/images/${ids.approve}`)).json()) as {
      titolo_img: string;
      category: { id_categoria: number };
      tags: { nome: string }[];
    };
    expect(published).toMatchObject({
      titolo_img: TITLES.approve,
      category: { id_categoria: stationCategory },
    });
    expect(published.tags.map((tag) => tag.nome).sort()).toEqual(['binario', 'pensilina']);
    await context.close();

    // Anyone sees it on the home page, in the masonry of every picture.
    const visitor = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const home = await visitor.newPage();
    await home.goto(`${server.url}/`);
    const all = home.getByRole('region', { name: 'Tutte le nostre immagini' });
    // Below the carousels, the masonry asks for its pictures as the visitor scrolls near it.
    await all.scrollIntoViewIfNeeded();
    await all.locator(`a[href="/image/${ids.approve}"]`).first().waitFor();
    await visitor.close();
  });

  it('rejects an image with a reason, which its uploader then reads', async () => {
    const { context, page } = await openPending();
    await search(page, 'ponte', [ids.reject]);
    await row(page, ids.reject).getByRole('button', { name: 'Rifiuta' }).click();

    const dialog = page.getByRole('dialog', { name: 'Conferma rifiuto' });
    await dialog.getByText('Sei sicuro di voler rifiutare questa immagine?').waitFor();
    const reason = dialog.getByRole('textbox', { name: 'Motivo del rifiuto' });
    const confirm = dialog.getByRole('button', { name: 'Rifiuta', exact: true });
    await expect(reason.getAttribute('placeholder')).resolves.toBe(
      'Inserisci il motivo del rifiuto...',
    );
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await reason.fill('   ');
    await expect(confirm.isDisabled()).resolves.toBe(true);

    const chips = dialog.getByRole('group', { name: 'Motivi frequenti' });
    for (const text of [
      'Contiene persone o volti',
      'Immagine duplicata',
      'Contenuto non appropriato',
      'Qualità insufficiente',
    ]) {
      await chips.getByRole('button', { name: text, exact: true }).waitFor();
    }
    await chips.getByRole('button', { name: 'Immagine duplicata', exact: true }).click();
    await expect(reason.inputValue()).resolves.toBe('Immagine duplicata');
    await chips.getByRole('button', { name: 'Contiene persone o volti', exact: true }).click();
    await expect(reason.inputValue()).resolves.toBe('Contiene persone o volti');
    await expect(confirm.isEnabled()).resolves.toBe(true);
    // The chip only fills the field: the reason stays the administrator's to edit.
    await reason.press('End');
    await reason.pressSequentially(' sullo sfondo');
    await expect(reason.inputValue()).resolves.toBe('Contiene persone o volti sullo sfondo');

    await rememberLiveRegions(page);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await expectNotice(page, 'Immagine rifiutata con successo');
    await expect.poll(() => rowIds(page)).toEqual([]);
    await searchBox(page).fill('');
    await row(page, (await pendingImages()).images[0]!.id_image).waitFor();
    expect(await rowIds(page)).not.toContain(ids.reject);

    expect(await publicIds()).not.toContain(ids.reject);
    expect(await publicStatus(ids.reject)).toBe(404);
    const own = (await (
      await fetch(`${server.url}/api/users/me/images?skip=0&limit=30`, {
        headers: { authorization: `Bearer ${giulia.token}` },
      })
    ).json()) as { images: OwnImage[] };
    expect(own.images.find((image) => image.id_image === ids.reject)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Contiene persone o volti sullo sfondo',
    });
    expect(own.images.find((image) => image.id_image === ids.approve)).toMatchObject({
      status: 'approved',
      rejection_reason: null,
    });
    await context.close();
  });

  it('approves the selected rows at once; a row click selects nothing', async () => {
    const { context, page } = await openPending();
    await search(page, 'lotto', [ids.bulkFirst, ids.bulkSecond]);
    const approveSelected = page.getByRole('button', { name: /^Approva selezionate/ });
    await expect(approveSelected.isDisabled()).resolves.toBe(true);

    await row(page, ids.bulkFirst).getByText(TITLES.bulkFirst, { exact: true }).click();
    await expect(row(page, ids.bulkFirst).getByRole('checkbox').isChecked()).resolves.toBe(false);
    await expect(approveSelected.textContent()).resolves.toBe('Approva selezionate');
    await expect(approveSelected.isDisabled()).resolves.toBe(true);

    // 'Select all' while searching ticks the matches, and only them: clearing the search must
    // not hand the bulk actions the whole queue (it did, as an 'all but none' selection).
    await page.getByRole('checkbox', { name: 'Seleziona tutte le righe' }).click();
    await page.getByRole('button', { name: 'Approva selezionate (2)' }).waitFor();
    const { images: queue } = await pendingImages();
    await search(
      page,
      '',
      queue.map((image) => image.id_image),
    );
    await expect(approveSelected.textContent()).resolves.toBe('Approva selezionate (2)');
    await search(page, 'lotto', [ids.bulkFirst, ids.bulkSecond]);

    for (const id of [ids.bulkFirst, ids.bulkSecond]) {
      await tickRow(row(page, id).getByRole('checkbox'));
    }
    await page.getByRole('button', { name: 'Rifiuta selezionate (2)' }).waitFor();
    await page.getByRole('button', { name: 'Approva selezionate (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma approvazione' });
    await confirm
      .getByText('Sei sicuro di voler approvare 2 immagini selezionate? Diventeranno pubbliche.')
      .waitFor();
    await rememberLiveRegions(page);
    await confirm.getByRole('button', { name: 'Approva' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectNotice(page, 'Approvate: 2 di 2.');
    await expect.poll(() => rowIds(page)).toEqual([]);
    await expect(approveSelected.textContent()).resolves.toBe('Approva selezionate');

    const admin = await adminApi<{ id_image: number; status: string }[]>('/admin/images');
    for (const id of [ids.bulkFirst, ids.bulkSecond]) {
      expect(admin.find((image) => image.id_image === id)?.status).toBe('approved');
      expect(await publicStatus(id)).toBe(200);
    }
    await context.close();
  });
});

describe('Gestione Immagini Duplicate', () => {
  /** The API's group holding exactly these images, once the analysis has paired them. */
  const groupOf = (all: DuplicateGroup[], members: readonly number[]) =>
    all.find(
      (group) =>
        JSON.stringify(sorted(group.images.map((image) => image.id_image))) ===
        JSON.stringify(sorted(members)),
    );

  beforeAll(async () => {
    // The analysis job reads each upload in the background; it pairs copies as it goes.
    const wanted = [
      [ids.textOriginal, ids.textCopy],
      groups.deleted,
      groups.dismissed,
      groups.kept,
    ];
    const deadline = Date.now() + 240_000;
    for (;;) {
      const all = await duplicateGroups();
      if (wanted.every((members) => groupOf(all, members) !== undefined)) break;
      if (Date.now() > deadline) {
        throw new Error(`the analysis did not pair the copies in time: ${JSON.stringify(all)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }, 300_000);

  /** The section of the group whose images carry these titles. */
  function section(page: Page, titles: readonly string[]): Locator {
    let found = page.getByRole('region', { name: /^Gruppo \d+ - \d+ immagini duplicate$/ });
    for (const title of titles) {
      found = found.filter({ has: page.getByText(title, { exact: true }) });
    }
    return found;
  }

  function card(group: Locator, title: string): Locator {
    return group
      .locator('.MuiCard-root')
      .filter({ has: group.page().getByText(title, { exact: true }) });
  }

  async function totalShown(page: Page, total: number): Promise<void> {
    await page
      .getByRole('status')
      .getByText(`Totale gruppi di immagini duplicate: ${total}`, { exact: true })
      .waitFor();
  }

  it("suggests the public copy's category and tags in the pending detail", async () => {
    const hints = await hintsOf(ids.textCopy);
    const duplicate = hints.possible_duplicates.find(
      (candidate) => candidate.id_image === ids.textOriginal,
    );
    expect(duplicate).toBeDefined();
    expect(hints.suggested_category?.id_categoria).toBe(smileCategory);
    expect(hints.suggested_tags.map((tag) => tag.nome)).toContain('sorriso');

    const { context, page } = await openPending();
    // The hints are asked for when the dialog opens (or the pointer reaches its button): the
    // first answer and the app's one retry fail, the message offers another try, which works.
    let asked = 0;
    await page.route(`**/api/admin/pending-images/${ids.textCopy}/hints`, (route) =>
      asked++ < 2 ? route.fulfill({ status: 503, json: { detail: 'no' } }) : route.continue(),
    );
    await search(page, 'rifotografata', [ids.textCopy]);
    await row(page, ids.textCopy).getByRole('button', { name: 'Visualizza' }).click();
    const dialog = page.getByRole('dialog', { name: TITLES.textCopy });
    await dialog.waitFor();
    await dialog.getByText('Impossibile cercare i possibili duplicati.', { exact: true }).waitFor();
    await dialog.getByText('Impossibile caricare i suggerimenti.', { exact: true }).waitFor();
    await screenshot(page, 'admin-pending-detail-hints-failed-desktop');
    await dialog.getByRole('button', { name: 'Riprova' }).first().click();
    const link = dialog.getByRole('link', { name: new RegExp(TITLES.textOriginal) });
    await expect(link.getAttribute('href')).resolves.toBe(`/image/${ids.textOriginal}`);
    await link
      .getByText(
        `Somiglianza ${Math.round(duplicate!.similarity * 100)}% · ${
          duplicate!.kind === 'visual' ? 'Aspetto' : 'Testo'
        }`,
      )
      .waitFor();

    const suggestions = dialog.getByRole('group', { name: 'Suggerimenti' });
    const categoryChip = suggestions.getByRole('button', { name: 'Sorrisi E2e', exact: true });
    const tagChip = suggestions.getByRole('button', { name: 'sorriso', exact: true });
    await expect(categoryChip.getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(tagChip.getAttribute('aria-pressed')).resolves.toBe('false');
    await suggestions.getByRole('button', { name: 'Accetta suggerimenti' }).click();
    await expect(categoryChip.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(tagChip.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(dialog.getByRole('combobox', { name: 'Categoria' }).textContent()).resolves.toBe(
      'Sorrisi E2e',
    );

    // Approved with what was accepted, in the approval's one call: the copy goes public
    // already sorted, and nothing is saved before the approval is.
    const writes: { url: string; body: unknown }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/api/admin/')) {
        writes.push({ url: new URL(request.url()).pathname, body: request.postDataJSON() });
      }
    });
    await rememberLiveRegions(page);
    await dialog.getByRole('button', { name: 'Approva', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(writes).toEqual([
      {
        url: expect.stringMatching(/^\/api\/admin\/approve-image\//),
        body: {
          id_categoria: smileCategory,
          tags: expect.arrayContaining(hints.suggested_tags.map((tag) => tag.nome)),
        },
      },
    ]);
    await expectNotice(page, 'Immagine approvata con successo');
    const published = (await (await fetch(`${server.url}/api/images/${ids.textCopy}`)).json()) as {
      category: { id_categoria: number };
      tags: { nome: string }[];
    };
    expect(published.category.id_categoria).toBe(smileCategory);
    expect(published.tags.map((tag) => tag.nome).sort()).toEqual(
      hints.suggested_tags.map((tag) => tag.nome).sort(),
    );
    await context.close();
  });

  it('shows the groups with their text and deletes one image of a pair', async () => {
    const before = await duplicateGroups();
    const pair = groupOf(before, [ids.textOriginal, ids.textCopy])!;
    const { context, page } = await openAdmin('/admin/duplicate-images');
    await page.getByRole('heading', { level: 1, name: 'Gestione Immagini Duplicate' }).waitFor();
    await expect(page.title()).resolves.toBe('Gestione Immagini Duplicate · Muri Parlanti');
    await totalShown(page, before.length);

    // Every group the API gives, in its order, headed as SPEC says.
    const headings = await page
      .getByRole('heading', { level: 2, name: /^Gruppo / })
      .allTextContents();
    expect(headings).toEqual(
      before.map((group, index) => `Gruppo ${index + 1} - ${group.count} immagini duplicate`),
    );

    const group = section(page, [TITLES.textOriginal, TITLES.textCopy]);
    await group.getByText('Testo estratto:', { exact: true }).waitFor();
    await group
      .getByText(pair.testo_estratto.trim() === '' ? '—' : pair.testo_estratto.trim(), {
        exact: true,
      })
      .waitFor();
    await group.getByText(pair.kind === 'visual' ? 'Aspetto' : 'Testo', { exact: true }).waitFor();
    const copyCard = card(group, TITLES.textCopy);
    await copyCard.getByText(`Caricata da: ${sara.username}`, { exact: true }).waitFor();
    await copyCard.getByText(/^Pubblicata il: \d{2}\/\d{2}\/\d{4}/).waitFor();
    await expect(
      copyCard.getByRole('link', { name: 'Visualizza' }).getAttribute('href'),
    ).resolves.toBe(`/image/${ids.textCopy}`);
    // A copy still waiting for review has no public page yet: 'In attesa', its own file,
    // and the date of its upload, since it was never published.
    const waiting = card(section(page, TITLES.keptGroup), TITLES.keptGroup[0]);
    await waiting.getByText('In attesa', { exact: true }).waitFor();
    await waiting.getByText(/^Caricata il: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/).waitFor();
    expect(await waiting.getByText(/Pubblicata il/).count()).toBe(0);
    await expect(
      waiting.getByRole('link', { name: 'Visualizza' }).getAttribute('href'),
    ).resolves.not.toMatch(/^\/image\//);

    await picturesLoaded(page.getByRole('main'));
    await screenshot(page, 'admin-duplicates-groups-desktop');

    await rememberLiveRegions(page);
    await copyCard.getByRole('button', { name: 'Elimina' }).click();
    const confirm = page.getByRole('dialog', { name: 'Conferma eliminazione' });
    await confirm
      .getByText(
        "Sei sicuro di voler eliminare questa immagine? L'operazione non può essere annullata.",
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectNotice(page, 'Immagine eliminata con successo');
    // A group left with one picture is no group of duplicates any more.
    await group.waitFor({ state: 'detached' });
    await totalShown(page, before.length - 1);

    expect(await publicStatus(ids.textCopy)).toBe(404);
    expect(await publicStatus(ids.textOriginal)).toBe(200);
    const after = await duplicateGroups();
    expect(after).toHaveLength(before.length - 1);
    expect(
      after.some((left) => left.images.some((image) => image.id_image === ids.textOriginal)),
    ).toBe(false);
    await context.close();
  });

  it('deletes a pending copy from its group too', async () => {
    const before = await duplicateGroups();
    const { context, page } = await openAdmin('/admin/duplicate-images');
    await totalShown(page, before.length);
    const group = section(page, TITLES.deletedGroup);
    await rememberLiveRegions(page);
    await card(group, TITLES.deletedGroup[1]).getByRole('button', { name: 'Elimina' }).click();
    await page
      .getByRole('dialog', { name: 'Conferma eliminazione' })
      .getByRole('button', { name: 'Elimina' })
      .click();
    await expectNotice(page, 'Immagine eliminata con successo');
    await group.waitFor({ state: 'detached' });
    await totalShown(page, before.length - 1);
    // The one left still waits for review; the deleted one is gone from the queue as well.
    const queue = (await pendingImages()).images.map((image) => image.id_image);
    expect(queue).toContain(groups.deleted[0]);
    expect(queue).not.toContain(groups.deleted[1]);
    await context.close();
  });

  it('says the analysis is running, not that there are no groups, until the images are read', async () => {
    // A new server reads its photos for a minute or two: the answers of that moment are set
    // here (the server's count of images to read is tested in server/test/duplicates.test.ts).
    const { context, page } = await openSession(browser, server.url, adminToken, {
      viewport: VIEWPORTS.desktop,
    });
    let left = 3;
    await page.route('**/api/admin/duplicate-images/analysis', (route) =>
      route.fulfill({ json: { images_to_analyse: left } }),
    );
    await page.route('**/api/admin/duplicate-images', (route) => route.fulfill({ json: [] }));
    await page.goto(`${server.url}/admin/duplicate-images`);
    await page
      .getByRole('status')
      .getByText('Analisi delle immagini in corso', { exact: true })
      .waitFor();
    await page
      .getByText(
        'Ancora 3 immagini da analizzare: i gruppi di immagini duplicate compariranno qui man mano.',
        { exact: true },
      )
      .waitFor();
    expect(await page.getByText(/^Totale gruppi di immagini duplicate/).count()).toBe(0);
    expect(await page.getByText('Nessun gruppo di immagini duplicate trovato').count()).toBe(0);

    // Every image read, and still no pair: now the empty list means no duplicates.
    left = 0;
    await page.getByRole('button', { name: 'Aggiorna' }).click();
    await totalShown(page, 0);
    await page.getByText('Nessun gruppo di immagini duplicate trovato', { exact: true }).waitFor();
    expect(await page.getByText('Analisi delle immagini in corso').count()).toBe(0);

    // Groups found while others are still being read: they show, with a word on the rest.
    await page.unroute('**/api/admin/duplicate-images');
    left = 1;
    const found = await duplicateGroups();
    await page.getByRole('button', { name: 'Aggiorna' }).click();
    await totalShown(page, found.length);
    await page
      .getByText(
        'Analisi delle immagini in corso: ancora 1 immagine da analizzare, altri gruppi potrebbero aggiungersi.',
        { exact: true },
      )
      .waitFor();
    await context.close();
  });

  it("'Non sono duplicati' hides a group for good", async () => {
    const before = await duplicateGroups();
    const { context, page } = await openAdmin('/admin/duplicate-images');
    await totalShown(page, before.length);
    const group = section(page, TITLES.dismissedGroup);
    await group.getByRole('button', { name: 'Non sono duplicati' }).click();
    const confirm = page.getByRole('dialog', { name: 'Non sono duplicati' });
    await confirm
      .getByText(
        'Queste immagini non verranno più mostrate come duplicati, a meno che una nuova immagine si aggiunga al gruppo. Confermi?',
      )
      .waitFor();
    await rememberLiveRegions(page);
    await confirm.getByRole('button', { name: 'Conferma' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectNotice(page, 'Gruppo segnato come non duplicato');
    await group.waitFor({ state: 'detached' });
    await totalShown(page, before.length - 1);

    await page.reload();
    await totalShown(page, before.length - 1);
    await section(page, TITLES.keptGroup).waitFor();
    expect(await section(page, TITLES.dismissedGroup).count()).toBe(0);
    const after = await duplicateGroups();
    expect(groupOf(after, groups.dismissed)).toBeUndefined();
    // Both pictures are still there, only no longer called duplicates.
    const queue = (await pendingImages()).images.map((image) => image.id_image);
    expect(queue).toEqual(expect.arrayContaining(groups.dismissed));
    await context.close();
  });
});

describe('screenshots', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`of the pending queue, its dialogs and the duplicates (${name})`, async () => {
      const { images } = await pendingImages();
      const first = images[0]!;
      const { context, page } = await openPending(viewport);
      const grid = page.getByRole('grid');
      await row(page, first.id_image).waitFor();
      await picturesLoaded(grid);
      expect(await sideScroll(page)).toBe(0);
      if (name === 'desktop') {
        // Every column fits beside the navigation, the decisions included: no sideways scroll.
        expect(await page.locator('.MuiDataGrid-scrollbar--horizontal').count()).toBe(0);
        const reject = await row(page, first.id_image)
          .getByRole('button', { name: 'Rifiuta' })
          .boundingBox();
        const frame = await grid.boundingBox();
        expect(reject).not.toBeNull();
        expect(reject!.x + reject!.width).toBeLessThanOrEqual(frame!.x + frame!.width);
      }
      await screenshot(page, `admin-pending-${name}`);

      // On a phone the actions column lies beyond the grid's right edge: scroll it there.
      const actions = row(page, first.id_image).getByRole('button', { name: 'Visualizza' });
      if (name === 'phone') {
        await page
          .locator('.MuiDataGrid-virtualScroller')
          .evaluate((scroller) => scroller.scrollTo({ left: scroller.scrollWidth }));
      }
      await actions.click();
      const dialog = page.getByRole('dialog', { name: first.title ?? 'Senza titolo' });
      await dialog.getByRole('heading', { level: 3, name: 'Testo estratto' }).waitFor();
      await picturesLoaded(dialog);
      await settled(dialog);
      await screenshot(page, `admin-pending-detail-${name}`);

      await dialog.getByRole('button', { name: 'Rifiuta', exact: true }).click();
      const reject = page.getByRole('dialog', { name: 'Conferma rifiuto' });
      await reject.getByRole('button', { name: 'Qualità insufficiente', exact: true }).click();
      await expect(
        reject.getByRole('textbox', { name: 'Motivo del rifiuto' }).inputValue(),
      ).resolves.toBe('Qualità insufficiente');
      await settled(reject);
      await screenshot(page, `admin-pending-reject-${name}`);
      await reject.getByRole('button', { name: 'Annulla' }).click();
      await reject.waitFor({ state: 'hidden' });
      await dialog.getByRole('button', { name: 'Chiudi' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // Nothing was decided.
      expect((await pendingImages()).total).toBe(images.length);

      await page.goto(`${server.url}/admin/duplicate-images`);
      await page.getByRole('heading', { level: 2, name: /^Gruppo 1 - / }).waitFor();
      await picturesLoaded(page.getByRole('main'));
      // Not while the groups reload after the page opened.
      await expect
        .poll(() => page.getByRole('button', { name: 'Aggiorna' }).isEnabled())
        .toBe(true);
      expect(await sideScroll(page)).toBe(0);
      await screenshot(page, `admin-duplicates-${name}`);
      await context.close();
    });
  }
});
