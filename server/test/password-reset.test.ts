import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIL_JOB } from '../src/jobs/mail/mail.job.js';
import { RESET_LINK_MINUTES, RESET_RESEND_MS } from '../src/modules/auth/password-reset.service.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';

/*
 * A forgotten password (modules/auth/password-reset.service.ts): the request answers alike for
 * every address and mails a link only to an account's; the link sets a new password once,
 * within its hour, while the account is as it was; using it ends every session.
 */

const REQUESTED = {
  detail:
    'Se l’indirizzo è quello di un account, riceverai a breve un’e-mail con il link per scegliere una nuova password.',
};
const INVALID = {
  detail: 'Il link per scegliere una nuova password non è valido o è scaduto: chiedine uno nuovo.',
};
const SUBJECT = 'Scegli una nuova password · Muri Parlanti';

let t: TestApp;
/** The test's clock: moved forward by the tests that need time to pass. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

beforeAll(async () => {
  t = await buildTestApp({ publicUrl: 'https://muri.example.it' }, { clock });
});
afterAll(() => t.close());
beforeEach(() => {
  clock.offsetMs = 0;
});

const ask = (email: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
const confirm = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload });
const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });

interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  id_utente?: number;
}

/** The reset e-mails queued so far, oldest first. */
async function resetMails(): Promise<QueuedMail[]> {
  const rows = await t.app.ctx.database.db
    .selectFrom('jobs')
    .select('payload')
    .where('name', '=', MAIL_JOB)
    .orderBy('id_job')
    .execute();
  return rows
    .map((row) => JSON.parse(row.payload) as QueuedMail)
    .filter((mail) => mail.subject === SUBJECT);
}

async function mailsTo(address: string): Promise<QueuedMail[]> {
  return (await resetMails()).filter((mail) => mail.to === address);
}

/** The secret of the newest link mailed to `address`. */
async function secretMailedTo(address: string): Promise<string> {
  const mail = (await mailsTo(address)).at(-1);
  const match = /https:\/\/muri\.example\.it\/reset-password#([\w-]+)/.exec(mail?.text ?? '');
  if (match?.[1] === undefined) throw new Error(`no reset link mailed to ${address}`);
  return match[1];
}

async function passwordHashOf(id: number): Promise<string> {
  const row = await t.app.ctx.database.db
    .selectFrom('users')
    .select('password_hash')
    .where('id_utente', '=', id)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

async function adminToken(): Promise<string> {
  return (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
    access_token: string;
  }>().access_token;
}

describe('POST /api/auth/password-reset', () => {
  it('answers alike for an account’s address and for any other, and mails only the account', async () => {
    const user = await createUser(t.app);
    const known = await ask(user.email);
    const unknown = await ask('nessuno@example.it');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(REQUESTED);
    expect(unknown.json()).toEqual(REQUESTED);

    expect(await mailsTo('nessuno@example.it')).toEqual([]);
    const [mail] = await mailsTo(user.email);
    expect(mail).toMatchObject({ to: user.email, subject: SUBJECT, id_utente: user.id });
    expect(mail?.text).toContain(`Ciao ${user.username},`);
    expect(mail?.text).toContain(`Il link vale per ${String(RESET_LINK_MINUTES)} minuti`);
    // The secret rides in the fragment, which browsers never send to the server.
    expect(mail?.html).toMatch(/href="https:\/\/muri\.example\.it\/reset-password#[\w-]{43}"/);
  });

  it('finds the account whatever the address’s letter case', async () => {
    const user = await createUser(t.app);
    expect((await ask(user.email.toUpperCase())).statusCode).toBe(202);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('keeps no secret in the database: only its hash', async () => {
    const user = await createUser(t.app);
    await ask(user.email);
    const secret = await secretMailedTo(user.email);
    const stored = await t.app.ctx.database.db
      .selectFrom('password_resets')
      .selectAll()
      .where('id_utente', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('sends one e-mail for a burst of requests, and a new link once a minute has passed', async () => {
    const user = await createUser(t.app);
    await Promise.all([ask(user.email), ask(user.email), ask(user.email)]);
    expect(await mailsTo(user.email)).toHaveLength(1);
    const first = await secretMailedTo(user.email);

    clock.offsetMs = RESET_RESEND_MS + 1000;
    await ask(user.email);
    expect(await mailsTo(user.email)).toHaveLength(2);
    const second = await secretMailedTo(user.email);
    // The newer link replaces the older one.
    expect((await confirm({ token: first, password: 'nuova-password-1' })).json()).toEqual(INVALID);
    expect((await confirm({ token: second, password: 'nuova-password-1' })).statusCode).toBe(200);
  });

  it('mails nothing to a deactivated account', async () => {
    const user = await createUser(t.app);
    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${String(user.id)}`,
      headers: bearer(await adminToken()),
      payload: { username: user.username, email: user.email, password: '', is_active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await ask(user.email)).json()).toEqual(REQUESTED);
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it('refuses a body without a valid address, in Italian, and mails nothing', async () => {
    const before = (await resetMails()).length;
    for (const email of ['', 'non-un-indirizzo', 42, ['a@example.it']]) {
      const response = await ask(email);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toMatch(/email|Email/);
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect((await resetMails()).length).toBe(before);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  let user: TestUser;
  let secret: string;

  beforeEach(async () => {
    user = await createUser(t.app);
    await ask(user.email);
    secret = await secretMailedTo(user.email);
  });

  it('sets the new password once and ends every session', async () => {
    const done = await confirm({ token: secret, password: 'la-mia-nuova-password' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      detail: 'Password aggiornata: ora puoi accedere con la nuova password.',
    });
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(401);
    expect((await login(t.app, user.username, 'la-mia-nuova-password')).statusCode).toBe(200);
    // The session opened before the reset (perhaps by whoever knew the old password) ends.
    expect((await me(user.token)).statusCode).toBe(401);

    const again = await confirm({ token: secret, password: 'ancora-un-altra' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
    expect((await login(t.app, user.username, 'la-mia-nuova-password')).statusCode).toBe(200);
  });

  it('lets two uses of one link at once set the password once', async () => {
    const answers = await Promise.all([
      confirm({ token: secret, password: 'prima-password' }),
      confirm({ token: secret, password: 'seconda-password' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0].statusCode === 200 ? 'prima-password' : 'seconda-password';
    expect((await login(t.app, user.username, winner)).statusCode).toBe(200);
  });

  it('refuses a link past its hour, and changes nothing', async () => {
    const hash = await passwordHashOf(user.id);
    clock.offsetMs = RESET_LINK_MINUTES * 60_000 + 1000;
    const late = await confirm({ token: secret, password: 'troppo-tardi' });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(INVALID);
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('refuses a link after the password was changed from the profile', async () => {
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: bearer(user.token),
      payload: { password: 'cambiata-dal-profilo', current_password: user.password },
    });
    expect(changed.statusCode).toBe(200);
    expect((await confirm({ token: secret, password: 'dal-link-vecchio' })).json()).toEqual(
      INVALID,
    );
    expect((await login(t.app, user.username, 'cambiata-dal-profilo')).statusCode).toBe(200);
  });

  it('refuses a link mailed to an address the account no longer has', async () => {
    const moved = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: bearer(user.token),
      payload: { email: `nuovo-${user.email}`, current_password: user.password },
    });
    expect(moved.statusCode).toBe(200);
    const hash = await passwordHashOf(user.id);
    expect((await confirm({ token: secret, password: 'dal-vecchio-indirizzo' })).json()).toEqual(
      INVALID,
    );
    expect(await passwordHashOf(user.id)).toBe(hash);
  });

  it('refuses a link of an account deactivated since', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${String(user.id)}`,
      headers: bearer(await adminToken()),
      payload: { username: user.username, email: user.email, password: '', is_active: false },
    });
    const hash = await passwordHashOf(user.id);
    expect((await confirm({ token: secret, password: 'account-disattivato' })).json()).toEqual(
      INVALID,
    );
    expect(await passwordHashOf(user.id)).toBe(hash);
  });

  it('refuses a wrong, empty or overlong secret with the same sentence', async () => {
    const hash = await passwordHashOf(user.id);
    for (const token of [`${secret.slice(0, -1)}A`, 'x', '', 'a'.repeat(201)]) {
      const response = await confirm({ token, password: 'password-valida' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID);
    }
    expect(await passwordHashOf(user.id)).toBe(hash);
    // The real link still works after the wrong guesses.
    expect((await confirm({ token: secret, password: 'password-valida' })).statusCode).toBe(200);
  });

  it('refuses a password shorter than the rule and keeps the link', async () => {
    const short = await confirm({ token: secret, password: 'corta' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ detail: 'La password deve essere di almeno 8 caratteri' });
    // Four emoji are eight UTF-16 units but four characters: still too short.
    const emoji = await confirm({ token: secret, password: '😀😀😀😀' });
    expect(emoji.statusCode).toBe(400);
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);
    expect((await confirm({ token: secret, password: 'abbastanza-lunga' })).statusCode).toBe(200);
  });

  it('refuses a body of the wrong shape', async () => {
    for (const payload of [
      { token: secret },
      { password: 'password-valida' },
      { token: [secret], password: 'password-valida' },
    ]) {
      expect((await confirm(payload)).statusCode).toBe(400);
    }
    expect((await login(t.app, user.username, user.password)).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ rateLimits: true });
  });
  afterAll(() => limited.close());

  it('holds one address to five requests a quarter of an hour, in Italian', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: `qualcuno${String(i)}@example.it` },
        remoteAddress: '203.0.113.7',
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toEqual({
          detail: 'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.',
        });
      }
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
