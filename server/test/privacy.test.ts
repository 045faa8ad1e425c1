import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_JOB } from '../src/jobs/erasure/erasure.job.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { TEST_ENGINE } from './helpers/database.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { holdWrite } from './helpers/held-write.js';
import { publishedImage, uploadImage } from './helpers/images.js';

/** A clock the test moves by hand: erasure promises are about time. */
const now = { value: new Date('2026-11-21T10:00:00.000Z') };
const clock = { now: () => new Date(now.value) };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ erasureDelayMs: 24 * 60 * 60 * 1000 }, { clock });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'DELETE' | 'POST', url: string, token?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: token === undefined ? {} : bearer(token),
    ...(payload === undefined ? {} : { payload }),
  });

describe('GET /api/users/me/export (D9)', () => {
  it('downloads the caller’s own account, uploads, interactions and follows, nobody else’s', async () => {
    const me = await createUser(t.app);
    const other = await createUser(t.app);
    const othersImage = await publishedImage(t.app, other, { title: 'Di un altro' });
    const mine = await uploadImage(t.app, me, { title: 'Mio, in attesa' });
    await call('POST', `/api/images/${othersImage.id_image}/interactions`, me.token, {
      id_tipo_interazione: 1,
    });
    await call('POST', `/api/images/${othersImage.id_image}/interactions`, other.token, {
      id_tipo_interazione: 6,
    });
    await call('POST', `/api/users/${other.id}/follow`, me.token);

    expect((await call('GET', '/api/users/me/export')).statusCode).toBe(401);
    const response = await call('GET', '/api/users/me/export', me.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="muri-parlanti-dati-${me.username}.json"`,
    );
    const data = response.json();
    expect(data.account).toMatchObject({
      id_utente: me.id,
      email: me.email,
      age_confirmed_at: expect.any(String),
    });
    expect(
      data.images.map((i: { id_image: number; status: string }) => [i.id_image, i.status]),
    ).toEqual([[mine.id_image, 'pending']]);
    expect(data.interactions).toEqual([
      {
        id_image: othersImage.id_image,
        id_tipo_interazione: 1,
        tipo: 'mi piace',
        created_at: expect.any(String),
      },
    ]);
    expect(data.follows.following).toEqual([
      { id_utente: other.id, username: other.username, since: expect.any(String) },
    ]);
    expect(response.body).not.toContain(other.email);
    expect(response.body).not.toContain('password');
  });

  it('leaves out the followed accounts that are deactivated or waiting for their erasure', async () => {
    const me = await createUser(t.app);
    const [kept, deactivated, leaving] = [
      await createUser(t.app),
      await createUser(t.app),
      await createUser(t.app),
    ];
    for (const other of [kept, deactivated, leaving]) {
      expect((await call('POST', `/api/users/${other.id}/follow`, me.token)).statusCode).toBe(200);
    }
    // Set in the rows, so no erasure job is left queued for the suite's later tests.
    const db = t.app.ctx.database.db;
    await db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id_utente', '=', deactivated.id)
      .execute();
    await db
      .updateTable('users')
      .set({ is_active: 0, deletion_requested_at: new Date().toISOString() })
      .where('id_utente', '=', leaving.id)
      .execute();
    const data = (await call('GET', '/api/users/me/export', me.token)).json();
    expect(data.follows.following).toEqual([
      { id_utente: kept.id, username: kept.username, since: expect.any(String) },
    ]);
  });
});

describe('DELETE /api/users/me (D9)', () => {
  let victim: TestUser;
  let fan: TestUser;
  let imageFile: string;
  let othersImage: number;

  beforeAll(async () => {
    victim = await createUser(t.app);
    fan = await createUser(t.app);
    const image = await publishedImage(t.app, victim, { title: 'Da cancellare' });
    imageFile = path.join(t.config.dataDir, 'images', image.filename);
    othersImage = (await publishedImage(t.app, fan)).id_image;
    await call('POST', `/api/images/${othersImage}/interactions`, victim.token, {
      id_tipo_interazione: 1,
    });
    await call('POST', `/api/users/${fan.id}/follow`, victim.token);
    // The uploads' analysis jobs, out of the way of the erasure job's count.
    await t.app.ctx.jobs.runUntilIdle();
  });

  it('refuses a wrong or missing password and changes nothing', async () => {
    const wrong = await call('DELETE', '/api/users/me', victim.token, { password: 'sbagliata' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'La password non è corretta.' });
    expect((await call('DELETE', '/api/users/me', victim.token, {})).statusCode).toBe(400);
    expect((await call('DELETE', '/api/users/me', undefined, { password: 'x' })).statusCode).toBe(
      401,
    );
    expect((await call('GET', '/api/users/me', victim.token)).statusCode).toBe(200);
  });

  it('refuses a deletion whose session an administrator’s password reset ended meanwhile', async () => {
    const user = await createUser(t.app);
    // The reset (a new password, every session ended) commits while the deletion, confirmed
    // with the old password, is on its way.
    const reset = await holdWrite(
      t.config.database,
      [['UPDATE users SET token_version = token_version + 1 WHERE id_utente = ?', [user.id]]],
      1000,
    );
    const deletion = await call('DELETE', '/api/users/me', user.token, {
      password: user.password,
    });
    await reset.committed;
    expect(deletion.statusCode).toBe(401);
    expect(deletion.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    const row = await t.app.ctx.database.db
      .selectFrom('users')
      .select(['is_active', 'deletion_requested_at'])
      .where('id_utente', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_active: 1, deletion_requested_at: null });
    const queued = await t.app.ctx.database.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', ERASURE_JOB)
      .execute();
    expect(queued.filter((job) => JSON.parse(job.payload).id_utente === user.id)).toEqual([]);
    // The session is over, but the account is not: the new password is the administrator's.
    expect((await call('GET', '/api/users/me', user.token)).statusCode).toBe(401);
  });

  it('deactivates at once and erases everything when the promised time comes', async () => {
    const response = await call('DELETE', '/api/users/me', victim.token, {
      password: victim.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().detail).toMatch(/entro 5 giorni/);
    // At once: the session dies, login is refused, the profile is gone.
    expect((await call('GET', '/api/users/me', victim.token)).statusCode).toBe(401);
    expect((await login(t.app, victim.username, victim.password)).json()).toEqual({
      detail: 'Account disattivato',
    });
    expect((await call('GET', `/api/users/${victim.id}/profile`)).statusCode).toBe(404);

    // Not yet: the erasure is due after the configured delay.
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(0);
    await fs.access(imageFile);

    now.value = new Date(now.value.getTime() + 25 * 60 * 60 * 1000);
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(1);
    const db = t.app.ctx.database.db;
    expect(
      await db.selectFrom('users').select('id_utente').where('id_utente', '=', victim.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('images').select('id_image').where('id_utente', '=', victim.id).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('interactions')
        .select('id_image')
        .where('id_utente', '=', victim.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('follows')
        .select('followed_id')
        .where('follower_id', '=', victim.id)
        .execute(),
    ).toEqual([]);
    await expect(fs.access(imageFile)).rejects.toThrow();
    // Counters of other people's images no longer count the erased user's reactions.
    expect((await call('GET', `/api/images/${othersImage}`)).json().likes_count).toBe(0);
  });

  it('forgets a user who touched more images than one batch, and nobody else', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const heavy = await createUser(t.app);
    const fan = await createUser(t.app);
    const db = t.app.ctx.database.db;
    // More images than an erasure recounts in one transaction (1,000), each liked and viewed
    // by the user and liked by someone else.
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      filename: `batch-${String(i)}.webp`,
      id_utente: fan.id,
      id_categoria: 1,
      status: 'approved' as const,
      mime_type: 'image/webp',
      size_bytes: 1000,
      width: 10,
      height: 10,
      created_at: now.value.toISOString(),
      published_at: now.value.toISOString(),
      likes_count: 2,
      views_count: 1,
    }));
    const ids: number[] = [];
    for (const part of [rows.slice(0, 550), rows.slice(550)]) {
      const inserted = await db.insertInto('images').values(part).returning('id_image').execute();
      ids.push(...inserted.map((row) => row.id_image));
    }
    const created_at = now.value.toISOString();
    const interactions = ids.flatMap((id_image) => [
      { id_image, id_utente: heavy.id, id_tipo_interazione: 1, viewer_key: null, created_at },
      {
        id_image,
        id_utente: heavy.id,
        id_tipo_interazione: 7,
        viewer_key: `u:${heavy.id}`,
        created_at,
      },
      { id_image, id_utente: fan.id, id_tipo_interazione: 1, viewer_key: null, created_at },
    ]);
    for (let start = 0; start < interactions.length; start += 500) {
      await db
        .insertInto('interactions')
        .values(interactions.slice(start, start + 500))
        .execute();
    }

    const erased = await call('DELETE', `/api/admin/users/${heavy.id}`, admin.access_token);
    expect(erased.statusCode).toBe(200);
    const counters = await db
      .selectFrom('images')
      .select(['likes_count', 'views_count'])
      .where('id_image', 'in', ids)
      .execute();
    expect(counters.length).toBe(1100);
    expect(counters.filter((row) => row.likes_count === 1 && row.views_count === 0).length).toBe(
      1100,
    );
    const left = await db
      .selectFrom('interactions')
      .select(['id_utente'])
      .where('id_image', 'in', ids)
      .execute();
    expect(left.length).toBe(1100);
    expect(left.every((row) => row.id_utente === fan.id)).toBe(true);
  });

  it('erases a user whose image an administrator deletes at the same moment', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const leaving = await createUser(t.app);
    const images = await Promise.all([1, 2, 3].map(() => publishedImage(t.app, leaving)));
    const last = images.at(-1)!;
    const [erased, deleted] = await Promise.all([
      call('DELETE', `/api/admin/users/${leaving.id}`, admin.access_token),
      // The erasure lists the user's images first, then deletes them one by one.
      new Promise((resolve) => setImmediate(resolve)).then(() =>
        call('DELETE', `/api/admin/images/${last.id_image}`, admin.access_token),
      ),
    ]);
    expect(erased.statusCode).toBe(200);
    expect([200, 404]).toContain(deleted.statusCode);
    const db = t.app.ctx.database.db;
    expect(
      await db
        .selectFrom('users')
        .select('id_utente')
        .where('id_utente', '=', leaving.id)
        .execute(),
    ).toEqual([]);
  });

  describe('beside other writers of the same images', () => {
    // Another process's transaction holds one of the user's images while the erasure runs.
    const HOLD_MS = 500;
    const likesOf = async (id: number) => {
      const db = t.app.ctx.database.db;
      const image = await db
        .selectFrom('images')
        .select('likes_count')
        .where('id_image', '=', id)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('interactions')
        .select('id_utente')
        .where('id_image', '=', id)
        .where('id_tipo_interazione', '=', 1)
        .execute();
      return { counter: image.likes_count, rows: rows.map((row) => row.id_utente) };
    };

    it('keeps a like another user gives while the erasure recounts the image', async () => {
      const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
      const leaving = await createUser(t.app);
      const fan = await createUser(t.app);
      const image = await publishedImage(t.app, await createUser(t.app));
      const id = image.id_image;
      await call('POST', `/api/images/${id}/interactions`, leaving.token, {
        id_tipo_interazione: 1,
      });
      // The fan's like, as a toggle writes it (row, then counter), committed while the erasure
      // waits for the image: the recount must see it.
      const like = await holdWrite(
        t.config.database,
        [
          [
            'INSERT INTO interactions (id_image, id_utente, id_tipo_interazione, created_at) VALUES (?, ?, 1, ?)',
            [id, fan.id, now.value.toISOString()],
          ],
          ['UPDATE images SET likes_count = likes_count + 1 WHERE id_image = ?', [id]],
        ],
        HOLD_MS,
      );
      const erased = await call('DELETE', `/api/admin/users/${leaving.id}`, admin.access_token);
      await like.committed;
      expect(erased.statusCode).toBe(200);
      expect(await likesOf(id)).toEqual({ counter: 1, rows: [fan.id] });
    });

    // PostgreSQL only: SQLite's write transactions never run beside each other.
    it.runIf(TEST_ENGINE === 'postgres')(
      'counts out a like the user gives while being erased, written before the account goes',
      async () => {
        const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
        const leaving = await createUser(t.app);
        const image = await publishedImage(t.app, await createUser(t.app));
        const id = image.id_image;
        const db = t.app.ctx.database.db;
        // The image's row is held: the like, authenticated before the account was marked, has
        // written its row and waits to raise the counter while the erasure runs.
        const held = await holdWrite(
          t.config.database,
          [['UPDATE images SET likes_count = likes_count WHERE id_image = ?', [id]]],
          HOLD_MS,
        );
        const like = call('POST', `/api/images/${id}/interactions`, leaving.token, {
          id_tipo_interazione: 1,
        });
        for (;;) {
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'update "images" set "likes_count"%'
          `.execute(db);
          if ((rows[0]?.n ?? 0) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const erased = await call('DELETE', `/api/admin/users/${leaving.id}`, admin.access_token);
        await held.committed;
        expect(erased.statusCode).toBe(200);
        expect([200, 401]).toContain((await like).statusCode);
        expect(await likesOf(id)).toEqual({ counter: 0, rows: [] });
      },
    );

    it('erases a user while an image they liked is being deleted, both done', async () => {
      const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
      const leaving = await createUser(t.app);
      const doomed = await publishedImage(t.app, await createUser(t.app));
      const kept = await publishedImage(t.app, await createUser(t.app));
      for (const image of [doomed, kept]) {
        await call('POST', `/api/images/${image.id_image}/interactions`, leaving.token, {
          id_tipo_interazione: 1,
        });
      }
      // A deletion as moderation makes it: the image's row locked first, then deleted with its
      // interactions (cascade) once the erasure is under way.
      const deletion = await holdWrite(
        t.config.database,
        [['UPDATE images SET likes_count = likes_count WHERE id_image = ?', [doomed.id_image]]],
        HOLD_MS,
        [['DELETE FROM images WHERE id_image = ?', [doomed.id_image]]],
      );
      const erased = await call('DELETE', `/api/admin/users/${leaving.id}`, admin.access_token);
      await deletion.committed;
      expect(erased.statusCode).toBe(200);
      const db = t.app.ctx.database.db;
      expect(
        await db
          .selectFrom('images')
          .select('id_image')
          .where('id_image', '=', doomed.id_image)
          .execute(),
      ).toEqual([]);
      expect(await likesOf(kept.id_image)).toEqual({ counter: 0, rows: [] });
      expect(
        await db
          .selectFrom('users')
          .select('id_utente')
          .where('id_utente', '=', leaving.id)
          .execute(),
      ).toEqual([]);
    });
  });

  it('takes the e-mails written to the account with it, sent or still queued', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const author = await createUser(t.app);
    const bystander = await createUser(t.app);
    const [approved, rejected, others] = [
      await uploadImage(t.app, author, { title: 'Approvata' }),
      await uploadImage(t.app, author, { title: 'Rifiutata' }),
      await uploadImage(t.app, bystander, { title: 'Di un altro' }),
    ];
    const decide = (method: 'PUT' | 'POST', url: string) =>
      t.app.inject({
        method,
        url,
        headers: { ...bearer(admin.access_token), 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: '"Sfocata"' } : {}),
      });
    expect((await decide('PUT', `/api/admin/approve-image/${approved.filename}`)).statusCode).toBe(
      200,
    );
    expect((await decide('PUT', `/api/admin/approve-image/${others.filename}`)).statusCode).toBe(
      200,
    );
    // Sent: kept a week as a done job, with the address, the name and the title.
    await t.app.ctx.jobs.runUntilIdle();
    // Still queued when the account goes.
    expect((await decide('POST', `/api/admin/reject-image/${rejected.filename}`)).statusCode).toBe(
      200,
    );
    const mailTo = async (address: string) =>
      (
        await t.app.ctx.database.db
          .selectFrom('jobs')
          .select('payload')
          .where('name', '=', 'mail.send')
          .execute()
      ).filter((job) => JSON.parse(job.payload).to === address);
    expect(await mailTo(author.email)).toHaveLength(2);
    // Without a mail server the outbox holds the messages as files.
    const outbox = path.join(t.config.dataDir, 'outbox');
    const outboxFiles = async () =>
      Promise.all(
        (await fs.readdir(outbox)).map((name) => fs.readFile(path.join(outbox, name), 'utf8')),
      );
    expect((await outboxFiles()).filter((file) => file.includes(author.email))).toHaveLength(1);

    const deletion = await call('DELETE', '/api/users/me', author.token, {
      password: author.password,
    });
    expect(deletion.statusCode).toBe(200);
    now.value = new Date(now.value.getTime() + 25 * 60 * 60 * 1000);
    await t.app.ctx.jobs.runUntilIdle();
    expect(
      await t.app.ctx.database.db
        .selectFrom('users')
        .select('id_utente')
        .where('id_utente', '=', author.id)
        .execute(),
    ).toEqual([]);
    expect(await mailTo(author.email)).toEqual([]);
    const kept = await t.app.ctx.database.db.selectFrom('jobs').select('payload').execute();
    expect(kept.map((job) => job.payload).join('\n')).not.toContain(author.username);
    // Somebody else's message stays.
    expect(await mailTo(bystander.email)).toHaveLength(1);
    // The author's copies in the outbox go too.
    const files = await outboxFiles();
    expect(files.filter((file) => file.includes(bystander.email))).toHaveLength(1);
    expect(files.filter((file) => file.includes(author.email))).toEqual([]);
  });

  it('never lets the last active administrator delete their own account', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const response = await call('DELETE', '/api/users/me', admin.access_token, {
      password: TEST_ADMIN.password,
    });
    expect(response.statusCode).toBe(400);
    expect((await call('GET', '/api/users/me', admin.access_token)).statusCode).toBe(200);
  });
});
