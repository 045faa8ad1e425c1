import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { italianDay, lastItalianDays } from '../../lib/italian-day.js';
import { foldKey } from '../../lib/text.js';
import { enqueueErasure } from '../../jobs/erasure/erasure.job.js';
import type { ErasureService } from '../privacy/erasure.service.js';
import type { TaxonomyService } from '../taxonomy/taxonomy.service.js';
import { toOwnUser } from '../users/users.presenters.js';
import { USER_MESSAGES } from '../users/users.rules.js';
import type { UsersService } from '../users/users.service.js';
import * as repo from './admin.repository.js';
import { IMAGE_WEIGHT, INTERACTION_WEIGHT, type UserWithScores } from './admin.repository.js';

/** When the erasure job queued with an administrator's deletion of a user runs. */
const ERASURE_FALLBACK_MS = 10 * 60 * 1000;

export const ADMIN_MESSAGES = {
  selfDelete: 'Non puoi eliminare il tuo account da qui: usa il tuo profilo.',
  selfDemote: 'Non puoi togliere a te stesso i permessi di amministratore o disattivarti.',
  lastAdmin: 'Deve restare almeno un amministratore attivo.',
  selfCredentials:
    'Non puoi cambiare la tua email o la tua password da qui: usa il tuo profilo, con la password attuale.',
} as const;

const TOP = 20;
const CHART_DAYS = 30;

export interface AdminUserInput {
  username: string;
  email: string;
  password?: string | undefined;
  is_active?: boolean | undefined;
  is_superuser?: boolean | undefined;
  /** PUT only: the revision the form was filled with (optional; a stale one answers 409). */
  revision?: number | undefined;
}

/** An account as the back-office's forms edit it: OwnUser and the revision to send back. */
function toAdminUserDetail(user: UserRow) {
  return { ...toOwnUser(user), revision: user.revision };
}

function toAdminUser(row: UserWithScores) {
  const imageScore = IMAGE_WEIGHT * row.images_uploaded;
  const interactionScore = INTERACTION_WEIGHT * row.total_interactions;
  return {
    id_utente: row.id_utente,
    username: row.username,
    email: row.email,
    is_active: row.is_active === 1,
    is_superuser: row.is_superuser === 1,
    role: row.is_superuser === 1 ? ('admin' as const) : ('user' as const),
    images_uploaded: row.images_uploaded,
    total_interactions: row.total_interactions,
    received_likes: row.received_likes,
    image_score: imageScore,
    interaction_score: interactionScore,
    total_score: imageScore + interactionScore,
    revision: row.revision,
    created_at: row.created_at,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

export function createAdminService(
  db: Executor,
  dialect: Dialect,
  clock: Clock,
  deps: { users: UsersService; taxonomy: TaxonomyService; erasure: ErasureService },
) {
  async function target(id: number): Promise<UserRow> {
    const user = await deps.users.getById(id);
    if (user === undefined) throw notFound(USER_MESSAGES.notFound);
    return user;
  }

  /** D7: the last active admin stays (users.keepingAnAdmin checks it with the change). */
  const lastAdmin = () => badRequest(ADMIN_MESSAGES.lastAdmin);

  return {
    /** GET /admin/stats (SPEC §7, D7), plus the last 30 days per day for the charts. */
    async stats() {
      // SPEC §2: the back-office's dates are Italy's, so are the charts' days.
      const { days, since } = lastItalianDays(clock.now(), CHART_DAYS);
      const [totals, categories, tags, users, activity] = await Promise.all([
        repo.totals(db),
        deps.taxonomy.popularCategories(TOP),
        deps.taxonomy.popularTags(TOP),
        repo.usersWithScores(db, TOP),
        repo.activityByHour(db, dialect, since.toISOString()),
      ]);
      const perDay = (rows: ReadonlyArray<{ hour: string; n: number }>) => {
        const totalsByDay = new Map<string, number>();
        for (const { hour, n } of rows) {
          const day = italianDay(new Date(`${hour}:00:00Z`));
          totalsByDay.set(day, (totalsByDay.get(day) ?? 0) + n);
        }
        return totalsByDay;
      };
      const uploads = perDay(activity.uploads);
      const interactions = perDay(activity.interactions);
      const daily = days.map((day) => ({
        date: day,
        uploads: uploads.get(day) ?? 0,
        interactions: interactions.get(day) ?? 0,
      }));
      return {
        total_stats: totals,
        top_categories: categories.map((row) => ({ name: row.nome, count: row.image_count })),
        top_tags: tags.map((row) => ({ name: row.nome, count: row.image_count })),
        most_active_users: users.map((row) => {
          const user = toAdminUser(row);
          return {
            id_utente: user.id_utente,
            username: user.username,
            image_score: user.image_score,
            interaction_score: user.interaction_score,
            total_score: user.total_score,
          };
        }),
        daily,
      };
    },

    async listUsers() {
      const rows = await repo.usersWithScores(db);
      return { users: rows.map(toAdminUser), total: rows.length };
    },

    async getUser(id: number) {
      return toAdminUserDetail(await target(id));
    },

    async createUser(input: AdminUserInput) {
      const user = await deps.users.create({
        username: input.username,
        email: input.email,
        password: input.password ?? '',
        isActive: input.is_active ?? true,
        isSuperuser: input.is_superuser ?? false,
      });
      return toAdminUserDetail(user);
    },

    async updateUser(admin: UserRow, id: number, input: AdminUserInput) {
      const user = await target(id);
      const isActive = input.is_active ?? user.is_active === 1;
      const isSuperuser = input.is_superuser ?? user.is_superuser === 1;
      if (admin.id_utente === id && (!isActive || !isSuperuser)) {
        throw badRequest(ADMIN_MESSAGES.selfDemote);
      }
      // D3: the own e-mail and password change only with the current password, which this
      // form does not ask for (and a new password here would also end the very session that
      // set it). Other accounts' credentials are an administrator's to reset, as before.
      if (
        admin.id_utente === id &&
        ((input.password !== undefined && input.password !== '') ||
          foldKey(input.email.normalize('NFC').trim()) !== foldKey(user.email))
      ) {
        throw badRequest(ADMIN_MESSAGES.selfCredentials);
      }
      const updated = await deps.users.adminUpdate(
        user,
        {
          username: input.username,
          email: input.email,
          password: input.password,
          isActive,
          isSuperuser,
          revision: input.revision,
        },
        lastAdmin,
      );
      return toAdminUserDetail(updated);
    },

    /** D4/D9: an administrator's deletion erases at once, images and files included. */
    async deleteUser(admin: UserRow, id: number) {
      if (admin.id_utente === id) throw badRequest(ADMIN_MESSAGES.selfDelete);
      const user = await target(id);
      // The account loses its access first, with D7's check: an administrator being deleted no
      // longer counts as one while the erasure runs. The erasure job queued with it finishes
      // the work should this request fail part-way (it finds nothing left otherwise).
      const now = clock.now();
      await deps.users.keepingAnAdmin(user, true, lastAdmin, async (trx) => {
        await deps.users.markForErasure(id, now.toISOString(), trx);
        await enqueueErasure(trx, clock, id, new Date(now.getTime() + ERASURE_FALLBACK_MS));
      });
      await deps.erasure.eraseUser(id);
    },
  };
}
