import fs from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import type { UserRow } from '../src/db/tables.js';
import { MAIL_JOB } from '../src/jobs/mail/mail.job.js';
import { recipientsOf } from '../src/modules/mail/mailer.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { uploadImage } from './helpers/images.js';

/*
 * E-mail as it really leaves (D8): a local SMTP server started here receives what the job
 * worker sends; without SMTP the message lands in the outbox; an unreachable server makes the
 * job retry while the decision stands.
 */

const APPROVED_SUBJECT = 'La tua immagine è stata approvata · Muri Parlanti';
const REJECTED_SUBJECT = 'La tua immagine non è stata approvata · Muri Parlanti';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 and a free port that keeps every message it accepts. */
async function startSmtpServer(): Promise<{
  port: number;
  received: Received[];
  /** Run while a message is being taken, before the server answers it. */
  whileReceiving: { run?: () => Promise<void> };
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const whileReceiving: { run?: () => Promise<void> } = {};
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback: no certificate to trust in a test.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        void (whileReceiving.run?.() ?? Promise.resolve()).then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    whileReceiving,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    probe.close(() => {
      resolve();
    });
  });
  return port;
}

// --- A small MIME reader: enough for nodemailer's messages (RFC 2047 words, QP, base64). ---

interface ParsedMail {
  headers: Map<string, string>;
  text: string;
  html: string;
}

function decodeBytes(text: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        text
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return text;
  }
}

function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BQ]\?[^?]*\?=)\s+(?==\?)/gi, '$1')
    .replace(
      /=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi,
      (_, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? decodeBytes(data, 'base64')
          : decodeBytes(data.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        decodeWords(line.slice(colon + 1).trim()),
      );
    }
  }
  return { headers, body };
}

function parseMail(raw: string): ParsedMail {
  const message = splitPart(raw);
  const result: ParsedMail = { headers: message.headers, text: '', html: '' };
  const collect = (part: { headers: Map<string, string>; body: string }): void => {
    const type = part.headers.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.startsWith('multipart/') && boundary !== undefined) {
      const pieces = part.body.split(`--${boundary}`).slice(1, -1);
      for (const piece of pieces) collect(splitPart(piece.replace(/^\r\n/, '')));
      return;
    }
    const decoded = decodeBytes(part.body, part.headers.get('content-transfer-encoding'));
    if (type.startsWith('text/html')) result.html = decoded;
    else if (type.startsWith('text/plain')) result.text = decoded;
  };
  collect(message);
  return result;
}

// --- Shared steps. ---

async function adminRow(app: App): Promise<UserRow> {
  const admin = await app.ctx.users.findByUsername(TEST_ADMIN.username);
  if (admin === undefined) throw new Error('the test administrator is missing');
  return admin;
}

/**
 * Uploads queue their full-size job, which queues the OCR; these tests are about e-mail, so
 * those jobs are pushed a day ahead and runUntilIdle() runs only the mail (both have their own
 * tests).
 */
async function postponeAnalysis(app: App): Promise<void> {
  await app.ctx.database.db
    .updateTable('jobs')
    .set({ run_at: new Date(Date.now() + 86_400_000).toISOString() })
    .where('name', 'in', ['image.full-size', 'image.analyse'])
    .where('status', '=', 'queued')
    .execute();
}

async function mailJobs(app: App) {
  return app.ctx.database.db
    .selectFrom('jobs')
    .selectAll()
    .where('name', '=', MAIL_JOB)
    .orderBy('id_job')
    .execute();
}

/** 'Elimina account' (D9): the account is marked for its erasure. */
async function requestErasure(t: TestApp, user: TestUser): Promise<void> {
  const deletion = await t.app.inject({
    method: 'DELETE',
    url: '/api/users/me',
    headers: bearer(user.token),
    payload: { password: user.password },
  });
  expect(deletion.statusCode).toBe(200);
}

async function uploadPending(t: TestApp, user: TestUser, title: string) {
  const image = await uploadImage(t.app, user, { title });
  await postponeAnalysis(t.app);
  return image;
}

describe('with an SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      mailFrom: 'Muri Parlanti <noreply@muri.example>',
      publicUrl: 'https://muri.example',
    });
    user = await createUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.whileReceiving.run = undefined;
  });

  it('keeps nothing of a message sent while its account’s erasure began (D9)', async () => {
    const leaving = await createUser(t.app);
    const image = await uploadPending(t, leaving, 'Muro in partenza');
    await t.app.ctx.moderation.approve(image.filename, await adminRow(t.app));
    // The erasure begins while the mail server takes the message: it leaves a message being
    // sent to its job (forgetMailOf), which must then forget it itself.
    smtp.whileReceiving.run = async () => {
      await t.app.ctx.database.db
        .updateTable('users')
        .set({ deletion_requested_at: new Date().toISOString(), is_active: 0 })
        .where('id_utente', '=', leaving.id)
        .execute();
    };
    await t.app.ctx.jobs.runUntilIdle();
    expect(smtp.received.map((mail) => mail.to)).toEqual([[leaving.email]]);
    const mine = (await mailJobs(t.app)).at(-1);
    expect(mine).toMatchObject({ status: 'done', payload: '{}' });
  });

  it('approval: the uploader receives an Italian message, text and HTML', async () => {
    const image = await uploadPending(t, user, 'Muro di via Roma');
    await t.app.ctx.moderation.approve(image.filename, await adminRow(t.app));
    // The decision only queued the message; nothing was sent during it.
    expect(smtp.received).toHaveLength(0);
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.to).toEqual([user.email]);
    expect(message?.from).toBe('noreply@muri.example');
    const mail = parseMail(message?.raw ?? '');
    expect(mail.headers.get('subject')).toBe(APPROVED_SUBJECT);
    expect(mail.headers.get('to')).toBe(user.email);
    expect(mail.headers.get('from')).toBe('Muri Parlanti <noreply@muri.example>');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.text).toContain(`Ciao ${user.username},`);
    expect(mail.text).toContain('la tua immagine «Muro di via Roma» è stata approvata');
    // Whole links: a mail client has no page to resolve a bare path against.
    expect(mail.text).toContain(
      `Puoi vederla qui: https://muri.example/image/${image.id_image}\r\n`,
    );
    expect(mail.text).toContain('Il team di Muri Parlanti');
    expect(mail.html).toContain('«Muro di via Roma»');
    expect(mail.html).toContain(`href="https://muri.example/image/${image.id_image}"`);
    expect(mail.html).toContain('lang="it"');

    const [job] = await mailJobs(t.app);
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('rejection: the message carries the reason', async () => {
    const image = await uploadPending(t, user, 'Scritta sfocata');
    await t.app.ctx.moderation.reject(
      image.filename,
      await adminRow(t.app),
      'La foto è sfocata: rifalla con più luce.',
    );
    await t.app.ctx.jobs.runUntilIdle();

    expect(smtp.received).toHaveLength(1);
    const mail = parseMail(smtp.received[0]?.raw ?? '');
    expect(smtp.received[0]?.to).toEqual([user.email]);
    expect(mail.headers.get('subject')).toBe(REJECTED_SUBJECT);
    expect(mail.text).toContain('la tua immagine «Scritta sfocata» non è stata approvata');
    expect(mail.text).toContain('Motivo: La foto è sfocata: rifalla con più luce.');
    expect(mail.html).toContain('La foto è sfocata: rifalla con più luce.');
  });

  it('an empty reason becomes the default one', async () => {
    const image = await uploadPending(t, user, 'Senza motivo');
    await t.app.ctx.moderation.reject(image.filename, await adminRow(t.app), '   ');
    await t.app.ctx.jobs.runUntilIdle();
    expect(parseMail(smtp.received[0]?.raw ?? '').text).toContain(
      'Motivo: Nessun motivo specificato',
    );
  });

  it('escapes every user-provided value in the HTML part', async () => {
    const title = '<script>alert("x")</script> & <b>co</b>';
    const image = await uploadPending(t, user, title);
    await t.app.ctx.moderation.reject(
      image.filename,
      await adminRow(t.app),
      '<img src=x onerror=alert(1)>\nseconda riga',
    );
    await t.app.ctx.jobs.runUntilIdle();

    const mail = parseMail(smtp.received[0]?.raw ?? '');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>co</b>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(
      '«&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;co&lt;/b&gt;»',
    );
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;<br>seconda riga');
    // Plain text is not HTML: it keeps the words as written.
    expect(mail.text).toContain(`«${title}»`);
  });

  it('writes nothing to an account awaiting its erasure, even ticked active again', async () => {
    const leaving = await createUser(t.app);
    const image = await uploadPending(t, leaving, 'Ultimo muro');
    await requestErasure(t, leaving);
    const adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    // Ticked active again while the erasure request stands: the back-office now refuses that
    // (admin.test.ts), but a row may have been left so before it did.
    await t.app.ctx.database.db
      .updateTable('users')
      .set({ is_active: 1 })
      .where('id_utente', '=', leaving.id)
      .execute();
    const reject = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reject-image/${image.filename}`,
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
      payload: JSON.stringify('Non pertinente'),
    });
    expect(reject.statusCode).toBe(200);
    const written = (await mailJobs(t.app)).filter((job) => job.payload.includes(leaving.email));
    expect(written).toEqual([]);
  });

  it('queues nothing while moderation e-mails are switched off', async () => {
    const adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const put = (moderation_emails: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: bearer(adminToken),
        payload: { moderation_emails },
      });
    expect((await put(false)).statusCode).toBe(200);
    try {
      const before = (await mailJobs(t.app)).length;
      const approved = await uploadPending(t, user, 'Silenzio');
      const rejected = await uploadPending(t, user, 'Silenzio due');
      const admin = await adminRow(t.app);
      await t.app.ctx.moderation.approve(approved.filename, admin);
      await t.app.ctx.moderation.reject(rejected.filename, admin, 'No');
      expect((await mailJobs(t.app)).length).toBe(before);
      await t.app.ctx.jobs.runUntilIdle();
      expect(smtp.received).toHaveLength(0);
    } finally {
      expect((await put(true)).statusCode).toBe(200);
    }
  });
});

describe('without SMTP_URL', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    // Info level: the line that says where the message went is an info line.
    t = await buildTestApp({ smtpUrl: undefined, logLevel: 'info' });
    user = await createUser(t.app);
  });
  afterAll(() => t.close());

  it('writes the message as an .eml file into the outbox and logs where', async () => {
    const image = await uploadPending(t, user, 'Muro in archivio');
    await t.app.ctx.moderation.approve(image.filename, await adminRow(t.app));
    await t.app.ctx.jobs.runUntilIdle();

    const outbox = path.join(t.config.dataDir, 'outbox');
    const files = await fs.readdir(outbox);
    // One finished file; no temporary left behind.
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[\w-]+\.eml$/);
    const file = path.join(outbox, files[0] ?? '');
    const raw = await fs.readFile(file, 'utf8');
    expect(raw).toContain('\r\n');
    const mail = parseMail(raw);
    expect(mail.headers.get('to')).toBe(user.email);
    expect(mail.headers.get('subject')).toBe(APPROVED_SUBJECT);
    expect(mail.text).toContain('«Muro in archivio»');
    // PUBLIC_URL unset: the address of the server on its own machine.
    expect(mail.html).toContain(`href="http://localhost:3000/image/${image.id_image}"`);

    const line = t.logs.find((entry) => entry['file'] === file);
    expect(line?.['msg']).toBe('e-mail written to the outbox (SMTP_URL is not set)');
    expect(JSON.stringify(line)).not.toContain(user.email);
    expect(await mailJobs(t.app)).toMatchObject([{ status: 'done' }]);
  });
});

describe('an account that asked to be erased, without SMTP_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The erasure waits its hour: what the mail job does meanwhile is what is seen.
    t = await buildTestApp({ smtpUrl: undefined, erasureDelayMs: 3_600_000 });
  });
  afterAll(() => t.close());

  it('gets no message queued before its request, and the job keeps none of it', async () => {
    const leaving = await createUser(t.app);
    const image = await uploadPending(t, leaving, 'Muro salutato');
    await t.app.ctx.moderation.approve(image.filename, await adminRow(t.app));
    await requestErasure(t, leaving);
    await t.app.ctx.jobs.runUntilIdle();

    expect(await mailJobs(t.app)).toMatchObject([{ status: 'done', payload: '{}' }]);
    const outbox = await fs.readdir(path.join(t.config.dataDir, 'outbox')).catch(() => []);
    expect(outbox).toEqual([]);
  });
});

describe('with an unreachable SMTP server', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await buildTestApp({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
    user = await createUser(t.app);
  });
  afterAll(() => t.close());

  it('the decision succeeds and the job is retried later', async () => {
    const image = await uploadPending(t, user, 'Muro ostinato');
    const decided = await t.app.ctx.moderation.approve(image.filename, await adminRow(t.app));
    expect(decided.status).toBe('approved');

    const before = Date.now();
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(1);
    const [job] = await mailJobs(t.app);
    expect(job).toMatchObject({ status: 'queued', attempts: 1, locked_by: null });
    expect(Date.parse(job?.run_at ?? '')).toBeGreaterThan(before);
    expect(job?.last_error).toBeTruthy();

    // The approval stands: the image is public.
    const detail = await t.app.inject({ method: 'GET', url: `/api/images/${image.id_image}` });
    expect(detail.statusCode).toBe(200);
  });
});

describe('recipientsOf', () => {
  it("reads a message's To addresses, bare, named, listed and folded, lower-cased", () => {
    const message = [
      'From: Muri Parlanti <noreply@example.it>',
      'To: Anna@Example.it, "Rossi, Bruno @ casa" <bruno@example.it>,',
      ' =?UTF-8?Q?Carla_Bianchi?= <CARLA@example.it>',
      'Subject: To: someone@else.it',
      '',
      'To: body@example.it',
    ].join('\r\n');
    expect(recipientsOf(message)).toEqual([
      'anna@example.it',
      'bruno@example.it',
      'carla@example.it',
    ]);
    expect(recipientsOf('Subject: nessuno\r\n\r\nTo: a@b.it')).toEqual([]);
  });
});
