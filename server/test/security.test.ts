import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser } from './helpers/factories.js';
import { jpegBytes, postUpload, uploadImage } from './helpers/images.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: true, maxPendingUploads: 20 });
});
afterAll(() => t.close());

/** A login with a wrong password, from `remoteAddress` when given (light-my-request's default else). */
const login = (username: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'sbagliata' },
    headers,
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and the other protective headers', async () => {
    for (const url of ['/api/categories', '/', '/image/1']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('sends every one of helmet’s headers on answers of every kind, errors included', async () => {
    const user = await createUser(t.app);
    const image = await uploadImage(t.app, user);
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/images' }),
      t.app.inject({ method: 'GET', url: '/api/images/999999' }),
      t.app.inject({ method: 'POST', url: '/api/images/1/interactions', payload: {} }),
      t.app.inject({ method: 'GET', url: `/api/images/${String(image.id_image)}/thumbnail` }),
      t.app.inject({ method: 'GET', url: '/nessuna-pagina', headers: { accept: 'text/html' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 400, 404, 200]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'x-content-type-options': 'nosniff',
      });
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('caching of a user’s answers', () => {
  it('keeps an answer to a request with a token out of every cache, and leaves the rest alone', async () => {
    const user = await createUser(t.app);
    const image = await uploadImage(t.app, user);
    const authorization = `Bearer ${user.token}`;
    for (const url of ['/api/users/me', '/api/images', '/api/search?query=muro', '/api/nessuna']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { authorization } });
      expect(answer.headers['cache-control'], url).toBe('private, no-store');
    }
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: 'Bearer non-valido' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    // Anonymous answers, and a route's own policy (the uploader's file under review), unchanged.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/images' });
    expect(anonymous.headers['cache-control']).toBeUndefined();
    const thumbnail = await t.app.inject({
      method: 'GET',
      url: `/api/images/${String(image.id_image)}/thumbnail`,
      headers: { authorization },
    });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['cache-control']).toBe('private, max-age=3600');
  });
});

describe('rate limits', () => {
  it('slows down password guessing with an Italian 429, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      // A forged forwarding header must not give the client a fresh address each time.
      const response = await login('vittima', { 'x-forwarded-for': `198.51.100.${i}` });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toEqual({
          detail: 'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.',
        });
        expect(response.headers['retry-after']).toBeDefined();
      }
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('keeps one limit per address whatever Authorization header a login carries', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      // A header the login never checks must not open a fresh limit each time.
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'vittima', password: 'sbagliata' },
        headers: { authorization: `Bearer inventato${String(i)}` },
        remoteAddress: '203.0.113.77',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('counts IPv6 logins by their /64, which one client can fill with addresses', async () => {
    const attempt = (remoteAddress: string) => login('vittima6', {}, remoteAddress);
    const statuses: number[] = [];
    // Eleven addresses of one /64, as a client picks them; the last also written in full.
    for (let i = 1; i <= 10; i += 1) {
      statuses.push((await attempt(`2001:db8:77:1::${i.toString(16)}`)).statusCode);
    }
    statuses.push((await attempt('2001:0db8:0077:0001:abcd:0000:0000:0001')).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await attempt('2001:db8:77:1::ffff')).json()).toEqual({
      detail: 'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.',
    });
    // The next /64 is someone else's.
    expect((await attempt('2001:db8:77:2::1')).statusCode).toBe(401);
  });

  it('holds each IPv6 /48 to 100 logins a minute, however many /64s it spreads them over', async () => {
    const statuses: number[] = [];
    // One login from each of 101 /64s of 2001:db8:48::/48: no /64 reaches its own limit.
    for (let i = 0; i <= 100; i += 1) {
      const response = await login('vittima48', {}, `2001:db8:48:${i.toString(16)}::1`);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toEqual({
          detail: 'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.',
        });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 100).every((status) => status === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
    // The next /48 is someone else's; IPv4 addresses of one /24 are not counted together.
    expect((await login('vittima48', {}, '2001:db8:49::1')).statusCode).toBe(401);
    for (let i = 1; i <= 101; i += 1) {
      expect((await login('vittima24', {}, `100.64.7.${String(i)}`)).statusCode).toBe(401);
    }
  });

  it("does not let one /64 spend the rest of its /48's logins with refused ones", async () => {
    // One client keeps trying: 10 logins pass its /64's limit, 20 more are refused there.
    for (let i = 0; i < 30; i += 1) {
      const status = (await login('vittima49', {}, '2001:db8:4a:1::1')).statusCode;
      expect(status).toBe(i < 10 ? 401 : 429);
    }
    // Its neighbours still have the other 90 of the /48's 100.
    for (let i = 2; i < 92; i += 1) {
      expect((await login('vittima49', {}, `2001:db8:4a:${i.toString(16)}::1`)).statusCode).toBe(
        401,
      );
    }
    expect((await login('vittima49', {}, '2001:db8:4a:ffff::1')).statusCode).toBe(429);
  });

  it('counts an IPv4 address written as IPv6 as that IPv4 address', async () => {
    const attempt = (remoteAddress: string) => login('vittima4', {}, remoteAddress);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await attempt('192.0.2.66')).statusCode);
    statuses.push((await attempt('::ffff:192.0.2.66')).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await attempt('192.0.2.67')).statusCode).toBe(401);
  });

  it('slows down guessing the current password with a stolen session, across its tokens', async () => {
    const user = await createUser(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: user.password },
      remoteAddress: '203.0.113.78',
    });
    const tokens = [user.token, second.json<{ access_token: string }>().access_token];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/me',
        payload: { email: 'nuova@example.it', current_password: `tentativo${String(i)}` },
        // Half the guesses on each token, each from an address of its own.
        headers: { authorization: `Bearer ${tokens[i % 2] ?? ''}` },
        remoteAddress: `198.51.100.${String(i)}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Deleting the own account asks for the password too, and is held to the same pace.
    const deletions: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        payload: { password: `tentativo${String(i)}` },
        headers: { authorization: `Bearer ${tokens[i % 2] ?? ''}` },
      });
      deletions.push(response.statusCode);
    }
    expect(deletions.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(deletions[10]).toBe(429);
    // Nothing changed: the e-mail is the one registered, the account still works.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(me.json()).toMatchObject({ email: user.email });
  });

  it('limits registrations from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          username: `massa${i}`,
          email: `massa${i}@example.it`,
          password: 'password-lunga',
          age_confirmed: true,
        },
        remoteAddress: '203.0.113.50',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('the NUL character and lone surrogates', () => {
  it('is refused with a clear 400 in a body, a query or a path, nothing stored', async () => {
    const user = await createUser(t.app);
    const answers = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'ab\u0000c', password: 'qualsiasi1' },
        remoteAddress: '203.0.113.90',
      }),
      t.app.inject({
        method: 'PUT',
        url: '/api/users/me',
        payload: { username: 'nome\u0000nuovo' },
        headers: { authorization: `Bearer ${user.token}` },
      }),
      t.app.inject({ method: 'GET', url: '/api/images?search=muro%00' }),
      t.app.inject({ method: 'GET', url: '/api/tags/%00' }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ detail: 'La richiesta contiene un carattere non ammesso.' });
    }
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(me.json()).toMatchObject({ username: user.username });
  });

  it('goes with half of a surrogate pair, which each engine stored its own way; an emoji is whole', async () => {
    const login = (username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'qualsiasi1' },
        remoteAddress: '203.0.113.91',
      });
    for (const lone of ['\ud800x', 'x\udfff', '\ude00\ud83d']) {
      const answer = await login(lone);
      expect(answer.statusCode, JSON.stringify(lone)).toBe(400);
      expect(answer.json()).toEqual({ detail: 'La richiesta contiene un carattere non ammesso.' });
    }
    // A whole pair is one character: the login goes on, and fails only on the account.
    expect((await login('muro\ud83d\ude00')).statusCode).toBe(401);
  });

  it('is refused in an upload form’s fields and tags, nothing stored', async () => {
    const user = await createUser(t.app);
    for (const field of [
      { name: 'description', value: 'muro\u0000rosso' },
      { name: 'tags', value: JSON.stringify(['ro\u0000ma']) },
    ]) {
      const response = await postUpload(t.app, user.token, [
        { name: 'file', value: await jpegBytes(), filename: 'x.jpg', contentType: 'image/jpeg' },
        field,
      ]);
      expect(response.statusCode, field.name).toBe(400);
      expect(response.json()).toEqual({
        detail: 'La richiesta contiene un carattere non ammesso.',
      });
    }
    const stored = await t.app.ctx.database.db
      .selectFrom('images')
      .select('id_image')
      .where('id_utente', '=', user.id)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('uploads', () => {
  const db = () => t.app.ctx.database.db;
  const photo = async () => ({
    name: 'file',
    value: await jpegBytes(),
    filename: 'x.jpg',
    contentType: 'image/jpeg',
  });
  const pendingOf = async (user: { id: number }) =>
    (await db().selectFrom('images').select('id_image').where('id_utente', '=', user.id).execute())
      .length;

  /** A user with `count` images waiting, filled quickly by copying one row: the cap counts rows. */
  async function userWaitingFor(count: number, remoteAddress: string) {
    const user = await createUser(t.app, { remoteAddress });
    const first = await uploadImage(t.app, user);
    const row = await db()
      .selectFrom('images')
      .selectAll()
      .where('id_image', '=', first.id_image)
      .executeTakeFirstOrThrow();
    const { id_image: _omitted, ...rest } = row;
    for (let i = 1; i < count; i += 1) {
      const stem = `${remoteAddress.replace(/\D/g, '').padEnd(18, 'c')}${String(i).padStart(4, '0')}`;
      await db()
        .insertInto('images')
        .values({ ...rest, filename: `${stem}.webp` })
        .execute();
    }
    return user;
  }

  it('caps the images one user may have waiting for review', async () => {
    const user = await userWaitingFor(20, '203.0.113.121');
    const response = await postUpload(t.app, user.token, [await photo()]);
    expect(response.statusCode).toBe(429);
    expect(response.json().detail).toMatch(/in attesa di approvazione/);
    expect(await pendingOf(user)).toBe(20);
  });

  it('keeps the cap when several uploads arrive together', async () => {
    const user = await userWaitingFor(18, '203.0.113.120');
    // Each passes the first check (18 waiting) while the others' photos are processed.
    const file = await photo();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => postUpload(t.app, user.token, [file])),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      201, 201, 429, 429, 429,
    ]);
    expect(await pendingOf(user)).toBe(20);
  });
});
