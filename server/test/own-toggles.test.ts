import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { createOwnToggles } from '../src/modules/images/own-toggles.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { bearer, createUser, type TestUser } from './helpers/factories.js';
import { publishedImage } from './helpers/images.js';

/*
 * A viewer's own reactions in every list they see come from the toggles each server keeps in
 * memory per user (modules/images/own-toggles.ts), trusted only under the user's current
 * reactions_version. Two servers on one database stand for two processes: a change made
 * through either shows at once in the lists of both.
 */

let t: TestApp;
let other: App;
let giulia: TestUser;
let first: number;
let second: number;

beforeAll(async () => {
  t = await buildTestApp();
  other = await buildApp(t.config, { logStream: { write: () => undefined } });
  giulia = await createUser(t.app);
  first = (await publishedImage(t.app, giulia, { title: 'primo muro' })).id_image;
  second = (await publishedImage(t.app, giulia, { title: 'secondo muro' })).id_image;
});

afterAll(async () => {
  await other.close();
  await t.close();
});

type Listed = {
  images: Array<{ id_image: number; interactions: Array<{ id_tipo_interazione: number }> }>;
};

async function ownTypes(app: App, user: TestUser, id: number): Promise<number[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/images',
    headers: bearer(user.token),
  });
  expect(response.statusCode).toBe(200);
  const image = response.json<Listed>().images.find((each) => each.id_image === id);
  return (image?.interactions ?? []).map((each) => each.id_tipo_interazione);
}

async function toggle(app: App, user: TestUser, id: number, type: number): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/images/${String(id)}/interactions`,
    headers: bearer(user.token),
    payload: { id_tipo_interazione: type },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ action: string }>().action;
}

async function summaryFlags(app: App, user: TestUser, id: number) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/images/${String(id)}/interactions`,
    headers: bearer(user.token),
  });
  expect(response.statusCode).toBe(200);
  return response.json<Record<string, unknown>>();
}

describe("a viewer's own reactions, kept per user", () => {
  it('show at once on every server after a change made through either', async () => {
    const marco = await createUser(t.app);
    // Both servers read (and keep) Marco's toggles: none yet.
    expect(await ownTypes(t.app, marco, first)).toEqual([]);
    expect(await ownTypes(other, marco, first)).toEqual([]);

    expect(await toggle(t.app, marco, first, 1)).toBe('added');
    expect(await ownTypes(t.app, marco, first)).toEqual([1]);
    expect(await ownTypes(other, marco, first)).toEqual([1]);

    expect(await toggle(other, marco, first, 2)).toBe('added');
    expect(await ownTypes(other, marco, first)).toEqual([1, 2]);
    expect(await ownTypes(t.app, marco, first)).toEqual([1, 2]);

    expect(await toggle(t.app, marco, first, 1)).toBe('removed');
    expect(await ownTypes(other, marco, first)).toEqual([2]);
    expect(await ownTypes(t.app, marco, first)).toEqual([2]);
    expect(await ownTypes(t.app, marco, second)).toEqual([]);

    // The image's own summary reads the same kept toggles.
    for (const app of [t.app, other]) {
      expect(await summaryFlags(app, marco, first)).toMatchObject({
        is_liked: false,
        is_favorited: true,
        is_sad: false,
      });
    }

    // Another user's list never carries Marco's reactions.
    expect(await ownTypes(t.app, giulia, first)).toEqual([]);
  });

  it('raises the version only when the toggles change', async () => {
    const sara = await createUser(t.app);
    const version = async () =>
      (
        await t.app.ctx.database.db
          .selectFrom('users')
          .select('reactions_version')
          .where('id_utente', '=', sara.id)
          .executeTakeFirstOrThrow()
      ).reactions_version;
    expect(await version()).toBe(0);
    await toggle(t.app, sara, second, 5);
    expect(await version()).toBe(1);
    await toggle(t.app, sara, second, 5);
    expect(await version()).toBe(2);
    // A view and a download are not toggles.
    await t.app.inject({
      method: 'POST',
      url: `/api/images/${String(second)}/interactions`,
      headers: bearer(sara.token),
      payload: { id_tipo_interazione: 7 },
    });
    expect(await version()).toBe(2);
  });

  it('asks page by page for a user with more toggles than kept, and when users are dropped', async () => {
    const luca = await createUser(t.app);
    const anna = await createUser(t.app);
    for (const type of [1, 2, 4]) await toggle(t.app, luca, first, type);
    await toggle(t.app, anna, second, 6);
    const userRow = (id: number) =>
      t.app.ctx.database.db
        .selectFrom('users')
        .selectAll()
        .where('id_utente', '=', id)
        .executeTakeFirstOrThrow();
    const small = createOwnToggles(t.app.ctx.database.db, { maxToggles: 2, maxUsers: 1 });
    const expected = {
      luca: [1, 2, 4].map((type) => ({ id_image: first, id_tipo_interazione: type })),
      anna: [{ id_image: second, id_tipo_interazione: 6 }],
    };
    for (let round = 0; round < 2; round += 1) {
      expect(await small.of(await userRow(luca.id), [second, first])).toEqual(expected.luca);
      expect(await small.of(await userRow(anna.id), [first, second, second])).toEqual(
        expected.anna,
      );
    }
    expect(await small.of(await userRow(anna.id), [])).toEqual([]);
  });
});
