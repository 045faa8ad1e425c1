import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, TEST_JWT_SECRET, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { holdWrite } from './helpers/held-write.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload });

const me = (token?: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers: token ? bearer(token) : {} });

const countUsers = async () =>
  Number(
    (
      await t.app.ctx.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const valid = {
  username: 'mario.rossi',
  email: 'mario@example.it',
  password: 'una-password-lunga',
  age_confirmed: true,
};

describe('POST /api/auth/register', () => {
  it('creates an account and opens a session', async () => {
    const response = await register(valid);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.token_type).toBe('bearer');
    expect(typeof body.access_token).toBe('string');
    expect(body.user).toEqual({
      id_utente: expect.any(Number),
      username: 'mario.rossi',
      email: 'mario@example.it',
      is_active: true,
      is_superuser: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(response.body).not.toMatch(/password|argon2/);

    const session = await me(body.access_token);
    expect(session.statusCode).toBe(200);
    expect(session.json().username).toBe('mario.rossi');
  });

  it('refuses a username or e-mail already in use, whatever the case', async () => {
    const before = await countUsers();
    for (const payload of [
      { ...valid, email: 'altro@example.it' },
      { ...valid, username: 'MARIO.ROSSI', email: 'altro@example.it' },
      { ...valid, username: 'altro', email: 'Mario@Example.it' },
    ]) {
      const response = await register(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Username o email già in uso' });
    }
    expect(await countUsers()).toBe(before);
    // The original account is untouched.
    expect((await login(t.app, valid.username, valid.password)).statusCode).toBe(200);
  });

  it('folds look-alike forms and refuses names mixing confusable alphabets', async () => {
    const before = await countUsers();
    // Fullwidth letters fold into the name they imitate, which is taken.
    const fullwidth = await register({
      ...valid,
      username: 'ｍａｒｉｏ.ｒｏｓｓｉ',
      email: 'f@example.it',
    });
    expect(fullwidth.statusCode).toBe(400);
    expect(fullwidth.json()).toEqual({ detail: 'Username o email già in uso' });
    // 'а' and 'о' below are Cyrillic: 'mаriо.rossi' would pass for 'mario.rossi'.
    for (const username of ['m\u0430ri\u043e.rossi', 'adm\u0456n', '\u03b1dmin']) {
      const response = await register({ ...valid, username, email: 'c@example.it' });
      expect(response.statusCode, username).toBe(400);
      expect(response.json()).toEqual({
        detail:
          'Lo username non può mescolare alfabeti diversi (per esempio lettere latine e cirilliche).',
      });
    }
    expect(await countUsers()).toBe(before);
    // One alphabet at a time is welcome, accents included.
    for (const [username, email] of [
      ['Дмитрий', 'd@example.it'],
      ['Ελένη_1', 'e@example.it'],
      ['Niccolò.Bàrberi', 'n@example.it'],
    ]) {
      expect((await register({ ...valid, username, email })).statusCode, username).toBe(201);
    }
    // Logging in with the fullwidth form finds the account it folds into.
    expect((await login(t.app, 'ｍａｒｉｏ.ｒｏｓｓｉ', valid.password)).statusCode).toBe(200);
  });

  it('stores an accent typed as a combining mark as the accented letter', async () => {
    // 'Nicco' + U+0300 + 'la': the form some systems send for 'Niccòla'.
    const response = await register({
      ...valid,
      username: 'Nicco\u0300la',
      email: 'nf@example.it',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.username).toBe('Nicc\u00f2la');
    expect((await login(t.app, 'NICCÒLA', valid.password)).statusCode).toBe(200);
    expect((await login(t.app, 'nicco\u0300la', valid.password)).statusCode).toBe(200);
  });

  it('welcomes names whose letters carry their own vowel signs', async () => {
    for (const [username, email] of [
      ['\u0905\u0928\u093f\u0932', 'hi@example.it'], // Anil, in Devanagari
      ['\u0e27\u0e34\u0e0a\u0e31\u0e22', 'th@example.it'], // Wichai, in Thai: two vowel marks
    ]) {
      const response = await register({ ...valid, username, email });
      expect(response.statusCode, username).toBe(201);
      expect(response.json().user.username).toBe(username);
    }
  });

  it('counts a name’s length in characters, after folding, with the length’s own message', async () => {
    // Twenty Adlam letters (outside the BMP: forty UTF-16 units), within the 30 characters.
    const adlam = Array.from({ length: 20 }, (_, i) => String.fromCodePoint(0x1e922 + i)).join('');
    const welcomed = await register({ ...valid, username: adlam, email: 'adlam@example.it' });
    expect(welcomed.statusCode).toBe(201);
    expect(welcomed.json().user.username).toBe(adlam);
    expect((await login(t.app, adlam, valid.password)).statusCode).toBe(200);

    // Sixteen 'ﬃ' ligatures pass the schema's 30 and fold into 48 letters: too long, and said so.
    const before = await countUsers();
    const long = await register({ ...valid, username: 'ﬃ'.repeat(16), email: 'ffi@example.it' });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      detail: 'Lo username può contenere al massimo 30 caratteri.',
    });
    expect(await countUsers()).toBe(before);
  });

  it('refuses marks that stack, hide or strike through a letter', async () => {
    const before = await countUsers();
    for (const username of [
      'admin\u034f', // combining grapheme joiner: invisible
      'admin\ufe0f', // variation selector: invisible
      'a\u0338dmin', // a stroke over the 'a'
      'a\u0301\u0301bc', // two acute accents on one letter
      '\u0301abc', // a mark on no letter
      '\u0905\u093e\u093e\u093e\u093e', // four vowel signs on one letter
      'admin\u17b4', // a Khmer vowel that is never drawn
      'admin\u093e', // a Devanagari vowel sign on a Latin letter
      '\u1160abc', // a Hangul filler: an invisible letter
    ]) {
      const response = await register({ ...valid, username, email: 'm@example.it' });
      expect(response.statusCode, username).toBe(400);
      expect(response.json()).toEqual({
        detail: 'Lo username può contenere solo lettere, numeri, punti, trattini e trattini bassi.',
      });
    }
    expect(await countUsers()).toBe(before);
  });

  it('holds names equal under full case folding for one name', async () => {
    expect((await register({ ...valid, username: 'Σας', email: 'gr@example.it' })).statusCode).toBe(
      201,
    );
    expect(
      (await register({ ...valid, username: 'strasse', email: 'de@example.it' })).statusCode,
    ).toBe(201);
    const before = await countUsers();
    // A final sigma is a sigma; 'ß' is 'ss'; the dotless 'ı' is an 'i'.
    for (const [username, email] of [
      ['σασ', 'gr2@example.it'],
      ['Straße', 'de2@example.it'],
      ['mar\u0131o.rossi', 'tr@example.it'],
      ['altro', 'MARIO@EXAMPLE.IT'],
    ]) {
      const response = await register({ ...valid, username, email });
      expect(response.statusCode, username).toBe(400);
      expect(response.json()).toEqual({ detail: 'Username o email già in uso' });
    }
    expect(await countUsers()).toBe(before);
    expect((await login(t.app, 'ΣΑΣ', valid.password)).statusCode).toBe(200);
    expect((await login(t.app, 'STRAßE', valid.password)).statusCode).toBe(200);
  });

  it.each([
    ['a short password', { password: 'corta' }, 'La password deve essere di almeno 8 caratteri'],
    ['no username', { username: undefined }, 'Il campo "Username" è obbligatorio.'],
    ['no e-mail', { email: undefined }, 'Il campo "Email" è obbligatorio.'],
    ['no password', { password: undefined }, 'Il campo "Password" è obbligatorio.'],
    ['an invalid e-mail', { email: 'non-una-email' }, 'Inserisci un indirizzo email valido.'],
    [
      'no age confirmation',
      { age_confirmed: undefined },
      'Devi dichiarare di avere almeno 16 anni per registrarti.',
    ],
    [
      'an age confirmation of false',
      { age_confirmed: false },
      'Devi dichiarare di avere almeno 16 anni per registrarti.',
    ],
    [
      'spaces in the username',
      { username: 'mario rossi' },
      'Lo username può contenere solo lettere, numeri, punti, trattini e trattini bassi.',
    ],
    ['a one-letter username', { username: 'm' }, 'Lo username deve contenere almeno 3 caratteri.'],
    [
      'a huge username',
      { username: 'x'.repeat(10_000) },
      'Lo username può contenere al massimo 30 caratteri.',
    ],
    [
      'a huge password',
      { password: 'x'.repeat(10_000) },
      'La password può contenere al massimo 256 caratteri.',
    ],
    [
      'a username of the wrong type',
      { username: { $ne: null } },
      'Il campo "Username" non è valido.',
    ],
  ])('refuses %s with a clear Italian message and creates nothing', async (_, change, detail) => {
    const before = await countUsers();
    const response = await register({
      ...valid,
      username: 'nuovo.utente',
      email: 'nuovo@example.it',
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
    expect(await countUsers()).toBe(before);
  });

  it('never lets a client make itself administrator or choose its active flag', async () => {
    const response = await register({
      username: 'furbetto',
      email: 'furbetto@example.it',
      password: 'password-lunga',
      age_confirmed: true,
      is_superuser: true,
      is_active: false,
      token_version: 99,
      id_utente: 1,
    });
    expect(response.statusCode).toBe(201);
    const { user, access_token } = response.json();
    expect(user.is_superuser).toBe(false);
    expect(user.is_active).toBe(true);
    expect(user.id_utente).not.toBe(1);
    expect((await me(access_token)).json().is_superuser).toBe(false);
  });

  it('creates exactly one account when the same name is registered concurrently', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        register({ ...valid, username: 'gara', email: `gara${i}@example.it` }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400]);
  });

  it('answers malformed JSON with 400 and a non-JSON body with 415', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "rotto",',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ detail: 'Il corpo della richiesta non è un JSON valido.' });

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'text/plain' },
      payload: 'ciao',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ detail: 'Tipo di contenuto non supportato.' });
  });
});

describe('POST /api/auth/login', () => {
  it('opens a session by username, case-insensitively', async () => {
    const user = await createUser(t.app, { username: 'Giulia_B' });
    const response = await login(t.app, 'giulia_b', user.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.username).toBe('Giulia_B');
    expect((await me(response.json().access_token)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const user = await createUser(t.app);
    const wrong = await login(t.app, user.username, 'password-sbagliata');
    const unknown = await login(t.app, 'nessuno-cosi', 'password-sbagliata');
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Username o password non validi' });
    }
  });

  it.each([
    ['no username', { password: 'x' }, 'Il campo "Username" è obbligatorio.'],
    ['no password', { username: 'x' }, 'Il campo "Password" è obbligatorio.'],
    ['an empty username', { username: '', password: 'x' }, 'Inserisci lo username.'],
    ['an empty password', { username: 'x', password: '' }, 'Inserisci la password.'],
  ])('refuses %s with 400', async (_, payload, detail) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
  });

  it('tells a deactivated user, and only after the right password', async () => {
    const user = await createUser(t.app);
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id_utente', '=', user.id)
      .execute();
    const right = await login(t.app, user.username, user.password);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ detail: 'Account disattivato' });
    expect((await login(t.app, user.username, 'sbagliata!')).statusCode).toBe(401);
    // Its existing token dies at once.
    expect((await me(user.token)).statusCode).toBe(401);
  });

  it('refuses the token of an account waiting for erasure', async () => {
    const user = await createUser(t.app);
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ deletion_requested_at: new Date().toISOString() })
      .where('id_utente', '=', user.id)
      .execute();
    expect((await me(user.token)).statusCode).toBe(401);
  });
});

describe('sessions read together', () => {
  it('gives each of many simultaneous requests its own account, as it is now', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t.app)));
    const blocked = users[0]!;
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id_utente', '=', blocked.id)
      .execute();
    // Reversed, repeated and interleaved, so a batch holds several ids in another order
    // than the database returns them.
    const askers = [...users, ...[...users].reverse(), ...users];
    const answers = await Promise.all(askers.map((user) => me(user.token)));
    askers.forEach((user, index) => {
      const answer = answers[index]!;
      if (user === blocked) {
        expect(answer.statusCode).toBe(401);
      } else {
        expect(answer.statusCode).toBe(200);
        expect(answer.json().username).toBe(user.username);
      }
    });
  });
});

describe('tokens', () => {
  const sign = (
    options: { algorithm: 'none' | 'HS256' | 'HS384' | 'HS512'; key?: string },
    payload: Record<string, unknown>,
  ): string => createSigner({ ...options, key: options.key ?? '' })(payload);

  it('refuses requests without a token or with a malformed header', async () => {
    const none = await me();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Devi effettuare l’accesso per continuare.' });
    for (const authorization of ['Bearer', 'Basic YWRtaW46YWRtaW4=', 'Bearer a b', 'token']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses forged, foreign-algorithm, expiry-less and expired tokens', async () => {
    const user = await createUser(t.app);
    const sub = String(user.id);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const forged = [
      ['garbage', 'non.un.token'],
      ['alg none', sign({ algorithm: 'none' }, { sub, exp })],
      ['HS512', sign({ key: TEST_JWT_SECRET, algorithm: 'HS512' }, { sub, exp })],
      ['HS384', sign({ key: TEST_JWT_SECRET, algorithm: 'HS384' }, { sub, exp })],
      ['another secret', sign({ key: 'x'.repeat(40), algorithm: 'HS256' }, { sub, exp })],
      ['no exp', sign({ key: TEST_JWT_SECRET, algorithm: 'HS256' }, { sub })],
      ['no sub', sign({ key: TEST_JWT_SECRET, algorithm: 'HS256' }, { exp })],
      [
        'expired',
        sign(
          { key: TEST_JWT_SECRET, algorithm: 'HS256' },
          { sub, exp: Math.floor(Date.now() / 1000) - 60 },
        ),
      ],
      ['unknown user', sign({ key: TEST_JWT_SECRET, algorithm: 'HS256' }, { sub: '999999', exp })],
      [
        'non-numeric sub',
        sign({ key: TEST_JWT_SECRET, algorithm: 'HS256' }, { sub: 'admin', exp }),
      ],
    ];
    for (const [name, token] of forged) {
      const response = await me(token);
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual({
        detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
      });
    }
    // The genuine token still works, and its payload says sub and exp (D3).
    expect((await me(user.token)).statusCode).toBe(200);
    const payload = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString());
    expect(payload.sub).toBe(sub);
    expect(payload.exp - payload.iat).toBe(7 * 24 * 3600);
    expect(JSON.parse(Buffer.from(user.token.split('.')[0]!, 'base64url').toString()).alg).toBe(
      'HS256',
    );
  });
});

describe('GET and PUT /api/users/me', () => {
  const put = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/users/me/', headers: bearer(token), payload });

  it('answers the user itself, with e-mail and without password', async () => {
    const user = await createUser(t.app);
    const response = await me(user.token);
    expect(response.json()).toEqual({
      id_utente: user.id,
      username: user.username,
      email: user.email,
      is_active: true,
      is_superuser: false,
      created_at: expect.any(String),
    });
  });

  it('changes the username without the password, and refuses a taken one', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const renamed = await put(user.token, { username: `${user.username}x` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().username).toBe(`${user.username}x`);
    expect(renamed.json().access_token).toBeUndefined();

    const taken = await put(user.token, { username: other.username.toUpperCase() });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ detail: 'Username o email già in uso' });
    expect((await me(user.token)).json().username).toBe(`${user.username}x`);
  });

  it('asks for the current password to change the e-mail', async () => {
    const user = await createUser(t.app);
    const missing = await put(user.token, { email: 'nuova@example.it' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      detail: 'Per cambiare email o password inserisci la password attuale.',
    });
    const wrong = await put(user.token, { email: 'nuova@example.it', current_password: 'no' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'La password attuale non è corretta.' });
    expect((await me(user.token)).json().email).toBe(user.email);

    const right = await put(user.token, {
      email: 'nuova@example.it',
      current_password: user.password,
    });
    expect(right.statusCode).toBe(200);
    expect(right.json().email).toBe('nuova@example.it');
  });

  it('keeps the password when it is empty and ends old sessions when it changes', async () => {
    const user = await createUser(t.app);
    const unchanged = await put(user.token, { password: '', username: user.username });
    expect(unchanged.statusCode).toBe(200);
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);

    const short = await put(user.token, { password: 'corta', current_password: user.password });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ detail: 'La password deve essere di almeno 8 caratteri' });

    // Eight UTF-16 units but four characters: short, as registration and the schemas count.
    const emoji = await put(user.token, { password: '😀😀😀😀', current_password: user.password });
    expect(emoji.statusCode).toBe(400);
    expect(emoji.json()).toEqual({ detail: 'La password deve essere di almeno 8 caratteri' });
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await login(t.app, user.username, '😀😀😀😀')).statusCode).toBe(401);

    const long = await put(user.token, {
      password: 'x'.repeat(257),
      current_password: user.password,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ detail: 'La password può contenere al massimo 256 caratteri.' });
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);

    const changed = await put(user.token, {
      password: 'nuova-password-lunga',
      current_password: user.password,
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().access_token as string;
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(401);
    expect((await login(t.app, user.username, 'nuova-password-lunga')).statusCode).toBe(200);
  });

  it('lets a password set meanwhile by an administrator win over the session’s own change', async () => {
    const user = await createUser(t.app);
    // The administrator's reset (a new password, every session ended) commits while the
    // user's own change, made with the session it ends, is on its way.
    const reset = await holdWrite(
      t.config.database,
      [
        [
          "UPDATE users SET password_hash = 'reimpostata', token_version = token_version + 1 WHERE id_utente = ?",
          [user.id],
        ],
      ],
      1000,
    );
    const own = await put(user.token, {
      password: 'nuova-password-lunga',
      current_password: user.password,
    });
    await reset.committed;
    expect(own.statusCode).toBe(401);
    expect(own.json()).toEqual({
      detail: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
    });
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await login(t.app, user.username, 'nuova-password-lunga')).statusCode).toBe(401);
  });

  it('writes only what the user changed, not over an edit made meanwhile', async () => {
    const user = await createUser(t.app);
    const rename = await holdWrite(
      t.config.database,
      [
        [
          'UPDATE users SET username = ?, username_key = ? WHERE id_utente = ?',
          [`${user.username}nuovo`, `${user.username}nuovo`.toLowerCase(), user.id],
        ],
      ],
      1000,
    );
    const own = await put(user.token, {
      email: `altra-${user.email}`,
      current_password: user.password,
    });
    await rename.committed;
    expect(own.statusCode).toBe(200);
    expect((await me(user.token)).json()).toMatchObject({
      username: `${user.username}nuovo`,
      email: `altra-${user.email}`,
    });
  });

  it('ignores attempts to set the administrator or active flags', async () => {
    const user = await createUser(t.app);
    const response = await put(user.token, {
      is_superuser: true,
      is_active: false,
      username: user.username,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().is_superuser).toBe(false);
    expect((await me(user.token)).json()).toMatchObject({ is_superuser: false, is_active: true });
  });

  it('refuses anonymous edits', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      payload: { username: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('administrator bootstrap', () => {
  it('creates the configured administrator', async () => {
    const response = await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ is_superuser: true, email: TEST_ADMIN.email });
  });
});
