import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { writeFileAtomically } from '../../lib/atomic-file.js';

/*
 * The one place that talks to nodemailer (D8). With SMTP_URL set, messages go to that server;
 * without it, nodemailer still builds each message (same headers, same MIME structure) and it
 * is written as an .eml file into the data folder's outbox, where anyone running the server
 * can open it in a mail client. Sending happens only inside the mail.send job, never in a
 * request, so a slow or broken mail server cannot slow an administrator down.
 */

/** A message ready to send: Italian text and HTML built by mail.messages.ts. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type MailDelivery =
  | { via: 'smtp'; messageId: string; response: string }
  | { via: 'outbox'; messageId: string; file: string };

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<MailDelivery>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  /** The From header: 'Muri Parlanti <noreply@…>' (MAIL_FROM). */
  mailFrom: string;
  dataDir: string;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/**
 * Nodemailer waits minutes by default (2 min to connect, 10 min of silence). A job holds a
 * worker slot while it waits, and the server's worker runs one job at a time, so a mail server
 * that hangs would hold up image analysis: fail fast instead and let the retry back off.
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/** Our messages never carry attachments; refusing file and URL content keeps it that way. */
const NO_EXTERNAL_CONTENT = { disableFileAccess: true, disableUrlAccess: true } as const;

/**
 * RFC 3834: marks the message as sent by a machine, so auto-responders (holiday replies) do not
 * answer it.
 */
const AUTOMATED_HEADERS = { 'Auto-Submitted': 'auto-generated' } as const;

export function createMailer(options: MailerOptions): Mailer {
  const message = (mail: OutgoingMail) => ({
    from: options.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: AUTOMATED_HEADERS,
  });

  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      ...SMTP_TIMEOUTS,
      ...NO_EXTERNAL_CONTENT,
    });
    return {
      mode: 'smtp',
      async send(mail) {
        const info = await transport.sendMail(message(mail));
        return { via: 'smtp', messageId: info.messageId, response: info.response };
      },
    };
  }

  // CRLF line endings: an .eml file is a message exactly as it would travel over SMTP.
  const builder = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    ...NO_EXTERNAL_CONTENT,
  });
  const dir = outboxDir(options.dataDir);
  return {
    mode: 'outbox',
    async send(mail) {
      const info = await builder.sendMail(message(mail));
      const bytes = Buffer.isBuffer(info.message) ? info.message : await readAll(info.message);
      const file = await writeAtomically(dir, bytes);
      return { via: 'outbox', messageId: info.messageId, file };
    },
  };
}

/** With `buffer: true` nodemailer answers a Buffer; this covers a stream all the same. */
async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  }
  return Buffer.concat(chunks);
}

/**
 * Writes the message under a temporary name, flushes it, then renames it: whoever watches the
 * outbox (a person, a script handing files to a real mail server) never sees half a message.
 * Names sort by time; the random part keeps concurrent workers apart.
 */
async function writeAtomically(dir: string, bytes: Buffer): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const name = `${stamp}-${randomBytes(6).toString('hex')}.eml`;
  const target = path.join(dir, name);
  const temporary = path.join(dir, `.${name}.tmp`);
  // Only the server's user may read it: a message holds an address and personal text.
  await writeFileAtomically(target, temporary, bytes, 0o600);
  return target;
}

/**
 * D9: the outbox's messages to an erased account go with it. Without a mail server the outbox
 * stands in for one: a file still there may yet be handed on to the person, and each holds the
 * address and what the message says. Matched on the To header's addresses, case aside.
 */
export async function forgetOutboxMailTo(
  dataDir: string,
  addresses: ReadonlySet<string>,
): Promise<number> {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    // Half-written messages keep their temporary dot name until renamed (writeAtomically).
    if (name.startsWith('.') || !name.endsWith('.eml')) continue;
    const file = path.join(dir, name);
    const recipients = recipientsOf(await fs.readFile(file, 'latin1'));
    if (recipients.some((recipient) => addresses.has(recipient))) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** The addresses of a message's To header, lower-cased: `a@b.it`, `Name <a@b.it>`, a list. */
export function recipientsOf(message: string): string[] {
  const end = message.search(/\r?\n\r?\n/);
  // Header lines continue on lines that start with a space or a tab (RFC 5322 folding).
  const headers = (end === -1 ? message : message.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const to = /^to:(.*)$/im.exec(headers)?.[1] ?? '';
  // A display name in quotes may hold commas and even an '@': it is not an address.
  const unquoted = to.replace(/"(?:[^"\\]|\\.)*"/g, ' ');
  return [...unquoted.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((match) => match[0].toLowerCase());
}
