import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { uploadImage } from './helpers/images.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, {});
  // A route that fails the way a bug would, to see what a client and the log get.
  t.app.get('/api/test/explode', () => {
    throw new Error('SELECT password_hash FROM users -- secret detail');
  });
  // Failures of the machine, shaped as the drivers and Node report them (issue 7).
  const faults: Record<string, () => Error> = {
    refused: () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    dropped: () => new Error('Connection terminated unexpectedly'),
    shutdown: () =>
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
    busy: () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    enospc: () =>
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    constraint: () =>
      Object.assign(new Error('duplicate key value violates unique constraint'), {
        code: '23505',
      }),
  };
  t.app.get<{ Params: { kind: string } }>('/api/test/fault/:kind', (request) => {
    throw (faults[request.params.kind] ?? faults['constraint'])!();
  });
});
afterAll(() => t.close());

describe('error contract (D2)', () => {
  it('answers an unexpected error with a generic 500, logged with its stack and request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/explode' });
    expect(response.statusCode).toBe(500);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json()).toEqual({
      detail: `Si è verificato un errore interno. Riprova più tardi. (Codice richiesta: ${String(requestId)})`,
    });
    expect(response.body).not.toContain('password_hash');
    expect(response.body).not.toContain('at ');

    const logged = t.logs.find((line) => line['reqId'] === requestId && line['level'] === 50);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret detail');
    expect((logged?.['err'] as { stack?: string }).stack).toContain('http.test.ts');
  });

  it('answers a database that cannot be reached with a 503 and a full disk with a 507', async () => {
    for (const kind of ['refused', 'dropped', 'shutdown', 'busy']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/test/fault/${kind}` });
      expect(response.statusCode, kind).toBe(503);
      expect(response.headers['retry-after'], kind).toBe('5');
      expect(response.json(), kind).toEqual({
        detail: 'Servizio temporaneamente non disponibile. Riprova tra poco.',
      });
    }
    const full = await t.app.inject({ method: 'GET', url: '/api/test/fault/enospc' });
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({ detail: 'Spazio su disco esaurito: riprova più tardi.' });
    // A query's own failure is a bug, not an outage: still the generic 500.
    const bug = await t.app.inject({ method: 'GET', url: '/api/test/fault/constraint' });
    expect(bug.statusCode).toBe(500);
  });

  it('answers an unknown API path with a JSON 404, never the web app', async () => {
    for (const [method, url] of [
      ['GET', '/api/nulla'],
      ['GET', '/api'],
      ['POST', '/api/users/me'],
      ['DELETE', '/api/auth/login'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ detail: 'Risorsa non trovata.' });
    }
  });

  it('accepts API paths with or without a trailing slash', async () => {
    for (const url of ['/api/users/me', '/api/users/me/']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('refuses an oversized JSON body with 413 in Italian', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'x', password: 'y'.repeat(300 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'La richiesta è troppo grande.' });
  });

  it('refuses a missing JSON body and a JSON body of the wrong shape with 400', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ detail: 'Il campo "Username" è obbligatorio.' });
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '  ',
    });
    expect(blank.json()).toEqual({ detail: 'Il corpo della richiesta non è un JSON valido.' });

    const array = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    expect(array.json()).toEqual({ detail: 'Il corpo della richiesta non è valido.' });
  });

  it('refuses a compressed body with 415, whatever it holds', async () => {
    const gzipped = gzipSync(JSON.stringify({ username: 'admin', password: 'x' }));
    for (const [encoding, payload] of [
      ['gzip', gzipped],
      ['br', Buffer.from('{"username":"admin","password":"x"}')],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        payload,
      });
      expect(response.statusCode, encoding).toBe(415);
      expect(response.json()).toEqual({
        detail: 'La richiesta non può essere compressa: invia il contenuto così com’è.',
      });
    }
    // 'identity' is no encoding at all.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: { username: 'nessuno', password: 'password-qualsiasi' },
    });
    expect(plain.statusCode).toBe(401);
  });

  it('does not let a prototype-pollution body reach anything', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"a","password":"b","__proto__":{"is_superuser":true}}',
    });
    expect(response.statusCode).toBe(400);
    expect(({} as Record<string, unknown>)['is_superuser']).toBeUndefined();
  });

  it('never takes a request id from the client', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { 'request-id': 'forged', 'x-request-id': 'forged' },
    });
    expect(response.headers['x-request-id']).not.toBe('forged');
  });

  it('logs requests without client addresses or credentials', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: 'Bearer segreto', 'x-forwarded-for': '203.0.113.9' },
      remoteAddress: '198.51.100.7',
    });
    const text = JSON.stringify(t.logs);
    expect(text).not.toContain('198.51.100.7');
    expect(text).not.toContain('203.0.113.9');
    expect(text).not.toContain('segreto');
  });
});

describe('request logs at the level operators run (info)', () => {
  let logged: TestApp;
  beforeAll(async () => {
    logged = await buildTestApp({ logLevel: 'info' });
  });
  afterAll(async () => {
    await logged.close();
  });

  it('name no client address, credential or file signature', async () => {
    await logged.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: 'Bearer segreto', 'x-forwarded-for': '203.0.113.9' },
      remoteAddress: '198.51.100.7',
    });
    // A signed URL opens a file under review to whoever holds it, for an hour or more: its
    // signature was written into every request line, for anyone who reads the logs.
    const user = await createUser(logged.app);
    await uploadImage(logged.app, user);
    const own = await logged.app.inject({
      method: 'GET',
      url: '/api/users/me/images',
      headers: bearer(user.token),
    });
    const urls = own.json<{ images: Array<Record<string, string>> }>().images[0];
    const signatures: string[] = [];
    for (const url of [urls?.['display_url'], urls?.['thumbnail_url']]) {
      const signature = /[?&]sig=([^&]+)/.exec(url ?? '')?.[1];
      expect(signature, url).toBeDefined();
      signatures.push(signature ?? '');
      const file = await logged.app.inject({ method: 'GET', url: url ?? '' });
      expect(file.statusCode).toBe(200);
    }
    const requests = logged.logs.filter((line) => line['req'] !== undefined);
    expect(requests.length).toBeGreaterThan(3);
    const text = JSON.stringify(logged.logs);
    expect(text).not.toContain('198.51.100.7');
    expect(text).not.toContain('203.0.113.9');
    expect(text).not.toContain('segreto');
    for (const signature of signatures) expect(text).not.toContain(signature);
    // The rest of the address stays, so a request can still be told apart.
    expect(text).toContain('sig=[redacted]');
  });
});

describe('numbers in an address', () => {
  it('are decimal digits: what JavaScript would read as a number anyway is refused', async () => {
    const cases: Array<[string, string]> = [
      // Infinity passed the bounds and reached the database (a 500 from either engine).
      ['/api/images/1e309', 'id'],
      ['/api/images/1e3', 'id'],
      ['/api/images/0x10', 'id'],
      ['/api/images/%20%201', 'id'],
      ['/api/images/1.0', 'id'],
      ['/api/categories/1e309/images', 'id'],
      ['/api/images?skip=1e309', 'skip'],
      ['/api/images?limit=1e309', 'limit'],
      ['/api/images?limit=%20', 'limit'],
      ['/api/search?query=muro&skip=0x1', 'skip'],
    ];
    for (const [url, field] of cases) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ detail: `Il campo "${field}" non è valido.` });
    }
    // Digits still go to the validation's own bounds and messages.
    const negative = await t.app.inject({ method: 'GET', url: '/api/images/-3' });
    expect(negative.json()).toEqual({ detail: 'Il campo "id" è troppo piccolo.' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/images?skip=0&limit=2' })).statusCode,
    ).toBe(200);
  });

  it('answers an address too long for the router in Italian, without echoing it', async () => {
    const long = '1'.repeat(250);
    const response = await t.app.inject({ method: 'GET', url: `/api/images/${long}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ detail: 'L’indirizzo richiesto è troppo lungo.' });
    expect(response.body).not.toContain(long);
  });
});

describe("requests Node's parser refuses", () => {
  it('are answered in Italian: headers too large are a 431', async () => {
    // A server of its own, listening: inject() never goes through Node's parser.
    const own = await buildTestApp();
    const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = new URL(address);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, path: `/api/images?x=${'a'.repeat(20_000)}` },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual({
        detail: 'Le intestazioni della richiesta sono troppo grandi.',
      });
    } finally {
      await own.close();
    }
  });
});

describe('an empty body labelled JSON', () => {
  // Many clients send 'content-type: application/json' on every request, bodiless ones too.
  const JSON_LABEL = { 'content-type': 'application/json' };

  it('counts as no body where a route takes none: a follow, an unfollow and a deletion', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const follower = await createUser(t.app);
    const followed = await createUser(t.app);
    for (const [method, url] of [
      ['POST', `/api/users/${followed.id}/follow`],
      ['DELETE', `/api/users/${followed.id}/unfollow`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { ...JSON_LABEL, ...bearer(follower.token) },
        payload: '',
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const doomed = await createUser(t.app);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${doomed.id}`,
      headers: { ...JSON_LABEL, ...bearer(admin.access_token) },
      payload: '',
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/api/users/${doomed.id}/profile` });
    expect(gone.statusCode).toBe(404);
  });

  it('still has a route that needs a body say what is missing', async () => {
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/categories',
      headers: { 'content-type': 'application/json; charset=utf-8', ...bearer(admin.access_token) },
      payload: '',
    });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toEqual({ detail: 'Il campo "Nome Categoria" è obbligatorio.' });
    // The same sentence as with no body and no label at all.
    const unlabelled = await t.app.inject({
      method: 'POST',
      url: '/api/admin/categories',
      headers: bearer(admin.access_token),
    });
    expect(unlabelled.json()).toEqual(create.json());
  });
});

describe('a JSON body', () => {
  it('is taken as sent: a value of another type is refused, not converted', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      // Once read as "nuovo1", "12345678" and true.
      [
        '/api/auth/register',
        {
          username: ['nuovo1'],
          email: 'nuovo1@example.it',
          password: 'password-sicura',
          age_confirmed: true,
        },
        'Il campo "Username" non è valido.',
      ],
      [
        '/api/auth/register',
        { username: 'nuovo2', email: 'nuovo2@example.it', password: 12345678, age_confirmed: true },
        'Il campo "Password" non è valido.',
      ],
      [
        '/api/auth/register',
        {
          username: 'nuovo3',
          email: 'nuovo3@example.it',
          password: 'password-sicura',
          age_confirmed: 'true',
        },
        'Devi dichiarare di avere almeno 16 anni per registrarti.',
      ],
    ];
    for (const [url, payload, detail] of cases) {
      const response = await t.app.inject({ method: 'POST', url, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toEqual({ detail });
    }
    // None of them made an account.
    for (const username of ['nuovo1', 'nuovo2', 'nuovo3']) {
      expect((await login(t.app, username, 'password-sicura')).statusCode).toBe(401);
    }
    expect((await login(t.app, 'nuovo2', '12345678')).statusCode).toBe(401);

    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json();
    const auth = bearer(admin.access_token);
    const before = (await t.app.inject({ url: '/api/admin/settings', headers: auth })).json();
    for (const payload of [
      { registrations_open: 'false' },
      { upload_max_bytes: '1048576' },
      { moderation_emails: 0 },
    ]) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: auth,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const after = await t.app.inject({ url: '/api/admin/settings', headers: auth });
    expect(after.json()).toEqual(before);

    // The address is text by nature: its numbers are still read as numbers.
    const page = await t.app.inject({ url: '/api/images?skip=0&limit=2' });
    expect(page.statusCode).toBe(200);
  });
});

describe('GET /api/docs', () => {
  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('Muri Parlanti API');
    for (const path of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/users/me',
      '/api/images',
      '/api/images/{id}',
      '/api/images/{id}/interactions',
      '/api/images/export',
      '/api/trending-images',
      '/api/categories',
      '/api/tags/{id}',
      '/api/users/{id}/profile',
    ]) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    expect(JSON.stringify(document.paths['/api/auth/register'])).toContain('age_confirmed');
  });
});
