import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUBLIC_CACHE_TTL_MS } from '../src/plugins/public-cache.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { approve, uploadImage } from './helpers/images.js';

/*
 * The public lists kept for anonymous visitors (plugins/public-cache.ts): the same bytes for
 * everyone for a second, emptied by any change made through the API; logged-in viewers get
 * them with their own reactions; counts show within the second. The clock is the test's.
 */

let now = new Date('2026-12-01T10:00:00.000Z').getTime();
const clock = { now: () => new Date(now) };
let t: TestApp;
let alice: TestUser;
let adminToken: string;
let shown: number;

beforeAll(async () => {
  t = await buildTestApp({}, { clock });
  alice = await createUser(t.app);
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  const image = await uploadImage(t.app, alice, { title: 'Muro del porto' });
  await approve(t.app, image.id_image);
  shown = image.id_image;
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token === undefined ? {} : bearer(token) });

/** A reaction of `token`'s user on an image, through the API (it keeps the kept lists). */
const react = (imageId: number, token: string, type: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/images/${imageId}/interactions`,
    headers: bearer(token),
    payload: { id_tipo_interazione: type },
  });

type Own = Array<{ id_tipo_interazione: number; id_utente: number }>;
type Listed = {
  images: Array<{ id_image: number; titolo_img: string; likes_count: number; interactions: Own }>;
};
const likesOf = (body: Listed, id: number) =>
  body.images.find((image) => image.id_image === id)?.likes_count;
const ownOf = (body: Listed, id: number) =>
  body.images.find((image) => image.id_image === id)?.interactions;

describe('public lists kept for anonymous visitors', () => {
  it('answers the same bytes and headers from the cache as when computed', async () => {
    const first = await get('/api/images');
    const second = await get('/api/images');
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.json<Listed>().images.map((image) => image.id_image)).toContain(shown);
  });

  it("marks a viewer's own like at once; the count shows within the second", async () => {
    const bruno = await createUser(t.app);
    const before = likesOf((await get('/api/images')).json(), shown);
    const like = await react(shown, alice.token, 1);
    expect(like.json()).toEqual({ action: 'added' });
    // Alice's list is the kept one with her own reactions added; Bruno's has none of hers.
    const hers = (await get('/api/images', alice.token)).json<Listed>();
    expect(ownOf(hers, shown)).toEqual([{ id_tipo_interazione: 1, id_utente: alice.id }]);
    expect(ownOf((await get('/api/images', bruno.token)).json(), shown)).toEqual([]);
    expect(ownOf((await get('/api/images')).json(), shown)).toEqual([]);
    // A reaction does not empty the cache: the kept counts may lag, by at most the TTL.
    expect(likesOf(hers, shown)).toBe(before);
    expect(likesOf((await get('/api/images')).json(), shown)).toBe(before);
    now += PUBLIC_CACHE_TTL_MS;
    expect(likesOf((await get('/api/images')).json(), shown)).toBe(before! + 1);
    expect(likesOf((await get('/api/images', bruno.token)).json(), shown)).toBe(before! + 1);
    for (const url of [`/api/users/${alice.id}/images`, '/api/search?query=porto']) {
      expect(ownOf((await get(url, alice.token)).json(), shown), url).toEqual([
        { id_tipo_interazione: 1, id_utente: alice.id },
      ]);
    }
  });

  it("writes a viewer's reactions into the kept list, the rest byte for byte the same", async () => {
    const carla = await createUser(t.app);
    // Listed before the other, and longer in bytes than in characters: the reactions are
    // written at byte offsets, which this title moves.
    const other = await uploadImage(t.app, alice, { title: 'Muro del mercato — perché sì 🎨' });
    await approve(t.app, other.id_image);
    for (const [id, type] of [
      [shown, 2],
      [shown, 6],
      [other.id_image, 4],
    ] as const) {
      const reacted = await react(id, carla.token, type);
      expect(reacted.json()).toEqual({ action: 'added' });
    }
    const anonymous = (await get('/api/images')).json<Listed>();
    const hers = await get('/api/images', carla.token);
    expect(hers.headers['content-type']).toBe('application/json; charset=utf-8');
    const expected = {
      ...anonymous,
      images: anonymous.images.map((image) => ({
        ...image,
        interactions:
          image.id_image === shown
            ? [
                { id_tipo_interazione: 2, id_utente: carla.id },
                { id_tipo_interazione: 6, id_utente: carla.id },
              ]
            : image.id_image === other.id_image
              ? [{ id_tipo_interazione: 4, id_utente: carla.id }]
              : [],
      })),
    };
    expect(hers.json()).toEqual(expected);
    expect(hers.body).toBe(JSON.stringify(expected));
  });

  it('empties at once on a change made through the API: an approval, an edit', async () => {
    const kept = (await get(`/api/users/${alice.id}/images`)).json<Listed>();
    const pending = await uploadImage(t.app, alice, { title: 'Muro della stazione' });
    const approval = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/approve-image/${pending.filename}`,
      headers: bearer(adminToken),
    });
    expect(approval.statusCode).toBe(200);
    const after = (await get(`/api/users/${alice.id}/images`)).json<Listed>();
    expect(after.images.length).toBe(kept.images.length + 1);
    expect(after.images.map((image) => image.id_image)).toContain(pending.id_image);

    expect((await get('/api/search?query=stazione')).json<Listed>().images).toHaveLength(1);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/images/${pending.id_image}`,
      headers: bearer(adminToken),
      payload: { titolo_img: 'Muro della piazza' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await get('/api/search?query=stazione')).json<Listed>().images).toHaveLength(0);
    expect((await get('/api/search?query=piazza')).json<Listed>().images).toHaveLength(1);
  });

  it('stays through logins and new accounts, which change no public list', async () => {
    now += PUBLIC_CACHE_TTL_MS;
    const kept = (await get('/api/images')).body;
    // Written past the API, so only the TTL or an API change would show it.
    await t.app.ctx.database.db
      .updateTable('images')
      .set({ titolo_img: 'Titolo scritto a mano' })
      .where('id_image', '=', shown)
      .execute();
    expect((await login(t.app, alice.username, alice.password)).statusCode).toBe(200);
    await createUser(t.app);
    expect((await get('/api/images')).body).toBe(kept);
    now += PUBLIC_CACHE_TTL_MS;
    expect((await get('/api/images')).body).toContain('Titolo scritto a mano');
  });

  it("keeps an image's page for anonymous visitors; its uploader and reacting users get theirs afresh", async () => {
    const image = await uploadImage(t.app, alice, { title: 'Muro della darsena' });
    const page = `/api/images/${image.id_image}`;
    // Under review: hidden from visitors, and that refusal is not kept.
    expect((await get(page)).statusCode).toBe(404);
    expect((await get(page, alice.token)).json<{ titolo_img: string }>().titolo_img).toBe(
      'Muro della darsena',
    );
    await approve(t.app, image.id_image);
    const kept = await get(page);
    expect(kept.statusCode).toBe(200);
    expect(kept.headers['content-type']).toBe('application/json; charset=utf-8');

    const dario = await createUser(t.app);
    const liked = await react(image.id_image, dario.token, 1);
    expect(liked.json()).toEqual({ action: 'added' });
    // Dario sees his like and the new count at once; visitors get the kept page for the second.
    const his = (await get(page, dario.token)).json<{ likes_count: number; interactions: Own }>();
    expect(his.likes_count).toBe(1);
    expect(his.interactions).toEqual([{ id_tipo_interazione: 1, id_utente: dario.id }]);
    expect((await get(page)).body).toBe(kept.body);
    now += PUBLIC_CACHE_TTL_MS;
    expect((await get(page)).json<{ likes_count: number }>().likes_count).toBe(1);

    // A change through the API shows at once.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/images/${image.id_image}`,
      headers: bearer(adminToken),
      payload: { titolo_img: 'Muro del faro' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await get(page)).json<{ titolo_img: string }>().titolo_img).toBe('Muro del faro');
  });

  it('sends kept lists compressed to a client that accepts it, the same JSON', async () => {
    now += PUBLIC_CACHE_TTL_MS;
    const ask = (url: string, encoding?: string, token?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: {
          ...(encoding === undefined ? {} : { 'accept-encoding': encoding }),
          ...(token === undefined ? {} : bearer(token)),
        },
      });
    const plain = await ask('/api/images');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toBe('accept-encoding');

    const compressions = vi.spyOn(zlib, 'brotliCompress');
    const br = await ask('/api/images', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    // Compressed once and kept with the answer: the next client gets the same bytes.
    expect((await ask('/api/images', 'br')).rawPayload.equals(br.rawPayload)).toBe(true);
    expect(compressions).toHaveBeenCalledTimes(1);
    compressions.mockRestore();

    const gzip = await ask('/api/images', 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    for (const refused of ['identity', 'br;q=0, gzip;q=0.0', 'BR;Q=0, gzip;x=1;q=0', 'compress']) {
      const answer = await ask('/api/images', refused);
      expect(answer.headers['content-encoding'], refused).toBeUndefined();
      expect(answer.rawPayload.equals(plain.rawPayload), refused).toBe(true);
    }

    // A viewer with no reaction on the page gets the kept bytes, compressed; one with some gets
    // their own answer as it is (different bytes for each viewer).
    const erica = await createUser(t.app);
    const hers = await ask('/api/images', 'br', erica.token);
    expect(hers.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(hers.rawPayload).equals(plain.rawPayload)).toBe(true);
    const liked = await react(shown, erica.token, 1);
    expect(liked.json()).toEqual({ action: 'added' });
    const withOwn = await ask('/api/images', 'br', erica.token);
    expect(withOwn.headers['content-encoding']).toBeUndefined();
    expect(ownOf(withOwn.json<Listed>(), shown)).toEqual([
      { id_tipo_interazione: 1, id_utente: erica.id },
    ]);

    // A change through the API empties the compressed copies with the rest.
    const image = await uploadImage(t.app, alice, { title: 'Muro del lungomare' });
    await approve(t.app, image.id_image);
    const after = await ask('/api/images', 'br');
    expect(zlib.brotliDecompressSync(after.rawPayload).toString()).toContain('Muro del lungomare');

    // An answer under a kilobyte goes as it is.
    const small = await ask('/api/search?query=lungomare', 'br');
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json<Listed>().images).toHaveLength(1);
  });

  it('keeps no refusal: a gallery that did not exist is served once it does', async () => {
    const missing = await get('/api/categories/4242/images');
    expect(missing.statusCode).toBe(404);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/categories',
      headers: bearer(adminToken),
      payload: { nome: 'porti' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id_categoria: number }>().id_categoria;
    expect((await get(`/api/categories/${id}/images`)).statusCode).toBe(200);
  });
});

describe('PUBLIC_CACHE_MS=0', () => {
  it('keeps nothing: a change made past the API shows at once', async () => {
    const uncached = await buildTestApp({ publicCacheMs: 0 }, { clock });
    try {
      const owner = await createUser(uncached.app);
      const image = await uploadImage(uncached.app, owner, { title: 'Muro della stazione' });
      await approve(uncached.app, image.id_image);
      expect((await uncached.app.inject({ url: '/api/images' })).body).toContain('stazione');
      await uncached.app.ctx.database.db
        .updateTable('images')
        .set({ titolo_img: 'Muro del mercato' })
        .where('id_image', '=', image.id_image)
        .execute();
      expect((await uncached.app.inject({ url: '/api/images' })).body).toContain('mercato');
    } finally {
      await uncached.close();
    }
  });
});
