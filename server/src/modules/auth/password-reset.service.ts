import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import { enqueueMail } from '../../jobs/mail/mail.job.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { passwordResetLink, passwordResetMail } from '../mail/mail.messages.js';
import { USER_MESSAGES, isPasswordTooShort } from '../users/users.rules.js';
import { isUsable, type UsersService } from '../users/users.service.js';
import { hashPassword } from './passwords.js';
import * as repo from './password-reset.repository.js';

/*
 * A forgotten password: the account's e-mail address gets a link that sets a new one.
 * - The request answers alike whether or not the address is an account's, so it tells nobody
 *   which addresses are registered; the e-mail is queued in the request's transaction.
 * - The link's secret is 256 random bits, kept in the database only as its SHA-256 (a copy of
 *   the database opens no account; a fast hash suffices for a secret nobody can guess).
 * - A link is good for RESET_LINK_MINUTES and one use; a newer request replaces it; a password
 *   set meanwhile (from the profile, by an administrator, through another link) or a changed
 *   address voids it, as does a deactivation or an erasure. Using it ends every session.
 */

export const RESET_LINK_MINUTES = 60;
/** A request this soon after the last one sends no second e-mail: one message per burst. */
export const RESET_RESEND_MS = 60_000;

export const RESET_MESSAGES = {
  requested:
    'Se l’indirizzo è quello di un account, riceverai a breve un’e-mail con il link per scegliere una nuova password.',
  invalidLink:
    'Il link per scegliere una nuova password non è valido o è scaduto: chiedine uno nuovo.',
  done: 'Password aggiornata: ora puoi accedere con la nuova password.',
} as const;

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

export function createPasswordResetService(
  db: Kysely<Database>,
  clock: Clock,
  deps: {
    users: Pick<UsersService, 'findByEmail' | 'setPasswordIf'>;
    /** The site's address (PUBLIC_URL), for the link. */
    siteUrl: string;
    jobs?: { wake(): void };
  },
) {
  const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

  async function request(email: string): Promise<void> {
    const user = await deps.users.findByEmail(email);
    if (user === undefined || !isUsable(user)) return;
    const secret = randomBytes(32).toString('base64url');
    const now = clock.now();
    const queued = await db.transaction().execute(async (trx) => {
      const replaced = await repo.replaceReset(
        trx,
        {
          id_utente: user.id_utente,
          token_hash: hashOf(secret),
          token_version: user.token_version,
          email_key: user.email_key,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000).toISOString(),
        },
        new Date(now.getTime() - RESET_RESEND_MS).toISOString(),
      );
      if (!replaced) return false;
      const mail = passwordResetMail({
        to: user.email,
        username: user.username,
        link: passwordResetLink(secret, deps.siteUrl),
        minutes: RESET_LINK_MINUTES,
      });
      await enqueueMail(trx, clock, mail, { recipientId: user.id_utente });
      return true;
    });
    if (queued) deps.jobs?.wake();
  }

  /** Sets the new password through the link's secret; a 400 when the link is not good. */
  async function confirm(secret: string, password: string): Promise<void> {
    if (isPasswordTooShort(password)) throw badRequest(USER_MESSAGES.passwordTooShort);
    const tokenHash = hashOf(secret);
    const isLive = (reset: { expires_at: string } | undefined) =>
      reset !== undefined && new Date(reset.expires_at).getTime() > clock.now().getTime();
    // Looked at first, so a wrong or dead link costs no password hashing.
    if (!isLive(await repo.findReset(db, tokenHash))) throw badRequest(RESET_MESSAGES.invalidLink);
    const passwordHash = await hashPassword(password);
    const done = await db.transaction().execute(async (trx) => {
      const reset = await repo.takeReset(trx, tokenHash);
      if (reset === undefined || !isLive(reset)) return false;
      return deps.users.setPasswordIf(trx, reset.id_utente, reset, passwordHash);
    });
    if (!done) throw badRequest(RESET_MESSAGES.invalidLink);
  }

  return { request, confirm };
}
