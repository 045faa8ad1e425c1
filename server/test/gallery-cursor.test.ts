import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { bearer, createUser, type TestUser } from './helpers/factories.js';
import { createCategory, publishedImage } from './helpers/images.js';

/*
 * Keyset pagination of the galleries (issue 8): every page carries next_cursor, and walking
 * the cursors returns exactly what one big page returns, in the same order, however the pages
 * fall across images published at the same instant.
 */

let t: TestApp;
let alice: TestUser;
let bruno: TestUser;
let amore: number;
let roma: number;
const PER_TIE = 7;

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token === undefined ? {} : bearer(token) });

interface Listed {
  id_image: number;
  published_at: string;
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = await createUser(t.app, { username: 'alice' });
  bruno = await createUser(t.app, { username: 'bruno' });
  amore = await createCategory(t.app, 'messaggi_amore');
  // One real upload gives the file columns; the rest are rows like it, so the suite stays fast.
  const model = await publishedImage(t.app, alice, {
    title: 'Ti amo',
    categoryId: amore,
    tags: ['roma'],
    publishedAt: new Date(Date.UTC(2026, 10, 1, 12)),
  });
  const db = t.app.ctx.database.db;
  const row = await db
    .selectFrom('images')
    .selectAll()
    .where('id_image', '=', model.id_image)
    .executeTakeFirstOrThrow();
  const tag = await db
    .selectFrom('image_tags')
    .select('id_tag')
    .where('id_image', '=', model.id_image)
    .executeTakeFirstOrThrow();
  roma = tag.id_tag;
  // Three instants shared by PER_TIE images each, plus distinct ones: pages of 4 split ties.
  const instants = [
    ...Array<number>(PER_TIE).fill(Date.UTC(2026, 10, 5, 12)),
    Date.UTC(2026, 10, 4, 9),
    ...Array<number>(PER_TIE).fill(Date.UTC(2026, 10, 3, 12)),
    Date.UTC(2026, 10, 6, 8),
    ...Array<number>(PER_TIE).fill(Date.UTC(2026, 10, 2, 12)),
  ];
  for (const [index, at] of instants.entries()) {
    const { id_image: _id, ...copy } = row;
    const inserted = await db
      .insertInto('images')
      .values({
        ...copy,
        filename: `copy${String(index).padStart(16, '0')}.webp`,
        id_utente: index % 2 === 0 ? alice.id : bruno.id,
        published_at: new Date(at).toISOString(),
      })
      .returning('id_image')
      .executeTakeFirstOrThrow();
    if (index % 3 === 0) {
      await db
        .insertInto('image_tags')
        .values({ id_image: inserted.id_image, id_tag: roma })
        .execute();
    }
    // Bruno likes every other image, several in the same instant.
    if (index % 2 === 0) {
      await db
        .insertInto('interactions')
        .values({
          id_image: inserted.id_image,
          id_utente: bruno.id,
          id_tipo_interazione: 1,
          created_at: new Date(Date.UTC(2026, 10, 10) + Math.floor(index / 4) * 1000).toISOString(),
        })
        .execute();
    }
  }
  await t.app.ctx.taxonomy.recountAll();
});
afterAll(() => t.close());

/** Follows next_cursor from the first page to the end; fails if it never ends. */
async function walk(url: string, token?: string): Promise<Listed[]> {
  const separator = url.includes('?') ? '&' : '?';
  const seen: Listed[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages += 1) {
    const next = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await get(`${url}${separator}limit=4${next}`, token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    seen.push(...body.images);
    cursor = body.next_cursor;
    if (cursor === null) return seen;
    expect(body.images).toHaveLength(4);
  }
  throw new Error('the cursor walk never ended');
}

const ids = (images: Listed[]) => images.map((image) => image.id_image);

describe('cursor pagination of the galleries', () => {
  it('walks every image exactly once, in the order of one big page', async () => {
    const all = (await get('/api/images?limit=120')).json();
    expect(all.total).toBe(24);
    expect(all.next_cursor).toBeNull();
    const walked = await walk('/api/images');
    expect(ids(walked)).toEqual(ids(all.images));
    expect(new Set(ids(walked)).size).toBe(24);
  });

  it('orders newest first and breaks equal times by the higher id first', async () => {
    const walked = await walk('/api/images');
    const expected = [...walked].sort(
      (a, b) => b.published_at.localeCompare(a.published_at) || b.id_image - a.id_image,
    );
    expect(ids(walked)).toEqual(ids(expected));
    // The ties really are there, and pages of 4 cut through groups of PER_TIE.
    const times = walked.map((image) => image.published_at);
    expect(new Set(times).size).toBe(24 - 3 * (PER_TIE - 1));
  });

  it('walks the category, tag, profile and liked galleries the same way', async () => {
    for (const url of [
      `/api/categories/${amore}/images`,
      `/api/tags/${roma}/images`,
      `/api/users/${alice.id}/images`,
    ]) {
      const all = (await get(`${url}?limit=120`)).json();
      expect(all.images.length, url).toBeGreaterThan(4);
      expect(ids(await walk(url)), url).toEqual(ids(all.images));
    }
    const liked = (await get('/api/users/me/liked-images?limit=120', bruno.token)).json();
    expect(liked.images).toHaveLength(12);
    expect(ids(await walk('/api/users/me/liked-images', bruno.token))).toEqual(ids(liked.images));
  });

  it('still pages with skip, and hands out a cursor there too', async () => {
    const all = ids((await get('/api/images?limit=120')).json().images);
    const second = (await get('/api/images?skip=4&limit=4')).json();
    expect(ids(second.images)).toEqual(all.slice(4, 8));
    const third = (await get(`/api/images?limit=4&cursor=${second.next_cursor}`)).json();
    expect(ids(third.images)).toEqual(all.slice(8, 12));
  });

  it('refuses a cursor together with a skip above 0, accepts skip=0', async () => {
    const first = (await get('/api/images?limit=4')).json();
    const both = await get(`/api/images?limit=4&skip=4&cursor=${first.next_cursor}`);
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ detail: 'Usa cursor oppure skip, non entrambi.' });
    const zero = await get(`/api/images?limit=4&skip=0&cursor=${first.next_cursor}`);
    expect(zero.statusCode).toBe(200);
  });

  it('answers 400 with an Italian detail to a cursor it did not make', async () => {
    const b64 = (value: string) => Buffer.from(value).toString('base64url');
    for (const cursor of [
      'abc',
      '%%%',
      b64('{}'),
      b64('[1, 2]'),
      b64('["2026-11-05T12:00:00.000Z"]'),
      b64('["2026-11-05T12:00:00.000Z", 0]'),
      b64('["2026-11-05T12:00:00.000Z", 1.5]'),
      b64('["2026-13-05T12:00:00.000Z", 3]'),
      b64('["2026-11-05 12:00:00", 3]'),
      b64("['2026-11-05T12:00:00.000Z', 3]"),
    ]) {
      const response = await get(`/api/images?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json(), cursor).toEqual({ detail: 'Cursore di paginazione non valido.' });
    }
    const long = await get(`/api/images?cursor=${'a'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toMatch(/cursor/);
  });
});
