import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/* The back-office's image search with what Italian titles hold: apostrophes of either kind. */

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
