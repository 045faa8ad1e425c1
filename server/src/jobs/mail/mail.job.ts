import fs from 'node:fs/promises';
import { chunks } from '../../db/chunks.js';
import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import type { Mailer, OutgoingMail } from '../../modules/mail/mailer.js';
import type { EnqueueOptions } from '../queue.js';
import { defineJob, enqueueJob, PermanentJobError, type JobDefinition } from '../worker.js';

/*
 * E-mail goes out in a background job (D8): the request that causes a message only inserts
 * this job (in its own transaction), so a slow or unreachable mail server never fails or slows
 * it; the worker retries with backoff.
 */

export const MAIL_JOB = 'mail.send';
/**
 * With the queue's backoff (5 s × 4ⁿ, at most an hour) eight attempts span about two and a
 * half hours: long enough to ride out a mail server's restart or a short outage.
 */
export const MAIL_MAX_ATTEMPTS = 8;

/**
 * The message, and the account it is written to when there is one: the job's row holds the
 * address, the name and what the message says, which the account's erasure must take too
 * (forgetMailOf), even when the address was changed since.
 */
export type MailPayload = OutgoingMail & { id_utente?: number };

/** Call it in the transaction of the change the message is about. */
export function enqueueMail(
  db: Executor,
  clock: Clock,
  mail: OutgoingMail,
  options: EnqueueOptions & { recipientId?: number } = {},
): Promise<number> {
  const { recipientId, ...enqueueOptions } = options;
  return enqueueJob<MailPayload>(
    db,
    clock,
    { name: MAIL_JOB, maxAttempts: MAIL_MAX_ATTEMPTS },
    {
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(recipientId === undefined ? {} : { id_utente: recipientId }),
    },
    enqueueOptions,
  );
}

/**
 * D9: the account's messages go with it. Sent ones are kept as done jobs for a week and those
 * failed for good forever, each with the address, the username and the image's title; one
 * still queued would write to someone who asked to be forgotten. A message being sent this
 * moment (running) is left to its worker, which must be able to record its end.
 * Matched by the account's id, or by its address for a message queued before the id was kept.
 * The payload is JSON text on both engines: read and matched here rather than by each engine's
 * own JSON functions. Answers the addresses the messages were written to (the account's own
 * and any it had before), whose copies in the outbox go too (mailer.ts, forgetOutboxMailTo).
 */
export async function forgetMailOf(
  db: Executor,
  recipient: { id_utente: number; email: string },
): Promise<Set<string>> {
  const address = recipient.email.toLowerCase();
  const rows = await db
    .selectFrom('jobs')
    .select(['id_job', 'payload'])
    .where('name', '=', MAIL_JOB)
    .where('status', '<>', 'running')
    .execute();
  const ids: number[] = [];
  const addresses = new Set([address]);
  for (const row of rows) {
    const payload = parsedPayload(row.payload);
    // A payload that is no message was never sent, and is refused by its job (createMailJob).
    if (!isMailPayload(payload)) continue;
    const to = payload.to.toLowerCase();
    if (payload.id_utente === recipient.id_utente || to === address) {
      ids.push(row.id_job);
      addresses.add(to);
    }
  }
  for (const part of chunks(ids)) {
    await db.deleteFrom('jobs').where('id_job', 'in', part).execute();
  }
  return addresses;
}

function parsedPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isMailPayload(payload: unknown): payload is MailPayload {
  if (typeof payload !== 'object' || payload === null) return false;
  const fields = payload as Record<string, unknown>;
  return (
    typeof fields['to'] === 'string' &&
    fields['to'] !== '' &&
    typeof fields['subject'] === 'string' &&
    typeof fields['text'] === 'string' &&
    typeof fields['html'] === 'string'
  );
}

/** The mail server refused the recipient for good (5xx on RCPT TO): retrying cannot help. */
function isPermanentRefusal(error: unknown): boolean {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500;
}

/**
 * Whether the account a message was written to may still have it on record: not erased, nor
 * waiting for its erasure. Asked once the message has gone: forgetMailOf leaves a message
 * being sent to its worker (this job), so one sent while its account was being erased would
 * otherwise keep the address and the text for a week as a done job, and its outbox copy for
 * good.
 */
async function recipientStays(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('deletion_requested_at')
    .where('id_utente', '=', userId)
    .executeTakeFirst();
  return row !== undefined && row.deletion_requested_at === null;
}

export function createMailJob(db: Executor, mailer: Mailer): JobDefinition<MailPayload> {
  /** The message's row keeps nothing of it (recorded done after this; a run again sends nothing). */
  const forgetPayload = (jobId: number) =>
    db.updateTable('jobs').set({ payload: '{}' }).where('id_job', '=', jobId).execute();
  const stays = (payload: MailPayload) =>
    payload.id_utente === undefined ? Promise.resolve(true) : recipientStays(db, payload.id_utente);

  return defineJob<MailPayload>({
    name: MAIL_JOB,
    maxAttempts: MAIL_MAX_ATTEMPTS,
    async run(payload, ctx) {
      // No address in the messages below: logs stay free of personal data (D9).
      if (!isMailPayload(payload)) throw new PermanentJobError('bad mail payload');
      // D9: someone who asked to be forgotten gets no more mail, even one queued before.
      if (!(await stays(payload))) {
        await forgetPayload(ctx.job.id);
        ctx.log.info({ id_job: ctx.job.id }, 'e-mail to an account being erased: not sent');
        return;
      }
      let delivery;
      try {
        delivery = await mailer.send(payload);
      } catch (error) {
        if (isPermanentRefusal(error)) {
          throw new PermanentJobError('the mail server refused the recipient', { cause: error });
        }
        throw error;
      }
      // Its erasure began while it was being sent, and left it to this job (forgetMailOf).
      if (!(await stays(payload))) {
        await forgetPayload(ctx.job.id);
        if (delivery.via === 'outbox') await fs.rm(delivery.file, { force: true });
        ctx.log.info({ id_job: ctx.job.id }, 'e-mail sent to an account being erased: forgotten');
        return;
      }
      if (delivery.via === 'outbox') {
        ctx.log.info(
          { id_job: ctx.job.id, file: delivery.file },
          'e-mail written to the outbox (SMTP_URL is not set)',
        );
      } else {
        ctx.log.info(
          { id_job: ctx.job.id, messageId: delivery.messageId, response: delivery.response },
          'e-mail sent',
        );
      }
    },
  });
}
