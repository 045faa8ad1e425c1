import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { makeConfig } from '../src/config.js';
import { buildTestApp, TEST_ADMIN, TEST_JWT_SECRET, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { jpegBytes, postUpload, uploadImage } from './helpers/images.js';

const DEFAULTS = {
  registrations_open: true,
  upload_max_bytes: 5 * 1024 * 1024,
  moderation_emails: true,
};

let t: TestApp;
let user: TestUser;
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t.app);
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
    access_token: string;
  }>().access_token;
});
afterAll(() => t.close());

// Each test starts from the defaults, whatever the previous one changed.
afterEach(async () => {
  const response = await putSettings(DEFAULTS);
  expect(response.statusCode).toBe(200);
});

/** `null`: no token at all. */
function getSettings(token: string | null = adminToken) {
  return t.app.inject({
    method: 'GET',
    url: '/api/admin/settings',
    headers: token === null ? {} : bearer(token),
  });
}

function putSettings(payload: unknown, token: string | null = adminToken) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers: token === null ? {} : bearer(token),
    payload: payload as Record<string, unknown>,
  });
}

async function currentSettings(): Promise<unknown> {
  const response = await getSettings();
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function countRows(table: 'users' | 'images'): Promise<number> {
  const row = await t.app.ctx.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

async function storedFiles(): Promise<string[]> {
  const dir = path.join(t.config.dataDir, 'images');
  const entries = await fs.readdir(dir, { recursive: true }).catch(() => []);
  return entries.map(String).filter((name) => name.endsWith('.webp') || name.endsWith('.tmp'));
}

function register(username: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      username,
      email: `${username}@example.it`,
      password: 'password-sicura',
      age_confirmed: true,
    },
  });
}

describe('who may see and change the settings', () => {
  it('answers 401 to anonymous callers', async () => {
    for (const response of [await getSettings(null), await putSettings({}, null)]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Devi effettuare l’accesso per continuare.' });
    }
  });

  it('answers 403 to a normal user and changes nothing', async () => {
    expect((await getSettings(user.token)).statusCode).toBe(403);
    const response = await putSettings({ registrations_open: false }, user.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      detail: 'Non hai i permessi per accedere a questa pagina.',
    });
    expect(await currentSettings()).toEqual(DEFAULTS);
  });
});

describe('GET and PUT /api/admin/settings', () => {
  it('answers the defaults when nothing was saved', async () => {
    expect(await currentSettings()).toEqual(DEFAULTS);
  });

  it('saves any subset, answers every setting and reads back the same', async () => {
    const first = await putSettings({ registrations_open: false });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...DEFAULTS, registrations_open: false });

    const second = await putSettings({
      upload_max_bytes: 2 * 1024 * 1024,
      moderation_emails: false,
    });
    const expected = {
      registrations_open: false,
      upload_max_bytes: 2 * 1024 * 1024,
      moderation_emails: false,
    };
    expect(second.json()).toEqual(expected);
    expect(await currentSettings()).toEqual(expected);
    // A trailing slash is optional (D1), and an empty body changes nothing.
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/',
      headers: bearer(adminToken),
      payload: {},
    });
    expect(empty.json()).toEqual(expected);
  });

  it.each([
    [
      'a word for a switch',
      { registrations_open: 'forse' },
      'Il campo "Registrazioni aperte" deve essere vero o falso.',
    ],
    [
      'an object for a switch',
      { moderation_emails: { on: true } },
      'Il campo "Email di moderazione" deve essere vero o falso.',
    ],
    [
      'a word for the size',
      { upload_max_bytes: 'tanto' },
      'La dimensione massima dei file deve essere un numero intero di byte.',
    ],
    [
      'a fractional size',
      { upload_max_bytes: 1_000_000.5 },
      'La dimensione massima dei file deve essere un numero intero di byte.',
    ],
    [
      'a size below 100 KB',
      { upload_max_bytes: 100 * 1024 - 1 },
      'La dimensione massima dei file deve essere di almeno 100 KB.',
    ],
    [
      'a size above 5 MB',
      { upload_max_bytes: 5 * 1024 * 1024 + 1 },
      'La dimensione massima dei file non può superare 5 MB.',
    ],
    ['an unknown setting', { iscrizioni: false }, 'Il corpo della richiesta non è valido.'],
    [
      'an unknown setting beside a good one',
      { registrations_open: false, is_superuser: true },
      'Il corpo della richiesta non è valido.',
    ],
    [
      'a list instead of an object',
      [{ registrations_open: false }],
      'Il corpo della richiesta non è valido.',
    ],
  ])('refuses %s with 400 and changes nothing', async (_, payload, detail) => {
    await putSettings({ registrations_open: false });
    const before = await currentSettings();
    const response = await putSettings(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
    expect(await currentSettings()).toEqual(before);
  });

  it('accepts the bounds of the size range', async () => {
    for (const size of [100 * 1024, 5 * 1024 * 1024]) {
      const response = await putSettings({ upload_max_bytes: size });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ upload_max_bytes: size });
    }
  });
});

describe('registrations_open', () => {
  it('closed: registration answers 403 and creates nobody; reopened: 201', async () => {
    await putSettings({ registrations_open: false });
    const before = await countRows('users');
    const refused = await register('chiuso1');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Le registrazioni sono chiuse al momento.' });
    expect(await countRows('users')).toBe(before);
    // Existing accounts still log in.
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);

    await putSettings({ registrations_open: true });
    const accepted = await register('aperto1');
    expect(accepted.statusCode).toBe(201);
    expect(await countRows('users')).toBe(before + 1);
  });

  it('reaches another server sharing the database at once', async () => {
    // A second application on the same database stands for a second process (D10).
    const other: App = await buildApp(
      makeConfig({
        dataDir: t.config.dataDir,
        database: t.config.database,
        jwtSecret: TEST_JWT_SECRET,
        admin: TEST_ADMIN,
        demoContent: false,
        jobsInServer: false,
        logLevel: 'silent',
      }),
    );
    try {
      await putSettings({ registrations_open: false });
      const refused = await other.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          username: 'altroserver',
          email: 'altroserver@example.it',
          password: 'password-sicura',
          age_confirmed: true,
        },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'Le registrazioni sono chiuse al momento.' });
    } finally {
      await other.close();
    }
  });
});

describe('upload_max_bytes', () => {
  const fileOf = async (bytes: number) => {
    const jpeg = await jpegBytes();
    // Trailing bytes after the JPEG's end: still a valid image, of exactly the size wanted.
    return Buffer.concat([jpeg, Buffer.alloc(bytes - jpeg.length)]);
  };
  const post = (value: Buffer) =>
    postUpload(t.app, user.token, [
      { name: 'file', value, filename: 'muro.jpg', contentType: 'image/jpeg' },
      { name: 'title', value: 'Muro' },
    ]);

  it('a lowered limit refuses a larger file at once with 413, storing nothing', async () => {
    const file = await fileOf(2 * 1024 * 1024 + 10_000);
    await putSettings({ upload_max_bytes: 2 * 1024 * 1024 });
    const before = { rows: await countRows('images'), files: await storedFiles() };

    const response = await post(file);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'Il file è troppo grande. La dimensione massima è 2MB.',
    });
    expect(await countRows('images')).toBe(before.rows);
    expect(await storedFiles()).toEqual(before.files);

    // A file within the limit still goes through.
    expect((await post(await fileOf(2 * 1024 * 1024))).statusCode).toBe(201);

    // Raised again: the same file is accepted on the next request.
    await putSettings({ upload_max_bytes: 5 * 1024 * 1024 });
    expect((await post(file)).statusCode).toBe(201);
  });

  it('names sizes that are not whole megabytes', async () => {
    await putSettings({ upload_max_bytes: 200 * 1024 });
    const response = await post(await fileOf(300 * 1024));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'Il file è troppo grande. La dimensione massima è 200KB.',
    });

    await putSettings({ upload_max_bytes: 2.5 * 1024 * 1024 });
    const larger = await post(await fileOf(3 * 1024 * 1024));
    expect(larger.json()).toEqual({
      detail: 'Il file è troppo grande. La dimensione massima è 2,5MB.',
    });
  });

  it('keeps SPEC’s sentence at the default 5 MB', async () => {
    const response = await post(await fileOf(5 * 1024 * 1024 + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'Il file è troppo grande. La dimensione massima è 5MB.',
    });
    // And an ordinary upload works under the defaults.
    await uploadImage(t.app, user);
  });
});

describe('GET /api/images/export/limits', () => {
  const limits = (token: string | null = null) =>
    t.app.inject({
      method: 'GET',
      url: '/api/images/export/limits',
      headers: token === null ? {} : bearer(token),
    });

  it('tells anyone the limit in force, written as the refusal writes it, never kept', async () => {
    const initial = await limits();
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ upload_max_bytes: 5 * 1024 * 1024, upload_max_label: '5MB' });
    expect(initial.headers['cache-control']).toBe('no-cache');

    await putSettings({ upload_max_bytes: 2.5 * 1024 * 1024 });
    // The next page that asks knows at once, logged in or not.
    for (const token of [null, user.token]) {
      const changed = await limits(token);
      expect(changed.json()).toEqual({
        upload_max_bytes: 2.5 * 1024 * 1024,
        upload_max_label: '2,5MB',
      });
      expect(changed.headers['cache-control']).toBe('no-cache');
    }
  });
});

describe('GET /api/auth/registrations', () => {
  it('tells anyone whether accounts may be opened now, never kept', async () => {
    const ask = () => t.app.inject({ method: 'GET', url: '/api/auth/registrations' });
    const open = await ask();
    expect(open.json()).toEqual({ registrations_open: true });
    expect(open.headers['cache-control']).toBe('no-cache');
    await putSettings({ registrations_open: false });
    expect((await ask()).json()).toEqual({ registrations_open: false });
  });
});
