import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_JOB } from '../src/jobs/erasure/erasure.job.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { TEST_ENGINE, throwawayPostgres } from './helpers/database.js';
import { holdDeletion, holdWrite } from './helpers/held-write.js';
import { createCategory, publishedImage, uploadImage } from './helpers/images.js';

let t: TestApp;
let adminToken: string;
let adminId: number;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  const session = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
  adminToken = session.access_token;
  adminId = session.user.id_utente;
  user = await createUser(t.app);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: token === undefined ? {} : bearer(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const asAdmin = (method: Method, url: string, payload?: unknown) =>
  call(method, url, adminToken, payload);

describe('every admin route, from the route table', () => {
  it('answers 401 without a token and 403 to a normal user, changing nothing', async () => {
    const document = (await call('GET', '/api/docs')).json();
    const routes = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([route]) => route.startsWith('/api/admin'))
      .flatMap(([route, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase() as Method,
          url: route.replace(/\{[^}]+\}/g, '1'),
        })),
      );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const before = await asAdmin('GET', '/api/admin/stats');
    for (const { method, url } of routes) {
      const anonymous = await call(method, url, undefined, method === 'GET' ? undefined : {});
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const forbidden = await call(method, url, user.token, method === 'GET' ? undefined : {});
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json()).toEqual({
        detail: 'Non hai i permessi per accedere a questa pagina.',
      });
    }
    const after = await asAdmin('GET', '/api/admin/stats');
    expect(after.json().total_stats).toEqual(before.json().total_stats);
  });

  it('takes the powers away at once from a demoted administrator', async () => {
    const second = await asAdmin('POST', '/api/admin/users', {
      username: 'vice',
      email: 'vice@example.it',
      password: 'password-lunga',
      is_superuser: true,
    });
    expect(second.statusCode).toBe(201);
    const token = (await login(t.app, 'vice', 'password-lunga')).json().access_token;
    expect((await call('GET', '/api/admin/stats', token)).statusCode).toBe(200);
    await asAdmin('PUT', `/api/admin/users/${second.json().id_utente}`, {
      username: 'vice',
      email: 'vice@example.it',
      is_superuser: false,
    });
    expect((await call('GET', '/api/admin/stats', token)).statusCode).toBe(403);
  });
});

describe('the last active administrator (D7)', () => {
  it('stays when two administrators demote or delete each other at the same moment', async () => {
    const fresh = await buildTestApp();
    try {
      const first = (await login(fresh.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
      const as = (token: string, method: Method, url: string, payload?: unknown) =>
        fresh.app.inject({
          method,
          url,
          headers: bearer(token),
          ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
        });
      const makeSecond = async (username: string) => {
        const created = await as(first.access_token, 'POST', '/api/admin/users', {
          username,
          email: `${username}@example.it`,
          password: 'password-lunga',
          is_superuser: true,
        });
        const session = (await login(fresh.app, username, 'password-lunga')).json();
        return { id: created.json().id_utente as number, token: session.access_token as string };
      };
      const activeAdmins = async () =>
        (
          await fresh.app.ctx.database.db
            .selectFrom('users')
            .select('id_utente')
            .where('is_superuser', '=', 1)
            .where('is_active', '=', 1)
            .execute()
        ).length;
      const demote = (token: string, id: number, username: string) =>
        as(token, 'PUT', `/api/admin/users/${id}`, {
          username,
          email: `${username}@example.it`,
          is_superuser: false,
        });

      const vice = await makeSecond('vice');
      const demotions = await Promise.all([
        demote(first.access_token, vice.id, 'vice'),
        demote(vice.token, first.user.id_utente, TEST_ADMIN.username),
      ]);
      expect(demotions.map((response) => response.statusCode).sort()).toEqual([200, 400]);
      expect(await activeAdmins()).toBe(1);

      // The one still an administrator and a new one delete each other.
      const winner = demotions[0].statusCode === 200 ? first.access_token : vice.token;
      const deputy = await makeSecond('deputy');
      const deletions = await Promise.all([
        as(winner, 'DELETE', `/api/admin/users/${deputy.id}`),
        as(
          deputy.token,
          'DELETE',
          `/api/admin/users/${winner === first.access_token ? first.user.id_utente : vice.id}`,
        ),
      ]);
      expect(deletions.map((response) => response.statusCode).sort()).toEqual([200, 400]);
      expect(deletions.find((response) => response.statusCode === 400)?.json()).toEqual({
        detail: 'Deve restare almeno un amministratore attivo.',
      });
      expect(await activeAdmins()).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe('users', () => {
  it('lists users with role and scores, and creates, edits and erases one', async () => {
    const created = await asAdmin('POST', '/api/admin/users', {
      username: 'nuovo',
      email: 'nuovo@example.it',
      password: 'password-lunga',
      is_active: true,
      is_superuser: false,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id_utente;
    await publishedImage(t.app, {
      ...user,
      id,
      token: (await login(t.app, 'nuovo', 'password-lunga')).json().access_token,
      username: 'nuovo',
      email: 'nuovo@example.it',
      password: 'password-lunga',
    });

    const list = (await asAdmin('GET', '/api/admin/users')).json();
    const row = list.users.find((u: { id_utente: number }) => u.id_utente === id);
    expect(row).toMatchObject({
      username: 'nuovo',
      email: 'nuovo@example.it',
      role: 'user',
      images_uploaded: 1,
      image_score: 5,
      total_score: 5,
    });
    expect(list.total).toBe(list.users.length);

    const edited = await asAdmin('PUT', `/api/admin/users/${id}`, {
      username: 'rinominato',
      email: 'nuovo@example.it',
      password: '',
      is_active: false,
    });
    expect(edited.json()).toMatchObject({ username: 'rinominato', is_active: false });
    expect((await login(t.app, 'rinominato', 'password-lunga')).statusCode).toBe(403);

    // The full size of the user's upload, made by its job after the answer.
    await t.app.ctx.jobs.runUntilIdle();
    const images = (await fs.readdir(path.join(t.config.dataDir, 'images'))).filter((f) =>
      f.endsWith('.webp'),
    );
    expect((await asAdmin('DELETE', `/api/admin/users/${id}`)).statusCode).toBe(200);
    expect((await asAdmin('GET', `/api/admin/users/${id}`)).statusCode).toBe(404);
    const left = (await fs.readdir(path.join(t.config.dataDir, 'images'))).filter((f) =>
      f.endsWith('.webp'),
    );
    expect(left.length).toBe(images.length - 1);
    // An erasure job waits to finish the work had the request stopped part-way; run now, it
    // finds nothing left to do.
    const jobs = await t.app.ctx.database.db
      .selectFrom('jobs')
      .select(['payload', 'status'])
      .where('name', '=', ERASURE_JOB)
      .execute();
    expect(jobs.map((job) => [JSON.parse(job.payload).id_utente, job.status])).toContainEqual([
      id,
      'queued',
    ]);
    await expect(t.app.ctx.erasure.eraseUser(id)).resolves.toBeUndefined();
  });

  it('refuses duplicates, short passwords and bad e-mails', async () => {
    for (const [body, detail] of [
      [
        { username: user.username, email: 'x@example.it', password: 'password-lunga' },
        'Username o email già in uso',
      ],
      [
        { username: 'altro', email: 'x@example.it', password: 'corta' },
        'La password deve essere di almeno 8 caratteri',
      ],
      [
        { username: 'altro', email: 'non-email', password: 'password-lunga' },
        'Inserisci un indirizzo email valido.',
      ],
      [{ username: 'altro', email: 'x@example.it' }, 'Il campo "Password" è obbligatorio.'],
      [
        { username: 'altro', email: 'x@example.it', password: 'x'.repeat(257) },
        'La password può contenere al massimo 256 caratteri.',
      ],
    ] as const) {
      const response = await asAdmin('POST', '/api/admin/users', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail });
    }
    // A reset counts characters as creation does: four emoji are four, not eight.
    const reset = await asAdmin('PUT', `/api/admin/users/${user.id}`, {
      username: user.username,
      email: user.email,
      password: '😀😀😀😀',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toEqual({ detail: 'La password deve essere di almeno 8 caratteri' });
    const long = await asAdmin('PUT', `/api/admin/users/${user.id}`, {
      username: user.username,
      email: user.email,
      password: 'x'.repeat(257),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ detail: 'La password può contenere al massimo 256 caratteri.' });
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);
  });

  it('never lets an administrator delete or demote themself, nor remove the last one', async () => {
    const self = await asAdmin('DELETE', `/api/admin/users/${adminId}`);
    expect(self.statusCode).toBe(400);
    const demote = await asAdmin('PUT', `/api/admin/users/${adminId}`, {
      username: TEST_ADMIN.username,
      email: TEST_ADMIN.email,
      is_superuser: false,
    });
    expect(demote.statusCode).toBe(400);
    expect(
      (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().user.is_superuser,
    ).toBe(true);
  });

  it('changes its own e-mail or password only through the profile, with the current password (D3)', async () => {
    const detail =
      'Non puoi cambiare la tua email o la tua password da qui: usa il tuo profilo, con la password attuale.';
    const own = { username: TEST_ADMIN.username, is_active: true, is_superuser: true };
    const password = await asAdmin('PUT', `/api/admin/users/${adminId}`, {
      ...own,
      email: TEST_ADMIN.email,
      password: 'presa-da-un-altro',
    });
    expect(password.statusCode).toBe(400);
    expect(password.json()).toEqual({ detail });
    const email = await asAdmin('PUT', `/api/admin/users/${adminId}`, {
      ...own,
      email: 'ladro@example.it',
    });
    expect(email.statusCode).toBe(400);
    expect(email.json()).toEqual({ detail });

    // Nothing changed, and the session that asked still works.
    expect((await asAdmin('GET', '/api/admin/stats')).statusCode).toBe(200);
    const me = (await asAdmin('GET', '/api/users/me')).json();
    expect(me.email).toBe(TEST_ADMIN.email);
    expect((await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).statusCode).toBe(200);

    // The rest of the own row stays editable there: the same address in capitals, no password.
    const same = await asAdmin('PUT', `/api/admin/users/${adminId}`, {
      ...own,
      email: TEST_ADMIN.email.toUpperCase(),
      password: '',
    });
    expect(same.statusCode).toBe(200);
    await asAdmin('PUT', `/api/admin/users/${adminId}`, { ...own, email: TEST_ADMIN.email });
    // Another account's password is still the administrator's to set.
    const someone = await createUser(t.app);
    const other = await asAdmin('PUT', `/api/admin/users/${someone.id}`, {
      username: someone.username,
      email: someone.email,
      password: 'nuova-password-1',
    });
    expect(other.statusCode).toBe(200);
    expect((await login(t.app, someone.username, 'nuova-password-1')).statusCode).toBe(200);
  });
});

describe('moderation', () => {
  it('lists pending images oldest first, approves one and rejects one with a plain-text reason', async () => {
    const first = await uploadImage(t.app, user, { title: 'prima', tags: ['muro'] });
    const second = await uploadImage(t.app, user, { title: 'seconda' });
    const pending = (await asAdmin('GET', '/api/admin/pending-images')).json();
    const ids = pending.images.map((image: { id_image: number }) => image.id_image);
    expect(ids.indexOf(first.id_image)).toBeLessThan(ids.indexOf(second.id_image));
    const entry = pending.images.find(
      (image: { id_image: number }) => image.id_image === first.id_image,
    );
    expect(entry).toMatchObject({
      filename: first.filename,
      title: 'prima',
      status: 'pending',
      user: { username: user.username },
      category: { id_categoria: 1, name: 'Non categorizzata' },
      tags: ['muro'],
      file_info: { size_bytes: expect.any(Number), width: 64, height: 48 },
    });
    expect((await call('GET', entry.thumbnail_url)).statusCode).toBe(200);

    const approved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/approve-image/${first.filename}`,
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
    });
    expect(approved.statusCode).toBe(200);
    expect((await call('GET', `/api/images/${first.id_image}`)).statusCode).toBe(200);
    const again = await asAdmin('PUT', `/api/admin/approve-image/${first.filename}`);
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/non è più in attesa/);

    const rejected = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reject-image/${second.filename}`,
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
      payload: 'Foto sfocata',
    });
    expect(rejected.statusCode).toBe(200);
    expect((await call('GET', `/api/images/${second.id_image}`)).statusCode).toBe(404);
    const own = (await call('GET', '/api/users/me/images', user.token)).json();
    expect(
      own.images.find((i: { id_image: number }) => i.id_image === second.id_image),
    ).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Foto sfocata',
    });
  });

  it.each([
    ['a JSON string', 'application/json', '"Contiene dati personali"', 'Contiene dati personali'],
    ['a JSON object', 'application/json', '{"reason":"Non è un muro"}', 'Non è un muro'],
    ['plain text', 'text/plain', 'Immagine duplicata', 'Immagine duplicata'],
    ['an empty body', 'application/json', '', 'Nessun motivo specificato'],
    // What a client sends when it has no reason: never its JSON mailed as one.
    ['JSON null', 'application/json', 'null', 'Nessun motivo specificato'],
    ['an object without reason', 'application/json', '{"motivo":"x"}', 'Nessun motivo specificato'],
    ['a list', 'application/json', '["Sfocata"]', 'Nessun motivo specificato'],
    ['a number', 'application/json', '42', '42'],
    [
      'text with a direction override and a cut emoji',
      'text/plain',
      `Vedi\u202e ${'a'.repeat(995)}😀`,
      `Vedi ${'a'.repeat(995)}`,
    ],
  ])('accepts the reason as %s', async (_, type, payload, expected) => {
    const image = await uploadImage(t.app, user);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reject-image/${image.filename}`,
      headers: { ...bearer(adminToken), 'content-type': type },
      payload,
    });
    expect(response.statusCode).toBe(200);
    const row = await t.app.ctx.database.db
      .selectFrom('images')
      .select('rejection_reason')
      .where('id_image', '=', image.id_image)
      .executeTakeFirstOrThrow();
    expect(row.rejection_reason).toBe(expected);
  });

  it('does not take an account waiting for its erasure back to active', async () => {
    const leaving = await createUser(t.app);
    await call('DELETE', '/api/users/me', leaving.token, { password: leaving.password });
    const edit = (is_active: boolean) =>
      asAdmin('PUT', `/api/admin/users/${String(leaving.id)}`, {
        username: `${leaving.username}x`,
        email: leaving.email,
        password: '',
        is_active,
      });
    const ticked = await edit(true);
    expect(ticked.statusCode).toBe(400);
    expect(ticked.json()).toEqual({
      detail: 'L’utente ha chiesto di eliminare il suo account: non può essere riattivato.',
    });
    const row = await t.app.ctx.database.db
      .selectFrom('users')
      .select(['username', 'is_active'])
      .where('id_utente', '=', leaving.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ username: leaving.username, is_active: 0 });
    // Left inactive, the rest of the form is still saved.
    expect((await edit(false)).statusCode).toBe(200);
  });

  it('does not publish the image of an account waiting for its erasure', async () => {
    const leaving = await createUser(t.app);
    const image = await uploadImage(t.app, leaving);
    const closed = await call('DELETE', '/api/users/me', leaving.token, {
      password: leaving.password,
    });
    expect(closed.statusCode).toBe(200);
    const approved = await asAdmin('PUT', `/api/admin/approve-image/${image.filename}`);
    expect(approved.statusCode).toBe(400);
    expect(approved.json()).toEqual({
      detail:
        'L’autore ha chiesto di eliminare il suo account: l’immagine verrà cancellata con esso.',
    });
    const row = await t.app.ctx.database.db
      .selectFrom('images')
      .select('status')
      .where('id_image', '=', image.id_image)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect((await call('GET', `/api/images/${image.id_image}`)).statusCode).toBe(404);
    // Rejecting it is still possible: it stays private.
    const rejected = await asAdmin('POST', `/api/admin/reject-image/${image.filename}`);
    expect(rejected.statusCode).toBe(200);
  });

  it('answers 401 to an approval whose administrator is erased while it is written', async () => {
    const leaving = await createUser(t.app);
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ is_superuser: 1 })
      .where('id_utente', '=', leaving.id)
      .execute();
    const pending = await uploadImage(t.app, user);
    const deletion = await holdDeletion(t.config.database, 'users', leaving.id, 400);
    const approval = await call(
      'PUT',
      `/api/admin/approve-image/${pending.filename}`,
      leaving.token,
    );
    await deletion.committed;
    expect(approval.statusCode).toBe(401);
    expect(approval.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    const row = await t.app.ctx.database.db
      .selectFrom('images')
      .select('status')
      .where('id_image', '=', pending.id_image)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  describe('an approval carrying the category and tags chosen for it', () => {
    const statusOf = async (id: number) =>
      await t.app.ctx.database.db
        .selectFrom('images')
        .select(['status', 'id_categoria'])
        .where('id_image', '=', id)
        .executeTakeFirstOrThrow();
    const tagsOf = async (id: number) =>
      (
        await t.app.ctx.database.db
          .selectFrom('image_tags')
          .innerJoin('tags', 'tags.id_tag', 'image_tags.id_tag')
          .select('tags.nome')
          .where('image_tags.id_image', '=', id)
          .execute()
      )
        .map((row) => row.nome)
        .sort();
    const countOf = async (id: number) => (await call('GET', `/api/categories/${id}`)).json().count;

    it('publishes the image sorted as chosen, counted where it ends up', async () => {
      const sent = await createCategory(t.app, 'messaggi_come_inviati');
      const chosen = await createCategory(t.app, 'messaggi_come_scelti');
      const image = await uploadImage(t.app, user, { categoryId: sent, tags: ['bozza'] });
      const approved = await asAdmin('PUT', `/api/admin/approve-image/${image.filename}`, {
        id_categoria: chosen,
        tags: ['Scelta', 'definitiva'],
      });
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ id_image: image.id_image, status: 'approved' });
      const shown = (await call('GET', `/api/images/${image.id_image}`)).json();
      expect(shown.category.id_categoria).toBe(chosen);
      expect(shown.tags.map((tag: { nome: string }) => tag.nome).sort()).toEqual([
        'Scelta',
        'definitiva',
      ]);
      expect([await countOf(sent), await countOf(chosen)]).toEqual([0, 1]);
      const found = (await call('GET', '/api/search?query=definitiva')).json();
      expect(found.images.map((i: { id_image: number }) => i.id_image)).toContain(image.id_image);
    });

    it.each([
      [
        'a category that does not exist',
        { id_categoria: 999_999 },
        'La categoria scelta non esiste.',
      ],
      [
        'eleven tags',
        { tags: Array.from({ length: 11 }, (_, index) => `tag${index}`) },
        'Puoi assegnare al massimo 10 tag.',
      ],
      ['a category id as text', { id_categoria: '2' }, 'La categoria scelta non esiste.'],
      ['a list', ['muro'], expect.stringMatching(/non è valido/)],
    ])('refuses %s, leaving the image pending as sent', async (_, body, detail) => {
      const sent = await createCategory(t.app, `messaggi_rifiutati_${Math.random()}`.slice(0, 40));
      const image = await uploadImage(t.app, user, { categoryId: sent, tags: ['originale'] });
      const refused = await asAdmin('PUT', `/api/admin/approve-image/${image.filename}`, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail });
      expect(await statusOf(image.id_image)).toEqual({ status: 'pending', id_categoria: sent });
      expect(await tagsOf(image.id_image)).toEqual(['originale']);
    });

    it('changes nothing when the approval itself is refused', async () => {
      const chosen = await createCategory(t.app, 'messaggi_mai_scelti');
      // Already decided by someone else.
      const decided = await uploadImage(t.app, user, { tags: ['prima'] });
      expect(
        (await asAdmin('POST', `/api/admin/reject-image/${decided.filename}`)).statusCode,
      ).toBe(200);
      const late = await asAdmin('PUT', `/api/admin/approve-image/${decided.filename}`, {
        id_categoria: chosen,
        tags: ['dopo'],
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().detail).toMatch(/non è più in attesa/);
      expect(await statusOf(decided.id_image)).toEqual({ status: 'rejected', id_categoria: 1 });
      expect(await tagsOf(decided.id_image)).toEqual(['prima']);

      // Its uploader is leaving (D9).
      const leaving = await createUser(t.app);
      const theirs = await uploadImage(t.app, leaving, { tags: ['prima'] });
      await call('DELETE', '/api/users/me', leaving.token, { password: leaving.password });
      const refused = await asAdmin('PUT', `/api/admin/approve-image/${theirs.filename}`, {
        id_categoria: chosen,
        tags: ['dopo'],
      });
      expect(refused.statusCode).toBe(400);
      expect(await statusOf(theirs.id_image)).toEqual({ status: 'pending', id_categoria: 1 });
      expect(await tagsOf(theirs.id_image)).toEqual(['prima']);
      expect(await countOf(chosen)).toBe(0);
    });

    it('takes JSON null or an empty object as no change', async () => {
      for (const payload of ['null', '{}']) {
        const image = await uploadImage(t.app, user, { tags: ['invariata'] });
        const approved = await t.app.inject({
          method: 'PUT',
          url: `/api/admin/approve-image/${image.filename}`,
          headers: { ...bearer(adminToken), 'content-type': 'application/json' },
          payload,
        });
        expect(approved.statusCode, payload).toBe(200);
        expect(await statusOf(image.id_image)).toEqual({ status: 'approved', id_categoria: 1 });
        expect(await tagsOf(image.id_image)).toEqual(['invariata']);
      }
    });
  });

  it('answers 404 for an unknown file name', async () => {
    expect((await asAdmin('PUT', '/api/admin/approve-image/nessuno.webp')).statusCode).toBe(404);
    expect((await asAdmin('POST', '/api/admin/reject-image/nessuno.webp')).statusCode).toBe(404);
  });
});

describe('images, categories and tags', () => {
  it('lists images of every status, searches, edits and deletes', async () => {
    const cat = await createCategory(t.app, 'messaggi_scuola');
    const image = await publishedImage(t.app, user, { title: 'Viva la scuola', tags: ['scuola'] });
    const found = (await asAdmin('GET', '/api/admin/images?search=SCUOLA')).json();
    expect(found.map((i: { id_image: number }) => i.id_image)).toContain(image.id_image);
    expect((await asAdmin('GET', '/api/admin/images?search=%25_%5C')).json()).toEqual([]);

    const edit = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      titolo_img: 'Viva la scuola pubblica',
      id_categoria: cat,
      tags: ['scuola', 'Istruzione'],
    });
    expect(edit.statusCode).toBe(200);
    const detail = (await call('GET', `/api/images/${image.id_image}`)).json();
    expect(detail).toMatchObject({
      titolo_img: 'Viva la scuola pubblica',
      category: { id_categoria: cat },
    });
    expect(detail.tags.map((tag: { nome: string }) => tag.nome)).toEqual(['Istruzione', 'scuola']);
    expect((await call('GET', `/api/categories/${cat}`)).json().count).toBe(1);
    // Past the largest id a row can have too (PostgreSQL's own error was a 500).
    for (const id_categoria of [9999, 2_147_483_648]) {
      const refused = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, { id_categoria });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: 'La categoria scelta non esiste.' });
    }
    expect((await call('GET', `/api/images/${image.id_image}`)).json().category.id_categoria).toBe(
      cat,
    );

    expect((await asAdmin('DELETE', `/api/admin/images/${image.id_image}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/images/${image.id_image}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/categories/${cat}`)).json().count).toBe(0);
    expect((await asAdmin('DELETE', `/api/admin/images/${image.id_image}`)).statusCode).toBe(404);
  });

  it('finds accented capitals by their small letters, with or without the accent, on both engines, and cleans edited titles', async () => {
    const image = await publishedImage(t.app, user, { title: 'PERCHÉ NO' });
    // Typed without the accent, as the pending list's search and the public search allow.
    for (const search of ['perché', 'PERCHÉ', 'Perché', 'perche', 'PERCHE']) {
      const found = (await asAdmin('GET', `/api/admin/images?search=${encodeURI(search)}`)).json();
      expect(
        found.map((i: { id_image: number }) => i.id_image),
        search,
      ).toContain(image.id_image);
    }
    // A direction override and a bell are dropped, as from an upload's title.
    const edit = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      titolo_img: `a\u0007b\u202ec  ${'d'.repeat(192)}😀`,
    });
    expect(edit.statusCode).toBe(200);
    const detail = (await call('GET', `/api/images/${image.id_image}`)).json();
    expect(detail.titolo_img).toBe(`abc ${'d'.repeat(192)}😀`);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'finds accented capitals on a PostgreSQL database under the C locale, whose lower() folds ASCII only',
    async (context) => {
      const database = await throwawayPostgres(
        process.env['TEST_DATABASE_URL'] ?? '',
        'mp_test_c',
        { locale: 'C' },
      );
      let c: TestApp | undefined;
      try {
        // The test means something only where lower() leaves 'É' alone, as the C locale does;
        // a server built without ICU keeps that lower() (the migration's fallback), skipped.
        const client = new pg.Client({ connectionString: database.config.url });
        await client.connect();
        let icu = false;
        try {
          const { rows } = await client.query<{ folded: string; icu: boolean }>(
            `SELECT lower('É') AS folded,
               EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') AS icu`,
          );
          expect(rows[0]?.folded).toBe('É');
          icu = rows[0]?.icu === true;
        } finally {
          await client.end();
        }
        if (!icu) {
          context.skip('this PostgreSQL server has no ICU');
          return;
        }
        c = await buildTestApp({ database: database.config });
        const uploader = await createUser(c.app);
        const image = await publishedImage(c.app, uploader, { title: 'PERCHÉ NO À ÇA' });
        const { access_token } = (
          await login(c.app, TEST_ADMIN.username, TEST_ADMIN.password)
        ).json<{ access_token: string }>();
        for (const search of ['perché', 'à ça', 'PERCHÉ', 'perche', 'a ca']) {
          const found = await c.app.inject({
            method: 'GET',
            url: `/api/admin/images?search=${encodeURI(search)}`,
            headers: bearer(access_token),
          });
          expect(found.statusCode).toBe(200);
          expect(
            found.json<{ id_image: number }[]>().map((i) => i.id_image),
            search,
          ).toEqual([image.id_image]);
        }
      } finally {
        await c?.close();
        await database.drop();
      }
    },
  );

  it('keeps the counts exact when deletions, decisions and edits of one image overlap', async () => {
    const cat = await createCategory(t.app, 'messaggi_di_corsa');
    const other = await createCategory(t.app, 'messaggi_altrove');
    const countOf = async (id: number) => (await call('GET', `/api/categories/${id}`)).json().count;
    const tagCount = async () =>
      (await call('GET', '/api/tags')).json().find((tag: { nome: string }) => tag.nome === 'corsa')
        ?.image_count ?? 0;
    // One image stays counted throughout.
    await publishedImage(t.app, user, { categoryId: cat, tags: ['corsa'] });
    const approved = await publishedImage(t.app, user, { categoryId: cat, tags: ['corsa'] });
    // A double click on 'Elimina': one deletion, one 404, and the image counted out once.
    const deletions = await Promise.all(
      [1, 2].map(() => asAdmin('DELETE', `/api/admin/images/${approved.id_image}`)),
    );
    expect(deletions.map((response) => response.statusCode).sort()).toEqual([200, 404]);
    expect(await countOf(cat)).toBe(1);
    expect(await tagCount()).toBe(1);

    // Approved while being deleted: whichever goes first, nothing stays counted.
    const pending = await uploadImage(t.app, user, { categoryId: cat, tags: ['corsa'] });
    await Promise.all([
      asAdmin('DELETE', `/api/admin/images/${pending.id_image}`),
      asAdmin('PUT', `/api/admin/approve-image/${pending.filename}`),
    ]);
    expect(await countOf(cat)).toBe(1);
    expect(await tagCount()).toBe(1);

    // Moved to another category while being approved: counted where it ends up.
    const moving = await uploadImage(t.app, user, { categoryId: cat });
    await Promise.all([
      asAdmin('PUT', `/api/admin/images/${moving.id_image}`, { id_categoria: other }),
      asAdmin('PUT', `/api/admin/approve-image/${moving.filename}`),
    ]);
    expect([await countOf(cat), await countOf(other)]).toEqual([1, 1]);
  });

  it('answers two edits trading categories and tags at the same moment, both counted', async () => {
    const left = await createCategory(t.app, 'messaggi_a_sinistra');
    const right = await createCategory(t.app, 'messaggi_a_destra');
    const countOf = async (id: number) => (await call('GET', `/api/categories/${id}`)).json().count;
    const a = await publishedImage(t.app, user, { categoryId: left, tags: ['scambio1'] });
    const b = await publishedImage(t.app, user, { categoryId: right, tags: ['scambio2'] });
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      // Each takes what the other gives up: on PostgreSQL each held a row the other wanted.
      const [from, to] = round % 2 === 0 ? [left, right] : [right, left];
      const [fromTag, toTag] =
        round % 2 === 0 ? ['scambio1', 'scambio2'] : ['scambio2', 'scambio1'];
      const answers = await Promise.all([
        asAdmin('PUT', `/api/admin/images/${a.id_image}`, { id_categoria: to, tags: [toTag] }),
        asAdmin('PUT', `/api/admin/images/${b.id_image}`, { id_categoria: from, tags: [fromTag] }),
      ]);
      statuses.push(...answers.map((answer) => answer.statusCode));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect([await countOf(left), await countOf(right)]).toEqual([1, 1]);
  });

  it('answers two approvals making the same new tags, named in opposite orders', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const names = Array.from({ length: 6 }, (_, index) => `coppia${round}n${index}`);
      const first = await uploadImage(t.app, user);
      const second = await uploadImage(t.app, user);
      const answers = await Promise.all([
        asAdmin('PUT', `/api/admin/approve-image/${first.filename}`, { tags: names }),
        asAdmin('PUT', `/api/admin/approve-image/${second.filename}`, {
          tags: [...names].reverse(),
        }),
      ]);
      statuses.push(...answers.map((answer) => answer.statusCode));
      const tags = (await call('GET', '/api/tags')).json<
        Array<{ nome: string; image_count: number }>
      >();
      expect(tags.filter((tag) => names.includes(tag.nome)).map((tag) => tag.image_count)).toEqual(
        names.map(() => 2),
      );
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  describe('a category deleted while an image moves into it', () => {
    // The other side is held open in another process for longer than the request takes.
    const HOLD_MS = 400;
    const categoryOf = async (id: number) =>
      (
        await t.app.ctx.database.db
          .selectFrom('images')
          .select('id_categoria')
          .where('id_image', '=', id)
          .executeTakeFirstOrThrow()
      ).id_categoria;

    it('deletes the category and moves the image to 1 when the move came first', async () => {
      const doomed = await createCategory(t.app, 'messaggi_in_trasloco');
      const image = await publishedImage(t.app, user);
      const move = await holdWrite(
        t.config.database,
        [['UPDATE images SET id_categoria = ? WHERE id_image = ?', [doomed, image.id_image]]],
        HOLD_MS,
      );
      const removed = await asAdmin('DELETE', `/api/admin/categories/${doomed}`);
      await move.committed;
      expect(removed.statusCode).toBe(200);
      expect(await categoryOf(image.id_image)).toBe(1);
    });

    it('refuses the move with a 400 when the deletion came first', async () => {
      const doomed = await createCategory(t.app, 'messaggi_svaniti');
      const image = await publishedImage(t.app, user);
      const before = await categoryOf(image.id_image);
      const deletion = await holdDeletion(t.config.database, 'categories', doomed, HOLD_MS);
      const edit = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
        id_categoria: doomed,
      });
      await deletion.committed;
      expect(edit.statusCode).toBe(400);
      expect(edit.json()).toEqual({ detail: 'La categoria scelta non esiste.' });
      expect(await categoryOf(image.id_image)).toBe(before);
    });
  });

  it("moves an approval's count along when its category is deleted at the same moment", async () => {
    const doomed = await createCategory(t.app, 'messaggi_in_chiusura');
    const pending = await uploadImage(t.app, user, { categoryId: doomed });
    // The approval's transaction is open while the deletion reads the category.
    const [approved, removed] = await Promise.all([
      asAdmin('PUT', `/api/admin/approve-image/${pending.filename}`),
      new Promise((resolve) => setTimeout(resolve, 2)).then(() =>
        asAdmin('DELETE', `/api/admin/categories/${doomed}`),
      ),
    ]);
    expect([removed.statusCode, approved.statusCode]).toEqual([200, 200]);
    const db = t.app.ctx.database.db;
    const counted = await db
      .selectFrom('categories')
      .select('image_count')
      .where('id_categoria', '=', 1)
      .executeTakeFirstOrThrow();
    const approvedThere = await db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_categoria', '=', 1)
      .where('status', '=', 'approved')
      .executeTakeFirstOrThrow();
    expect(counted.image_count).toBe(approvedThere.n);
  });

  it('creates, renames and deletes categories with the rules of D6', async () => {
    const created = await asAdmin('POST', '/api/admin/categories', { nome: 'messaggi_viaggio' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id_categoria;
    expect(
      (await asAdmin('POST', '/api/admin/categories', { nome: 'MESSAGGI_VIAGGIO' })).json(),
    ).toEqual({
      detail: 'Esiste già una categoria con questo nome.',
    });
    expect((await asAdmin('POST', '/api/admin/categories', { nome: '   ' })).json()).toEqual({
      detail: 'Il nome non può essere vuoto.',
    });
    const image = await publishedImage(t.app, user, { categoryId: id });
    expect(
      (await asAdmin('PUT', `/api/admin/categories/${id}`, { nome: 'messaggi_viaggi' })).json(),
    ).toMatchObject({
      nome: 'messaggi_viaggi',
      image_count: 1,
    });
    // Named by its role, not by a name an administrator may have changed.
    const protectedOne = await asAdmin('DELETE', '/api/admin/categories/1');
    expect(protectedOne.statusCode).toBe(400);
    expect(protectedOne.json()).toEqual({
      detail: 'La categoria che accoglie le immagini senza categoria non può essere eliminata.',
    });
    expect((await call('GET', '/api/categories/1')).statusCode).toBe(200);
    const before = (await call('GET', '/api/categories/1')).json().count;
    expect((await asAdmin('DELETE', `/api/admin/categories/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/images/${image.id_image}`)).json().category.id_categoria).toBe(
      1,
    );
    expect((await call('GET', '/api/categories/1')).json().count).toBe(before + 1);
    expect((await asAdmin('DELETE', `/api/admin/categories/${id}`)).statusCode).toBe(404);
  });

  it('creates, filters, renames and deletes tags, links included', async () => {
    const created = await asAdmin('POST', '/api/admin/tags', { nome: 'Spray' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id_tag;
    expect((await asAdmin('POST', '/api/admin/tags', { nome: 'spray' })).statusCode).toBe(400);
    const image = await publishedImage(t.app, user, { tags: ['spray'] });
    expect((await asAdmin('GET', '/api/admin/tags?search=SPR')).json()).toEqual([
      { id_tag: id, nome: 'Spray', image_count: 1, created_at: expect.any(String), revision: 0 },
    ]);
    expect(
      (await asAdmin('PUT', `/api/admin/tags/${id}`, { nome: 'Bomboletta' })).json().nome,
    ).toBe('Bomboletta');
    expect((await asAdmin('DELETE', `/api/admin/tags/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/images/${image.id_image}`)).json().tags).toEqual([]);
  });

  // SQLite's write transactions run one at a time from their start, so there a deletion always
  // sees a link committed before it; on PostgreSQL the link's writer may still be open.
  it.runIf(TEST_ENGINE === 'postgres')(
    'forgets in search a tag deleted while another writer gives it to an image',
    async () => {
      const tag = (await asAdmin('POST', '/api/admin/tags', { nome: 'Girasole' })).json().id_tag;
      const image = await publishedImage(t.app, user, { title: 'parete gialla' });
      const url = `/api/admin/images/${image.id_image}`;
      // The document an edit giving the image the tag writes, taken from a real one.
      expect((await asAdmin('PUT', url, { tags: ['Girasole'] })).statusCode).toBe(200);
      const [{ document } = { document: '' }] = (
        await sql<{ document: string }>`
          SELECT document::text AS document FROM image_search WHERE id_image = ${image.id_image}
        `.execute(t.app.ctx.database.db)
      ).rows;
      expect(document).toContain('girasol');
      expect((await asAdmin('PUT', url, { tags: [] })).statusCode).toBe(200);
      const found = async () => {
        t.app.publicCache.clear();
        const answer = (await call('GET', '/api/search?query=girasole')).json();
        return answer.images.map((shown: { id_image: number }) => shown.id_image);
      };
      expect(await found()).toEqual([]);

      // That edit, in another server's transaction still open while the tag is deleted.
      const edit = await holdWrite(
        t.config.database,
        [
          ['INSERT INTO image_tags (id_image, id_tag) VALUES (?, ?)', [image.id_image, tag]],
          [
            'UPDATE image_search SET document = CAST(? AS tsvector) WHERE id_image = ?',
            [document, image.id_image],
          ],
        ],
        400,
      );
      const removed = await asAdmin('DELETE', `/api/admin/tags/${tag}`);
      await edit.committed;
      expect(removed.statusCode).toBe(200);
      expect((await call('GET', `/api/images/${image.id_image}`)).json().tags).toEqual([]);
      expect(await found()).toEqual([]);
    },
  );

  it('refuses a name past its kind’s limit, created or renamed, and keeps nothing of it', async () => {
    const kept = await asAdmin('POST', '/api/admin/tags', { nome: 't'.repeat(50) });
    expect(kept.json().nome).toBe('t'.repeat(50));
    const tagId = kept.json().id_tag;
    // 51 characters: before, taken and cut to 50 in silence (the categories' limit of 60 was
    // checked), and a name of 51–60 the same as a tag's first 50 refused as a duplicate.
    for (const [method, url] of [
      ['POST', '/api/admin/tags'],
      ['PUT', `/api/admin/tags/${tagId}`],
    ] as const) {
      const refused = await asAdmin(method, url, { nome: 'u'.repeat(51) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        detail: 'Il nome può contenere al massimo 50 caratteri.',
      });
    }
    const category = await asAdmin('POST', '/api/admin/categories', { nome: 'c'.repeat(60) });
    expect(category.statusCode).toBe(201);
    const categoryId = category.json().id_categoria;
    const tooLong = await asAdmin('PUT', `/api/admin/categories/${categoryId}`, {
      nome: 'd'.repeat(61),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ detail: 'Il nome può contenere al massimo 60 caratteri.' });

    const tags = (await asAdmin('GET', '/api/admin/tags')).json<Array<{ nome: string }>>();
    expect(tags.map((tag) => tag.nome).filter((nome) => /^[tu]+$/.test(nome))).toEqual([
      't'.repeat(50),
    ]);
    const categories = (await asAdmin('GET', '/api/admin/categories')).json<
      Array<{ id_categoria: number; nome: string }>
    >();
    expect(categories.find((row) => row.id_categoria === categoryId)?.nome).toBe('c'.repeat(60));
  });

  it('counts a name’s limit on the name it stores: a tag’s leading # and the spaces around are free', async () => {
    // Before, the schema counted the raw text: '#' and 50 letters was refused as 51.
    const tag = await asAdmin('POST', '/api/admin/tags', { nome: ` #${'h'.repeat(50)} ` });
    expect(tag.statusCode).toBe(201);
    expect(tag.json().nome).toBe('h'.repeat(50));
    const renamed = await asAdmin('PUT', `/api/admin/tags/${tag.json().id_tag}`, {
      nome: `# ${'k'.repeat(50)}`,
    });
    expect(renamed.json().nome).toBe('k'.repeat(50));
    const category = await asAdmin('POST', '/api/admin/categories', {
      nome: `   ${'m'.repeat(60)}   `,
    });
    expect(category.statusCode).toBe(201);
    expect(category.json().nome).toBe('m'.repeat(60));
    // Past the edge's bound the answer is the same sentence, and nothing is kept.
    for (const nome of [`#${'n'.repeat(51)}`, 'n'.repeat(201)]) {
      const refused = await asAdmin('POST', '/api/admin/tags', { nome });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: 'Il nome può contenere al massimo 50 caratteri.' });
    }
    const names = (await asAdmin('GET', '/api/admin/tags?search=nnn')).json<unknown[]>();
    expect(names).toEqual([]);
  });

  it('refuses a category shown under another one’s name, and keeps a rename to its own', async () => {
    const first = await asAdmin('POST', '/api/admin/categories', {
      nome: 'messaggi_città_vecchia',
    });
    expect(first.statusCode).toBe(201);
    // Shown as 'Città Vecchia' both: before, two entries nobody could tell apart.
    for (const nome of ['Città vecchia', 'MESSAGGIO_città__vecchia']) {
      const refused = await asAdmin('POST', '/api/admin/categories', { nome });
      expect(refused.statusCode, nome).toBe(400);
      expect(refused.json()).toEqual({ detail: 'Esiste già una categoria con questo nome.' });
    }
    const other = await asAdmin('POST', '/api/admin/categories', { nome: 'messaggi_porto' });
    const taken = await asAdmin('PUT', `/api/admin/categories/${other.json().id_categoria}`, {
      nome: 'città vecchia',
    });
    expect(taken.statusCode).toBe(400);
    const own = await asAdmin('PUT', `/api/admin/categories/${first.json().id_categoria}`, {
      nome: 'Città vecchia',
    });
    expect(own.json().nome).toBe('Città vecchia');
    const names = (await asAdmin('GET', '/api/admin/categories?search=vecchia')).json<
      Array<{ nome: string }>
    >();
    expect(names.map((row) => row.nome)).toEqual(['Città vecchia']);
  });

  it('makes one of two categories shown alike when both are asked for at once', async () => {
    // Different stored keys, one name on screen: only the shown-name check can refuse the
    // second, and before it was read before the write, so both passed it at the same instant.
    const answers = await Promise.all(
      ['messaggi_molo_nuovo', 'Molo nuovo', 'MESSAGGIO_molo__nuovo'].map((nome) =>
        asAdmin('POST', '/api/admin/categories', { nome }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400, 400]);
    const other = await asAdmin('POST', '/api/admin/categories', { nome: 'messaggi_darsena' });
    const renames = await Promise.all(
      [other.json().id_categoria, answers.find((a) => a.statusCode === 201)!.json().id_categoria]
        .map((id: number, index) => [id, index === 0 ? 'Faro alto' : 'messaggi_faro_alto'] as const)
        .map(([id, nome]) => asAdmin('PUT', `/api/admin/categories/${id}`, { nome })),
    );
    expect(renames.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const names = (await asAdmin('GET', '/api/admin/categories')).json<Array<{ nome: string }>>();
    expect(names.filter((row) => /faro/iu.test(row.nome))).toHaveLength(1);
    expect(names.filter((row) => /molo|darsena/iu.test(row.nome))).toHaveLength(1);
  });

  it('takes an image’s tags of 50 letters after a #, and refuses one longer, changing nothing', async () => {
    const image = await publishedImage(t.app, user, { tags: ['muro'] });
    const url = `/api/admin/images/${image.id_image}`;
    const tagsOf = async () =>
      (await call('GET', `/api/images/${image.id_image}`))
        .json<{ tags: Array<{ nome: string }> }>()
        .tags.map((tag) => tag.nome);
    expect((await asAdmin('PUT', url, { tags: [`#${'p'.repeat(50)}`] })).statusCode).toBe(200);
    expect(await tagsOf()).toEqual(['p'.repeat(50)]);
    for (const name of [`#${'q'.repeat(51)}`, 'q'.repeat(201)]) {
      const refused = await asAdmin('PUT', url, { titolo_img: 'Nuovo', tags: ['muro', name] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: 'Ogni tag può contenere al massimo 50 caratteri.' });
    }
    expect(await tagsOf()).toEqual(['p'.repeat(50)]);
    expect((await call('GET', `/api/images/${image.id_image}`)).json().titolo_img).not.toBe(
      'Nuovo',
    );
  });

  it('refuses more than ten tags for an image, changing nothing', async () => {
    const image = await publishedImage(t.app, user, { tags: ['muro'] });
    const url = `/api/admin/images/${image.id_image}`;
    const eleven = Array.from({ length: 11 }, (_, index) => `tag${String(index)}`);
    const refused = await asAdmin('PUT', url, { tags: eleven });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: 'Puoi assegnare al massimo 10 tag.' });
    const tags = (await call('GET', `/api/images/${image.id_image}`)).json<{
      tags: Array<{ nome: string }>;
    }>().tags;
    expect(tags.map((tag) => tag.nome)).toEqual(['muro']);
    expect((await asAdmin('PUT', url, { tags: eleven.slice(0, 10) })).statusCode).toBe(200);
  });
});

describe('GET /api/admin/stats', () => {
  it('answers totals, the top lists and 30 days of activity', async () => {
    const stats = (await asAdmin('GET', '/api/admin/stats')).json();
    expect(stats.total_stats).toEqual({
      users: expect.any(Number),
      images: expect.any(Number),
      pending_images: expect.any(Number),
      categories: expect.any(Number),
      tags: expect.any(Number),
      interactions: expect.any(Number),
    });
    expect(stats.daily).toHaveLength(30);
    // Italy's day (SPEC: the back-office's dates are Europe/Rome's), which may be UTC's next.
    expect(stats.daily.at(-1).date).toBe(
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date()),
    );
    expect(
      stats.daily.reduce((sum: number, day: { uploads: number }) => sum + day.uploads, 0),
    ).toBeGreaterThan(0);
    expect(stats.most_active_users[0]).toEqual({
      id_utente: expect.any(Number),
      username: expect.any(String),
      image_score: expect.any(Number),
      interaction_score: expect.any(Number),
      total_score: expect.any(Number),
    });
  });
});

describe('GET /api/admin/stats, the days', () => {
  it("counts what happened at 23:30 UTC on Italy's next day", async () => {
    const image = await publishedImage(t.app, user);
    // 23:30 UTC yesterday: 00:30 (or in summer 01:30) today in Italy.
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const lateEvening = new Date(midnight.getTime() - 30 * 60 * 1000);
    const today = midnight.toISOString().slice(0, 10);
    const yesterday = lateEvening.toISOString().slice(0, 10);
    const counts = async () => {
      const { daily } = (await asAdmin('GET', '/api/admin/stats')).json<{
        daily: Array<{ date: string; interactions: number }>;
      }>();
      const of = (date: string) => daily.find((day) => day.date === date)?.interactions;
      return { today: of(today), yesterday: of(yesterday) };
    };
    const before = await counts();
    await t.app.ctx.database.db
      .insertInto('interactions')
      .values({
        id_utente: user.id,
        id_image: image.id_image,
        id_tipo_interazione: 2,
        viewer_key: null,
        created_at: lateEvening.toISOString(),
      })
      .execute();
    const after = await counts();
    expect(after.today).toBe((before.today ?? 0) + 1);
    expect(after.yesterday).toBe(before.yesterday);
  });
});

describe('moderation hints', () => {
  it('flags a pending copy of an approved image and suggests its category and tags', async () => {
    const cat = await createCategory(t.app, 'messaggi_calcio');
    const original = await publishedImage(t.app, user, { categoryId: cat, tags: ['juve'] });
    const copy = await uploadImage(t.app, user);
    const db = t.app.ctx.database.db;
    for (const id of [original.id_image, copy.id_image]) {
      await db
        .updateTable('images')
        .set({
          extracted_text: 'FINO ALLA FINE FORZA JUVE',
          text_folded: 'fino alla fine forza juve',
        })
        .where('id_image', '=', id)
        .execute();
      await t.app.ctx.duplicates.indexImage(id);
    }
    const answer = await asAdmin('GET', `/api/admin/pending-images/${copy.id_image}/hints`);
    expect(answer.statusCode).toBe(200);
    const hints = answer.json();
    expect(hints.possible_duplicates.map((d: { id_image: number }) => d.id_image)).toEqual([
      original.id_image,
    ]);
    expect(hints.suggested_category).toEqual({ id_categoria: cat, nome: 'messaggi_calcio' });
    expect(hints.suggested_tags.map((tag: { nome: string }) => tag.nome)).toContain('juve');
    // The list itself carries no hints: the detail dialog asks for one image's.
    const pending = (await asAdmin('GET', '/api/admin/pending-images')).json();
    const entry = pending.images.find(
      (image: { id_image: number }) => image.id_image === copy.id_image,
    );
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('hints');
  });

  it('answers an unknown image with 404 and an id that is not one with 400', async () => {
    const unknown = await asAdmin('GET', '/api/admin/pending-images/999999/hints');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Immagine non trovata' });
    for (const [id, detail] of [
      ['abc', 'Il campo "id" non è valido.'],
      ['1.5', 'Il campo "id" non è valido.'],
      ['0', 'Il campo "id" è troppo piccolo.'],
      ['-3', 'Il campo "id" è troppo piccolo.'],
    ]) {
      const bad = await asAdmin('GET', `/api/admin/pending-images/${id}/hints`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ detail });
    }
  });
});
