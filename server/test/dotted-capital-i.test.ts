import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as foldDottedCapitalI } from '../src/db/migrations/2026-12-08T0900-dotted-capital-i-keys.js';
import { foldKey } from '../src/lib/text.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/*
 * The Turkish dotted capital 'İ' lowers in JavaScript to 'i' and a combining dot (U+0307):
 * names unique case-insensitively (D6) must still take 'İstanbul' and 'istanbul' for one.
 */

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
});
afterAll(() => t.close());

const db = () => t.app.ctx.database.db;

const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: bearer(adminToken),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

describe('the dotted capital İ in unique names', () => {
  it('folds to the key of a plain i', () => {
    expect(foldKey('İstanbul')).toBe('istanbul');
    expect(foldKey('İSTANBUL')).toBe(foldKey('Istanbul'));
    expect(foldKey('\u0131stanbul')).toBe('istanbul');
    // A dot above elsewhere stays: it is part of that letter ('ż' is z with a dot, composed).
    expect(foldKey('Z\u0307')).toBe('ż');
  });

  for (const kind of ['categories', 'tags'] as const) {
    it(`${kind}: 'istanbul' is taken once 'İstanbul' exists, creating or renaming`, async () => {
      const first = await asAdmin('POST', `/api/admin/${kind}`, { nome: `İzmir ${kind}` });
      expect(first.statusCode).toBe(201);
      const twin = await asAdmin('POST', `/api/admin/${kind}`, { nome: `izmir ${kind}` });
      expect(twin.statusCode).toBe(400);
      expect(twin.json<{ detail: string }>().detail).toMatch(/^Esiste già un/u);
      const other = (await asAdmin('POST', `/api/admin/${kind}`, { nome: `Ankara ${kind}` })).json<
        Record<string, number>
      >();
      const id = other.id_categoria ?? other.id_tag;
      const renamed = await asAdmin('PUT', `/api/admin/${kind}/${id}`, {
        nome: `IZMIR ${kind}`,
      });
      expect(renamed.statusCode).toBe(400);
      const names = (await asAdmin('GET', `/api/admin/${kind}?search=izmir`)).json<
        Array<{ nome: string }>
      >();
      expect(names.map((row) => row.nome)).toEqual([`İzmir ${kind}`]);
    });
  }

  it('an upload naming the tag with a dotted capital İ gets the existing tag', async () => {
    const user = await createUser(t.app);
    await publishedImage(t.app, user, { tags: ['istiklal'] });
    const image = await publishedImage(t.app, user, { tags: ['İSTİKLAL'] });
    const tags = (await asAdmin('GET', '/api/admin/tags?search=istiklal')).json<
      Array<{ nome: string; image_count: number }>
    >();
    expect(tags).toEqual([expect.objectContaining({ nome: 'istiklal', image_count: 2 })]);
    const shown = (await t.app.inject(`/api/images/${image.id_image}`)).json<{
      tags: Array<{ nome: string }>;
    }>();
    expect(shown.tags.map((tag) => tag.nome)).toEqual(['istiklal']);
  });

  it('a username differing only by the dot is taken, and logs in either way', async () => {
    const user = await createUser(t.app, { username: 'İpek.k', email: 'ipek@example.it' });
    const twin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        username: 'ipek.k',
        email: 'ipek2@example.it',
        password: 'password-sicura',
        age_confirmed: true,
      },
    });
    expect(twin.statusCode).toBe(400);
    for (const name of ['İpek.k', 'ipek.k', 'IPEK.K']) {
      const answer = await login(t.app, name, user.password);
      expect(answer.statusCode, name).toBe(200);
      expect(answer.json<{ user: { id_utente: number } }>().user.id_utente).toBe(user.id);
    }
  });
});

describe('migration 2026-12-08T0900', () => {
  it('moves the keys holding the dot, keeping a row whose new key another holds', async () => {
    const now = new Date().toISOString();
    const insertTag = (nome: string, nome_key: string) =>
      db()
        .insertInto('tags')
        .values({ nome, nome_key, created_at: now })
        .returning('id_tag')
        .executeTakeFirstOrThrow();
    // As the fold of before left them: 'İznik' keyed with the dot; 'İnebolu' beside an
    // 'inebolu' that already holds the plain key.
    const alone = await insertTag('İznik', 'i\u0307znik');
    const plain = await insertTag('inebolu', 'inebolu');
    const dotted = await insertTag('İnebolu', 'i\u0307nebolu');
    const loner = await createUser(t.app, { username: 'İlkay', email: 'ilkay@example.it' });
    await db()
      .updateTable('users')
      .set({ username_key: 'i\u0307lkay' })
      .where('id_utente', '=', loner.id)
      .execute();
    const other = await createUser(t.app, { username: 'ilker', email: 'ilker@example.it' });
    const twin = await createUser(t.app, { username: 'zzilker', email: 'zz@example.it' });
    await db()
      .updateTable('users')
      .set({ username: 'İlker', username_key: 'i\u0307lker' })
      .where('id_utente', '=', twin.id)
      .execute();

    // A reset link asked for under the old key, for an address with the dotted capital.
    await db()
      .updateTable('users')
      .set({ email: 'İlkay@example.it', email_key: 'i\u0307lkay@example.it' })
      .where('id_utente', '=', loner.id)
      .execute();
    await db()
      .insertInto('password_resets')
      .values({
        id_utente: loner.id,
        token_hash: 'hash-of-a-link',
        token_version: 0,
        email_key: 'i\u0307lkay@example.it',
        created_at: now,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .execute();

    await foldDottedCapitalI(db());

    const keys = await db()
      .selectFrom('users as u')
      .innerJoin('password_resets as r', 'r.id_utente', 'u.id_utente')
      .select(['u.email_key as account', 'r.email_key as link'])
      .where('u.id_utente', '=', loner.id)
      .executeTakeFirstOrThrow();
    expect(keys).toEqual({ account: 'ilkay@example.it', link: 'ilkay@example.it' });

    const tagKeys = await db()
      .selectFrom('tags')
      .select(['id_tag', 'nome_key'])
      .where('id_tag', 'in', [alone.id_tag, plain.id_tag, dotted.id_tag])
      .orderBy('id_tag')
      .execute();
    expect(tagKeys.map((row) => row.nome_key)).toEqual(['iznik', 'inebolu', 'i\u0307nebolu']);
    const userKeys = await db()
      .selectFrom('users')
      .select('username_key')
      .where('id_utente', 'in', [loner.id, other.id, twin.id])
      .orderBy('id_utente')
      .execute();
    expect(userKeys.map((row) => row.username_key)).toEqual(['ilkay', 'ilker', 'i\u0307lker']);

    // Each account logs in as itself; the one left on its old key by its exact name.
    const idOf = async (username: string, password: string) =>
      (await login(t.app, username, password)).json<{ user: { id_utente: number } }>().user
        .id_utente;
    expect(await idOf('ilkay', loner.password)).toBe(loner.id);
    expect(await idOf('İlker', twin.password)).toBe(twin.id);
    expect(await idOf('ILKER', other.password)).toBe(other.id);
  });
});
