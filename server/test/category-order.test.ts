import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/*
 * Category lists come in the order of the names people read (SPEC §3 display names, Italian
 * collation), not of the stored ones: 'messaggi_amicizia' is shown 'Amicizia' and belongs among
 * the A's. The popular list keeps its order by count. Tag lists follow Italian collation too,
 * the same on both engines whatever PostgreSQL's collation ('Éra' among the E's).
 */

let t: TestApp;
let adminToken: string;
let user: TestUser;
const ids = new Map<string, number>();

// Stored names whose order differs from the order of their shown names.
const STORED = [
  'messaggi_amicizia', // Amicizia
  'Bosco', // Bosco
  'messaggio_città', // Città
  'cibo', // Cibo
  'messaggi_zona_rossa', // Zona Rossa
  'messaggio_éclair', // Éclair: among the E's, not after the Z's
  'amore', // Amore
];

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  user = await createUser(t.app);
  // Created through the API in an order that is neither the stored nor the shown one.
  for (const nome of [...STORED].reverse()) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/categories',
      headers: bearer(adminToken),
      payload: { nome },
    });
    expect(created.statusCode, nome).toBe(201);
    ids.set(nome, created.json().id_categoria);
  }
});
afterAll(() => t.close());

const SHOWN_ORDER = [
  'messaggi_amicizia',
  'amore',
  'Bosco',
  'cibo',
  'messaggio_città',
  'messaggio_éclair',
  'Non categorizzata',
  'messaggi_zona_rossa',
];

const names = (body: Array<{ nome: string }>) => body.map((category) => category.nome);

describe('category lists', () => {
  it('list the public categories by their shown names', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
    expect(response.statusCode).toBe(200);
    expect(names(response.json())).toEqual(SHOWN_ORDER);
  });

  it('list the back-office categories by their shown names, searched or not', async () => {
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/categories',
      headers: bearer(adminToken),
    });
    expect(names(all.json())).toEqual(SHOWN_ORDER);
    const searched = await t.app.inject({
      method: 'GET',
      url: '/api/admin/categories?search=messaggi',
      headers: bearer(adminToken),
    });
    expect(names(searched.json())).toEqual([
      'messaggi_amicizia',
      'messaggio_città',
      'messaggio_éclair',
      'messaggi_zona_rossa',
    ]);
  });

  it('keep the popular categories by count, most used first', async () => {
    await publishedImage(t.app, user, { categoryId: ids.get('messaggi_zona_rossa')! });
    await publishedImage(t.app, user, { categoryId: ids.get('messaggi_zona_rossa')! });
    await publishedImage(t.app, user, { categoryId: ids.get('Bosco')! });
    const popular = await t.app.inject({ method: 'GET', url: '/api/categories/popular?limit=10' });
    expect(names(popular.json())).toEqual(['messaggi_zona_rossa', 'Bosco']);
  });
});

describe('tag lists', () => {
  // Created in an order that is neither the code points' nor the Italian one.
  const TAGS = ['zeta', 'Éra', 'àncora', 'Bosco', 'ancora', 'era', 'ärger', 'abete'];
  const ITALIAN_ORDER = ['abete', 'ancora', 'àncora', 'ärger', 'Bosco', 'era', 'Éra', 'zeta'];

  beforeAll(async () => {
    // One approved image each: the public list shows only tags in use.
    await publishedImage(t.app, user, { tags: TAGS.slice(0, 4) });
    await publishedImage(t.app, user, { tags: TAGS.slice(4) });
  });

  it('list the back-office tags in Italian alphabetical order, searched or not', async () => {
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/tags',
      headers: bearer(adminToken),
    });
    expect(names(all.json())).toEqual(ITALIAN_ORDER);
    const searched = await t.app.inject({
      method: 'GET',
      url: '/api/admin/tags?search=r',
      headers: bearer(adminToken),
    });
    expect(names(searched.json())).toEqual(['ancora', 'àncora', 'ärger', 'era', 'Éra']);
  });

  it('list the public tags in Italian alphabetical order', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/tags' });
    expect(names(response.json())).toEqual(ITALIAN_ORDER);
  });
});
