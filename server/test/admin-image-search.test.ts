import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/*
 * The back-office's searches with what Italian names hold: apostrophes of either kind, accents
 * typed or not (the images', the categories' and the tags' alike, as the web app's filters).
 */

let t: TestApp;
let adminToken: string;
let straight: number;
let curly: number;

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  const user = await createUser(t.app);
  straight = (await publishedImage(t.app, user, { title: "L'hip hop non si ferma" })).id_image;
  curly = (await publishedImage(t.app, user, { title: 'Un’altra estate' })).id_image;
  await publishedImage(t.app, user, { title: 'Lxhip senza apostrofo' });
});
afterAll(() => t.close());

const found = async (term: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/admin/images?search=${encodeURIComponent(term)}`,
      headers: bearer(adminToken),
    })
  )
    .json<Array<{ id_image: number }>>()
    .map((image) => image.id_image);

describe('GET /admin/images?search with apostrophes', () => {
  it('finds a straight apostrophe typed as a phone’s typographic one', async () => {
    expect(await found('L’hip')).toEqual([straight]);
  });

  it('finds a typographic apostrophe typed as a straight one', async () => {
    expect(await found("un'altra")).toEqual([curly]);
  });

  it('still finds each as typed', async () => {
    expect(await found("l'hip")).toEqual([straight]);
    expect(await found('Un’altra')).toEqual([curly]);
  });
});

describe('GET /admin/categories?search and /admin/tags?search', () => {
  const names = ['Perché no', 'Libertà', 'L’amore vince', 'İstanbul', 'messaggi_100%_muro'];
  const ids: Record<string, Record<string, number>> = { categories: {}, tags: {} };

  beforeAll(async () => {
    for (const kind of ['categories', 'tags'] as const) {
      for (const nome of names) {
        const created = await t.app.inject({
          method: 'POST',
          url: `/api/admin/${kind}`,
          headers: bearer(adminToken),
          payload: { nome },
        });
        expect(created.statusCode).toBe(201);
        const body = created.json<{ id_categoria?: number; id_tag?: number }>();
        ids[kind]![nome] = body.id_categoria ?? body.id_tag ?? 0;
      }
    }
  });

  const namesFound = async (kind: 'categories' | 'tags', term: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/${kind}?search=${encodeURIComponent(term)}`,
        headers: bearer(adminToken),
      })
    )
      .json<Array<{ nome: string }>>()
      .map((row) => row.nome);

  for (const kind of ['categories', 'tags'] as const) {
    it(`${kind}: finds a name with accents typed without them, in any case`, async () => {
      expect(await namesFound(kind, 'perche')).toEqual(['Perché no']);
      expect(await namesFound(kind, 'PERCHE')).toEqual(['Perché no']);
      expect(await namesFound(kind, 'libertà')).toEqual(['Libertà']);
      expect(await namesFound(kind, 'LIBERTA')).toEqual(['Libertà']);
    });

    it(`${kind}: reads every apostrophe as the straight one`, async () => {
      expect(await namesFound(kind, "l'amore")).toEqual(['L’amore vince']);
    });

    it(`${kind}: finds the Turkish dotted capital I typed as a plain i, and back`, async () => {
      expect(await namesFound(kind, 'istanbul')).toEqual(['İstanbul']);
      expect(await namesFound(kind, 'İSTANBUL')).toEqual(['İstanbul']);
      expect(await namesFound(kind, 'ISTANBUL')).toEqual(['İstanbul']);
    });

    it(`${kind}: matches LIKE's metacharacters as themselves`, async () => {
      expect(await namesFound(kind, '100%_')).toEqual(['messaggi_100%_muro']);
      expect(await namesFound(kind, '%')).toEqual(['messaggi_100%_muro']);
      expect(await namesFound(kind, 'i_1')).toEqual(['messaggi_100%_muro']);
      expect(await namesFound(kind, 'x_y')).toEqual([]);
    });
  }
});
