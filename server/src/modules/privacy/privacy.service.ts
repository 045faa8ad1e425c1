import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/tables.js';
import { enqueueErasure } from '../../jobs/erasure/erasure.job.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, MESSAGES, unauthorized } from '../../lib/errors.js';
import { verifyPassword } from '../auth/passwords.js';
import type { FollowsService } from '../follows/follows.service.js';
import type { ImagesService } from '../images/images.service.js';
import { toOwnUser } from '../users/users.presenters.js';
import type { UsersService } from '../users/users.service.js';
import * as repo from './privacy.repository.js';

export const PRIVACY_MESSAGES = {
  wrongPassword: 'La password non è corretta.',
  lastAdmin:
    'Sei l’ultimo amministratore attivo: nomina un altro amministratore prima di eliminare il tuo account.',
} as const;

const INTERACTION_NAMES: Record<number, string> = {
  1: 'mi piace',
  2: 'preferito',
  3: 'download',
  4: 'triste',
  5: 'non mi piace',
  6: 'wow',
  7: 'visualizzazione',
};

export type PrivacyService = ReturnType<typeof createPrivacyService>;

/** D9: the rights of access/portability ('Scarica i miei dati') and erasure ('Elimina account'). */
export function createPrivacyService(
  db: Kysely<Database>,
  clock: Clock,
  deps: {
    users: UsersService;
    images: ImagesService;
    follows: FollowsService;
    erasureDelayMs: number;
  },
) {
  return {
    /** Everything the service holds about the caller, and nothing about anyone else. */
    async exportData(user: UserRow) {
      const [images, interactions, following, followers] = await Promise.all([
        deps.images.exportOwn(user),
        repo.interactionsOf(db, user.id_utente),
        repo.followedBy(db, user.id_utente),
        deps.follows.countFollowers(user.id_utente),
      ]);
      return {
        exported_at: clock.now().toISOString(),
        account: { ...toOwnUser(user), age_confirmed_at: user.age_confirmed_at },
        images,
        interactions: interactions.map((row) => ({
          id_image: row.id_image,
          id_tipo_interazione: row.id_tipo_interazione,
          tipo: INTERACTION_NAMES[row.id_tipo_interazione] ?? 'altro',
          created_at: row.created_at,
        })),
        follows: {
          following: following.map((row) => ({
            id_utente: row.id_utente,
            username: row.username,
            since: row.created_at,
          })),
          followers_count: followers,
        },
      };
    },

    /**
     * Deactivates at once (tokens die, the profile disappears) and queues the erasure within
     * the promised time. The password is asked again: a stolen session must not be enough.
     */
    async requestDeletion(user: UserRow, password: string): Promise<void> {
      if (!(await verifyPassword(user.password_hash, password))) {
        throw badRequest(PRIVACY_MESSAGES.wrongPassword);
      }
      const now = clock.now();
      const lastAdmin = () => badRequest(PRIVACY_MESSAGES.lastAdmin);
      await deps.users.keepingAnAdmin(user, true, lastAdmin, async (trx) => {
        // Only while the session still speaks for the account: a password an administrator
        // set meanwhile (or a deactivation) ended it, and the password checked above with it.
        if (
          !(await deps.users.markForErasure(
            user.id_utente,
            now.toISOString(),
            trx,
            user.token_version,
          ))
        ) {
          throw unauthorized(MESSAGES.invalidToken);
        }
        await enqueueErasure(
          trx,
          clock,
          user.id_utente,
          new Date(now.getTime() + deps.erasureDelayMs),
        );
      });
    },
  };
}
