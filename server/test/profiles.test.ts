import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { holdDeletion } from './helpers/held-write.js';
import { publishedImage, uploadImage } from './helpers/images.js';

let t: TestApp;
let artist: TestUser;
let fan: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  artist = await createUser(t.app, { username: 'artista' });
  fan = await createUser(t.app);
  const image = await publishedImage(t.app, artist);
  await publishedImage(t.app, artist);
  await uploadImage(t.app, artist);
  await t.app.inject({
    method: 'POST',
    url: `/api/images/${image.id_image}/interactions`,
    headers: bearer(fan.token),
    payload: { id_tipo_interazione: 1 },
  });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string) =>
  t.app.inject({ method, url, headers: token === undefined ? {} : bearer(token) });

describe('GET /api/users/{id}/profile', () => {
  it('shows name, date, followers and figures of approved images, never the e-mail', async () => {
    const response = await call('GET', `/api/users/${artist.id}/profile`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: {
        id_utente: artist.id,
        username: 'artista',
        created_at: expect.any(String),
        followers_count: 0,
        stats: { total_images: 2, total_likes: 1 },
      },
      is_following: false,
    });
    expect(response.body).not.toContain('@');
  });

  it('answers "me" for the logged-in user and 401 without a session', async () => {
    const me = await call('GET', '/api/users/me/profile', artist.token);
    expect(me.json().user.id_utente).toBe(artist.id);
    expect((await call('GET', '/api/users/me/profile')).statusCode).toBe(401);
  });

  it('hides unknown, deactivated and malformed ids', async () => {
    expect((await call('GET', '/api/users/999999/profile')).json()).toEqual({
      detail: 'Utente non trovato',
    });
    const gone = await createUser(t.app);
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id_utente', '=', gone.id)
      .execute();
    expect((await call('GET', `/api/users/${gone.id}/profile`)).statusCode).toBe(404);
    // Ten digits fit the pattern but not a PostgreSQL integer: not found, never a 500.
    for (const path of ['profile', 'is-following']) {
      expect((await call('GET', `/api/users/9999999999/${path}`)).json()).toEqual({
        detail: 'Utente non trovato',
      });
    }
    // Worded as every other id in an address is, not as a field with forbidden characters.
    for (const id of ['0', '-1', 'abc', '1.5', "1' OR 1=1"]) {
      const answer = await call('GET', `/api/users/${encodeURIComponent(id)}/profile`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ detail: 'Il campo "id" non è valido.' });
    }
  });
});

describe("an image page's link to its author", () => {
  it('is offered while the profile can be opened, and not once the account is deactivated', async () => {
    const author = await createUser(t.app);
    const image = (await publishedImage(t.app, author)).id_image;
    const detail = async () =>
      (await call('GET', `/api/images/${image}`)).json<{
        username_uploader: string;
        uploader_visible: boolean;
      }>();
    expect(await detail()).toMatchObject({
      username_uploader: author.username,
      uploader_visible: true,
    });
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const setActive = (active: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${String(author.id)}`,
        headers: bearer(admin),
        payload: {
          username: author.username,
          email: author.email,
          is_active: active,
        },
      });
    expect((await setActive(false)).statusCode).toBe(200);
    // The picture stays public under its author's name; the profile it would link to is a 404.
    expect(await detail()).toMatchObject({
      username_uploader: author.username,
      uploader_visible: false,
    });
    expect((await call('GET', `/api/users/${String(author.id)}/profile`)).statusCode).toBe(404);
    expect((await setActive(true)).statusCode).toBe(200);
    expect(await detail()).toMatchObject({ uploader_visible: true });
  });
});

describe('follows', () => {
  it('follows and unfollows, idempotently, answering the state', async () => {
    const followed = await call('POST', `/api/users/${artist.id}/follow`, fan.token);
    expect(followed.json()).toEqual({ is_following: true, followers_count: 1 });
    expect((await call('POST', `/api/users/${artist.id}/follow`, fan.token)).json()).toEqual({
      is_following: true,
      followers_count: 1,
    });
    expect((await call('GET', `/api/users/${artist.id}/is-following`, fan.token)).json()).toEqual({
      is_following: true,
      followers_count: 1,
    });
    expect((await call('GET', `/api/users/${artist.id}/profile`, fan.token)).json()).toMatchObject({
      is_following: true,
      user: { followers_count: 1 },
    });
    expect((await call('GET', `/api/users/${artist.id}/is-following`)).json()).toEqual({
      is_following: false,
      followers_count: 1,
    });

    const unfollowed = await call('DELETE', `/api/users/${artist.id}/unfollow`, fan.token);
    expect(unfollowed.json()).toEqual({ is_following: false, followers_count: 0 });
    expect((await call('DELETE', `/api/users/${artist.id}/unfollow`, fan.token)).statusCode).toBe(
      200,
    );
  });

  it('refuses following yourself, unknown users and anonymous callers', async () => {
    const self = await call('POST', `/api/users/${fan.id}/follow`, fan.token);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ detail: 'Non puoi seguire te stesso.' });
    expect((await call('POST', '/api/users/me/follow', fan.token)).statusCode).toBe(400);
    expect((await call('POST', '/api/users/999999/follow', fan.token)).statusCode).toBe(404);
    expect((await call('POST', `/api/users/${artist.id}/follow`)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/users/${artist.id}/unfollow`)).statusCode).toBe(401);
    const count = await t.app.ctx.database.db
      .selectFrom('follows')
      .select('follower_id')
      .where('followed_id', '=', artist.id)
      .execute();
    expect(count).toEqual([]);
  });

  const setActive = (id: number, active: 0 | 1) =>
    t.app.ctx.database.db
      .updateTable('users')
      .set({ is_active: active })
      .where('id_utente', '=', id)
      .execute();

  it('counts only followers whose account is active, and keeps their follow', async () => {
    const followed = await createUser(t.app);
    const follower = await createUser(t.app);
    expect(
      (await call('POST', `/api/users/${String(followed.id)}/follow`, follower.token)).json(),
    ).toEqual({ is_following: true, followers_count: 1 });
    await setActive(follower.id, 0);
    const profile = await call('GET', `/api/users/${String(followed.id)}/profile`);
    expect(profile.json()).toMatchObject({ user: { followers_count: 0 } });
    await setActive(follower.id, 1);
    expect((await call('GET', `/api/users/${String(followed.id)}/profile`)).json()).toMatchObject({
      user: { followers_count: 1 },
    });
  });

  it('lets a follower leave an account deactivated since, for good', async () => {
    const followed = await createUser(t.app);
    const follower = await createUser(t.app);
    await call('POST', `/api/users/${String(followed.id)}/follow`, follower.token);
    await setActive(followed.id, 0);
    // A hidden account answers as an unknown one, but the follow goes.
    const left = await call('DELETE', `/api/users/${String(followed.id)}/unfollow`, follower.token);
    expect(left.statusCode).toBe(404);
    expect(left.json()).toEqual({ detail: 'Utente non trovato' });
    // Following a deactivated account is still refused, and reactivation brings nothing back.
    expect(
      (await call('POST', `/api/users/${String(followed.id)}/follow`, follower.token)).statusCode,
    ).toBe(404);
    await setActive(followed.id, 1);
    expect(
      (await call('GET', `/api/users/${String(followed.id)}/is-following`, follower.token)).json(),
    ).toEqual({ is_following: false, followers_count: 0 });
  });

  it('answers 401 to a follow whose own account is erased while it is written', async () => {
    const followed = await createUser(t.app);
    const leaving = await createUser(t.app);
    const deletion = await holdDeletion(t.config.database, 'users', leaving.id, 400);
    const response = await call('POST', `/api/users/${String(followed.id)}/follow`, leaving.token);
    await deletion.committed;
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    expect(
      (await call('GET', `/api/users/${String(followed.id)}/is-following`, followed.token)).json(),
    ).toEqual({ is_following: false, followers_count: 0 });
  });

  it('answers 404 to a follow whose account is deleted while it is written', async () => {
    const doomed = await createUser(t.app);
    const follower = await createUser(t.app);
    const deletion = await holdDeletion(t.config.database, 'users', doomed.id, 400);
    const response = await call('POST', `/api/users/${String(doomed.id)}/follow`, follower.token);
    await deletion.committed;
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Utente non trovato' });
    const rows = await t.app.ctx.database.db
      .selectFrom('follows')
      .select('followed_id')
      .where('follower_id', '=', follower.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
