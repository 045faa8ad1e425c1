import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { holdDeletion } from './helpers/held-write.js';
import { approve, publishedImage, uploadImage } from './helpers/images.js';

let t: TestApp;
let owner: TestUser;
let fan: TestUser;
let imageId: number;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t.app);
  fan = await createUser(t.app);
  imageId = (await publishedImage(t.app, owner, { title: 'Muro' })).id_image;
});
afterAll(() => t.close());

const interactOn = (app: App, id: number, type: unknown, token?: string, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: `/api/images/${id}/interactions`,
    headers: token === undefined ? {} : bearer(token),
    payload: { id_tipo_interazione: type },
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
const interact = (id: number, type: unknown, token?: string, remoteAddress?: string) =>
  interactOn(t.app, id, type, token, remoteAddress);

const summary = async (id: number, token?: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/images/${id}/interactions`,
      headers: token === undefined ? {} : bearer(token),
    })
  ).json();

describe('reactions (D5)', () => {
  it.each([
    [1, 'likes', 'is_liked'],
    [2, 'favorites', 'is_favorited'],
    [4, 'sad', 'is_sad'],
    [5, 'dislikes', 'is_disliked'],
    [6, 'wow', 'is_wow'],
  ])('toggles type %i on and off with its counter', async (type, count, flag) => {
    const on = await interact(imageId, type, fan.token);
    expect(on.json()).toEqual({ action: 'added' });
    expect((await summary(imageId, fan.token)).interactions_count[count]).toBe(1);
    expect((await summary(imageId, fan.token))[flag]).toBe(true);
    // Flags are the viewer's own: someone else sees the count, not the flag.
    expect((await summary(imageId, owner.token))[flag]).toBe(false);

    const off = await interact(imageId, type, fan.token);
    expect(off.json()).toEqual({ action: 'removed' });
    expect((await summary(imageId, fan.token)).interactions_count[count]).toBe(0);
  });

  it('asks anonymous visitors to log in, and refuses bad types and images', async () => {
    const anonymous = await interact(imageId, 1);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      detail: 'Devi effettuare l’accesso per reagire alle immagini.',
    });
    expect((await interact(imageId, 3, fan.token)).json()).toEqual({
      detail: 'Per scaricare un’immagine usa il pulsante Scarica.',
    });
    for (const type of [0, 8, -1, 'like', null, 1.5]) {
      const response = await interact(imageId, type, fan.token);
      expect(response.statusCode, String(type)).toBe(400);
    }
    expect((await interact(999999, 1, fan.token)).statusCode).toBe(404);
    const pending = await uploadImage(t.app, owner);
    expect((await interact(pending.id_image, 1, fan.token)).statusCode).toBe(404);
    // A view is checked the same way: nobody else may count views of a pending image.
    for (const [id, token] of [
      [999999, fan.token],
      [pending.id_image, fan.token],
      [pending.id_image, undefined],
    ] as const) {
      const view = await interact(id, 7, token, '192.0.2.77');
      expect(view.statusCode).toBe(404);
      expect(view.json()).toEqual({ detail: 'Immagine non trovata' });
    }
  });

  it('counts nothing its uploader or an administrator does before the image is published', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const pending = (await uploadImage(t.app, owner)).id_image;
    const notPublished = {
      detail: 'Un’immagine non ancora pubblicata non raccoglie reazioni né visualizzazioni.',
    };
    for (const token of [owner.token, admin]) {
      for (const type of [1, 2, 4, 5, 6, 7]) {
        const response = await interact(pending, type, token, '192.0.2.78');
        expect(response.statusCode, String(type)).toBe(400);
        expect(response.json()).toEqual(notPublished);
      }
      // They may still save the file (an administrator judging it, its author keeping it).
      const download = await t.app.inject({
        method: 'GET',
        url: `/api/images/${pending}/download`,
        headers: bearer(token),
      });
      expect(download.statusCode).toBe(200);
    }
    await t.app.ctx.interactions.flushViews();
    const rows = await t.app.ctx.database.db
      .selectFrom('interactions')
      .select('id_interazione')
      .where('id_image', '=', pending)
      .execute();
    expect(rows).toEqual([]);
    const before = await summary(pending, owner.token);
    expect(Object.values(before.interactions_count)).toEqual([0, 0, 0, 0, 0, 0, 0]);

    // Once published, it starts from nothing, and the same people count like anyone.
    await approve(t.app, pending);
    expect((await interact(pending, 1, owner.token)).json()).toEqual({ action: 'added' });
    expect((await interact(pending, 7, admin)).json()).toEqual({ action: 'added' });
    await t.app.ctx.interactions.flushViews();
    const after = await summary(pending, owner.token);
    expect(after.interactions_count).toMatchObject({ likes: 1, views: 1, downloads: 0 });
  });

  it('stays consistent under 20 concurrent toggles of the same like', async () => {
    const before = (await summary(imageId, fan.token)).is_liked ? 1 : 0;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => interact(imageId, 1, fan.token)),
    );
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    // The answers tell what happened, in some order one after another: a like is added once
    // more than removed exactly when it ends up on (on PostgreSQL, a toggle that met another's
    // deletion answered 'removed' with nothing removed).
    const actions = responses.map((response) => response.json<{ action: string }>().action);
    const added = actions.filter((action) => action === 'added').length;
    const removed = actions.filter((action) => action === 'removed').length;
    const rows = await t.app.ctx.database.db
      .selectFrom('interactions')
      .select('id_interazione')
      .where('id_image', '=', imageId)
      .where('id_utente', '=', fan.id)
      .where('id_tipo_interazione', '=', 1)
      .execute();
    const state = await summary(imageId, fan.token);
    expect(rows.length).toBeLessThanOrEqual(1);
    expect(state.interactions_count.likes).toBe(rows.length);
    expect(state.is_liked).toBe(rows.length === 1);
    expect(added - removed).toBe(rows.length - before);
  });

  it('shows only the requesting user’s own reactions on the image', async () => {
    const other = await createUser(t.app);
    await interact(imageId, 6, other.token);
    const asFan = (
      await t.app.inject({
        method: 'GET',
        url: `/api/images/${imageId}`,
        headers: bearer(fan.token),
      })
    ).json();
    expect(asFan.interactions.every((i: { id_utente: number }) => i.id_utente === fan.id)).toBe(
      true,
    );
    const asAnonymous = (
      await t.app.inject({ method: 'GET', url: `/api/images/${imageId}` })
    ).json();
    expect(asAnonymous.interactions).toEqual([]);
    expect(asAnonymous.wow_count).toBeGreaterThanOrEqual(1);
  });
});

describe('views (D5)', () => {
  it('count once per viewer in 24 hours, anonymous ones by a hashed address', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    expect((await interact(image, 7, undefined, '203.0.113.7')).json()).toEqual({
      action: 'added',
    });
    expect((await interact(image, 7, undefined, '203.0.113.99')).json()).toEqual({
      action: 'exists',
    });
    expect((await interact(image, 7, undefined, '198.51.100.1')).json()).toEqual({
      action: 'added',
    });
    expect((await interact(image, 7, fan.token)).json()).toEqual({ action: 'added' });
    expect((await interact(image, 7, fan.token)).json()).toEqual({ action: 'exists' });
    // Counted views are written together every VIEW_FLUSH_MS (issue 8, goal 5).
    await expect.poll(async () => (await summary(image)).interactions_count.views).toBe(3);

    const keys = await t.app.ctx.database.db
      .selectFrom('interactions')
      .select(['viewer_key', 'id_utente'])
      .where('id_image', '=', image)
      .execute();
    const stored = JSON.stringify(keys);
    expect(stored).not.toContain('203.0.113');
    expect(stored).not.toContain('198.51.100');
    expect(keys.filter((key) => key.id_utente === null)).toHaveLength(2);
  });
});

describe('views across midnight (D5)', () => {
  it("count an anonymous viewer once in 24 hours across the night its key's salt changes", async () => {
    const now = { value: new Date('2026-11-21T23:59:00.000Z') };
    const night = await buildTestApp({}, { clock: { now: () => new Date(now.value) } });
    try {
      const uploader = await createUser(night.app);
      const image = (await publishedImage(night.app, uploader)).id_image;
      const view = async () =>
        (await interactOn(night.app, image, 7, undefined, '203.0.113.7')).json();
      expect(await view()).toEqual({ action: 'added' });
      now.value = new Date('2026-11-22T00:01:00.000Z');
      // While the first view waits to be written, then from the database.
      expect(await view()).toEqual({ action: 'exists' });
      await night.app.ctx.interactions.flushViews();
      expect(await view()).toEqual({ action: 'exists' });
      now.value = new Date('2026-11-23T00:00:00.000Z');
      expect(await view()).toEqual({ action: 'added' });
      await night.app.ctx.interactions.flushViews();
      expect((await night.app.ctx.images.findById(image))?.views_count).toBe(2);
    } finally {
      await night.close();
    }
  });
});

describe('views written in batches (issue 8, goal 5)', () => {
  it('count one of 30 simultaneous views by the same viewer, and each of 30 viewers', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const same = await Promise.all(
      Array.from({ length: 30 }, () => interact(image, 7, undefined, '192.0.2.10')),
    );
    expect(same.map((r) => r.json<{ action: string }>().action).sort()).toEqual([
      'added',
      ...Array<string>(29).fill('exists'),
    ]);
    const others = await Promise.all(
      Array.from({ length: 30 }, (_, i) => interact(image, 7, undefined, `10.${i}.0.1`)),
    );
    expect(others.every((r) => r.json<{ action: string }>().action === 'added')).toBe(true);
    await t.app.ctx.interactions.flushViews();
    expect((await summary(image)).interactions_count.views).toBe(31);
    const rows = await t.app.ctx.database.db
      .selectFrom('interactions')
      .select('id_interazione')
      .where('id_image', '=', image)
      .where('id_tipo_interazione', '=', 7)
      .execute();
    expect(rows).toHaveLength(31);
    // Written and still within 24 hours: the database now answers for them.
    expect((await interact(image, 7, undefined, '192.0.2.99')).json()).toEqual({
      action: 'exists',
    });
  });

  it('leave out the views of an image deleted while they waited, and write the rest', async () => {
    const slow = await buildTestApp({ viewFlushMs: 60_000 });
    try {
      const uploader = await createUser(slow.app);
      const kept = (await publishedImage(slow.app, uploader)).id_image;
      const doomed = (await publishedImage(slow.app, uploader)).id_image;
      const view = (id: number, token?: string) =>
        interactOn(slow.app, id, 7, token, '198.51.100.20');
      const viewer = await createUser(slow.app);
      expect((await view(kept)).json()).toEqual({ action: 'added' });
      expect((await view(doomed)).json()).toEqual({ action: 'added' });
      expect((await view(kept, viewer.token)).json()).toEqual({ action: 'added' });
      const admin = (await login(slow.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
        access_token: string;
      }>();
      const deleted = await slow.app.inject({
        method: 'DELETE',
        url: `/api/admin/images/${doomed}`,
        headers: bearer(admin.access_token),
      });
      expect(deleted.statusCode).toBe(200);

      await slow.app.ctx.interactions.flushViews();
      const rows = await slow.app.ctx.database.db
        .selectFrom('interactions')
        .select(['id_image', 'id_utente'])
        .where('id_tipo_interazione', '=', 7)
        .orderBy('id_interazione')
        .execute();
      expect(rows).toEqual([
        { id_image: kept, id_utente: null },
        { id_image: kept, id_utente: viewer.id },
      ]);
      const image = await slow.app.ctx.images.findById(kept);
      expect(image?.views_count).toBe(2);
      expect(slow.logs.filter((line) => line['level'] === 50)).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('keep the views of a failed write for the next one', async () => {
    const slow = await buildTestApp({ viewFlushMs: 60_000 });
    try {
      const uploader = await createUser(slow.app);
      const image = (await publishedImage(slow.app, uploader)).id_image;
      const viewed = await interactOn(slow.app, image, 7, undefined, '198.51.100.40');
      expect(viewed.json()).toEqual({ action: 'added' });
      const { db } = slow.app.ctx.database;
      // The table out of reach, as in an outage: the write fails and is logged.
      await sql`ALTER TABLE interactions RENAME TO interactions_away`.execute(db);
      await slow.app.ctx.interactions.flushViews();
      expect(
        slow.logs.some((line) => line['msg'] === 'views not written; kept for the next try'),
      ).toBe(true);
      await sql`ALTER TABLE interactions_away RENAME TO interactions`.execute(db);
      // Still waiting, so still counted once.
      const again = await interactOn(slow.app, image, 7, undefined, '198.51.100.41');
      expect(again.json()).toEqual({ action: 'exists' });
      await slow.app.ctx.interactions.flushViews();
      expect((await slow.app.ctx.images.findById(image))?.views_count).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('are written when the server stops, not lost', async () => {
    const stopping = await buildTestApp({ viewFlushMs: 60_000 });
    try {
      const uploader = await createUser(stopping.app);
      const image = (await publishedImage(stopping.app, uploader)).id_image;
      const viewed = await interactOn(stopping.app, image, 7, undefined, '198.51.100.30');
      expect(viewed.json()).toEqual({ action: 'added' });
      // A minute from the next write: only the shutdown can write it.
      expect((await stopping.app.ctx.images.findById(image))?.views_count).toBe(0);
      await stopping.app.close();

      const reopened = await buildApp(stopping.config, { logStream: { write: () => undefined } });
      try {
        expect((await reopened.ctx.images.findById(image))?.views_count).toBe(1);
      } finally {
        await reopened.close();
      }
    } finally {
      await stopping.close();
    }
  });
});

describe('GET /api/images/{id}/download', () => {
  it('sends the file to a logged-in user and counts every download, not a HEAD', async () => {
    const image = await publishedImage(t.app, owner, { title: 'Città è bella!' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/images/${image.id_image}/download` }))
        .statusCode,
    ).toBe(401);
    for (let i = 0; i < 2; i += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/images/${image.id_image}/download`,
        headers: bearer(fan.token),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename=muri-parlanti-${image.id_image}-citta-e-bella.webp`,
      );
      expect(response.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    }
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/images/${image.id_image}/download`,
      headers: bearer(fan.token),
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-disposition']).toContain('attachment');
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/images/${image.id_image}` })
    ).json();
    expect(detail.downloads_count).toBe(2);
    expect(detail.shares_count).toBe(2);
  });

  it('refuses a pending image to others without counting', async () => {
    const pending = await uploadImage(t.app, owner);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/images/${pending.id_image}/download`,
      headers: bearer(fan.token),
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('reactions and downloads meeting the image’s deletion', () => {
  // The deletion is held open longer than the request takes to reach its write.
  const HOLD_MS = 400;

  it('answer 404 to a like, and the next like of another image counts', async () => {
    const doomed = (await publishedImage(t.app, owner)).id_image;
    const other = (await publishedImage(t.app, owner)).id_image;
    const deletion = await holdDeletion(t.config.database, 'images', doomed, HOLD_MS);
    const response = await interact(doomed, 1, fan.token);
    await deletion.committed;
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Immagine non trovata' });
    expect((await interact(other, 1, fan.token)).json()).toEqual({ action: 'added' });
    expect((await summary(other, fan.token)).interactions_count.likes).toBe(1);
  });

  it('answer 404 to a download, and the next download of another image counts', async () => {
    const doomed = (await publishedImage(t.app, owner)).id_image;
    const other = (await publishedImage(t.app, owner)).id_image;
    const download = (id: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/images/${String(id)}/download`,
        headers: bearer(fan.token),
      });
    const deletion = await holdDeletion(t.config.database, 'images', doomed, HOLD_MS);
    const response = await download(doomed);
    await deletion.committed;
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Immagine non trovata' });
    expect((await download(other)).statusCode).toBe(200);
    const detail = await t.app.inject({ method: 'GET', url: `/api/images/${String(other)}` });
    expect(detail.json().downloads_count).toBe(1);
  });
});

describe('reactions and downloads meeting the erasure of their own account', () => {
  // The account's deletion is held open longer than the request takes to reach its write: the
  // request was authenticated while the account was still there.
  const HOLD_MS = 400;
  const countRows = async (id: number) =>
    (
      await t.app.ctx.database.db
        .selectFrom('interactions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id_image', '=', id)
        .executeTakeFirstOrThrow()
    ).n;

  it('answer 401 to a like, and the image counts nothing', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const leaving = await createUser(t.app);
    const deletion = await holdDeletion(t.config.database, 'users', leaving.id, HOLD_MS);
    const response = await interact(image, 1, leaving.token);
    await deletion.committed;
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    expect((await summary(image)).interactions_count.likes).toBe(0);
    expect(await countRows(image)).toBe(0);
  });

  it('answer 401 to a download, and the image counts nothing', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const leaving = await createUser(t.app);
    const deletion = await holdDeletion(t.config.database, 'users', leaving.id, HOLD_MS);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/images/${String(image)}/download`,
      headers: bearer(leaving.token),
    });
    await deletion.committed;
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    expect((await summary(image)).interactions_count.downloads).toBe(0);
    expect(await countRows(image)).toBe(0);
  });
});

describe('liked images are private (D5)', () => {
  it('are listed for their owner only', async () => {
    const image = (await publishedImage(t.app, owner, { title: 'Da amare' })).id_image;
    await interact(image, 1, fan.token);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/liked-images',
      headers: bearer(fan.token),
    });
    expect(mine.json().images.map((i: { titolo_img: string }) => i.titolo_img)).toContain(
      'Da amare',
    );
    const byId = await t.app.inject({
      method: 'GET',
      url: `/api/users/${fan.id}/liked-images`,
      headers: bearer(fan.token),
    });
    expect(byId.json().total).toBe(mine.json().total);

    const spy = await t.app.inject({
      method: 'GET',
      url: `/api/users/${fan.id}/liked-images`,
      headers: bearer(owner.token),
    });
    expect(spy.statusCode).toBe(403);
    expect(spy.json()).toEqual({ detail: 'Non hai i permessi per accedere a questa pagina.' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/users/${fan.id}/liked-images` })).statusCode,
    ).toBe(401);
  });
});
