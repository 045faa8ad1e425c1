import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LIST_LIMIT } from '../src/modules/images/images.service.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/*
 * The back-office on a catalogue larger than its lists: GET /admin/images sends the newest
 * ADMIN_LIST_LIMIT images, and must say when more match, or the grid's '1–25 di 2000' passes
 * for the whole catalogue (found with a 10k-image catalogue: 'di 2000' with 10,000 images).
 */

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  const user = await createUser(t.app);
  const model = await publishedImage(t.app, user, { title: 'Il primo muro' });
  const db = t.app.ctx.database.db;
  const row = await db
    .selectFrom('images')
    .selectAll()
    .where('id_image', '=', model.id_image)
    .executeTakeFirstOrThrow();
  const { id_image: _id, ...copy } = row;
  // ADMIN_LIST_LIMIT copies: one image more than the list holds, in batches the engines bind.
  for (let start = 0; start < ADMIN_LIST_LIMIT; start += 250) {
    const count = Math.min(250, ADMIN_LIST_LIMIT - start);
    await db
      .insertInto('images')
      .values(
        Array.from({ length: count }, (_, index) => ({
          ...copy,
          titolo_img: 'Un muro qualunque',
          filename: `copia${String(start + index).padStart(16, '0')}.webp`,
        })),
      )
      .execute();
  }
}, 120_000);
afterAll(() => t.close());

const list = (query = '') =>
  t.app.inject({ method: 'GET', url: `/api/admin/images${query}`, headers: bearer(adminToken) });

describe('GET /admin/images past its cap', () => {
  it('says that more images match than the list holds', async () => {
    const answer = await list();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toHaveLength(ADMIN_LIST_LIMIT);
    expect(answer.headers['x-list-truncated']).toBe(String(ADMIN_LIST_LIMIT));
  });

  it('says nothing is left out when the matches fit', async () => {
    const answer = await list('?search=primo');
    expect(answer.json()).toHaveLength(1);
    expect(answer.headers['x-list-truncated']).toBe('0');
  });
});
