import { sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';

/** D7 scores: 5 per approved image uploaded, 1 per interaction made. */
export const IMAGE_WEIGHT = 5;
export const INTERACTION_WEIGHT = 1;

export interface UserWithScores {
  id_utente: number;
  username: string;
  email: string;
  is_active: number;
  is_superuser: number;
  created_at: string;
  revision: number;
  images_uploaded: number;
  total_interactions: number;
  received_likes: number;
}

/** Every user with the figures of the admin list, highest score first when `limit` is given. */
export function usersWithScores(db: Executor, limit?: number): Promise<UserWithScores[]> {
  const query = db
    .selectFrom('users as u')
    .select((eb) => [
      'u.id_utente',
      'u.username',
      'u.email',
      'u.is_active',
      'u.is_superuser',
      'u.created_at',
      'u.revision',
      eb
        .selectFrom('images as i')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('i.id_utente', '=', 'u.id_utente')
        .where('i.status', '=', 'approved')
        .as('images_uploaded'),
      eb
        .selectFrom('interactions as x')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('x.id_utente', '=', 'u.id_utente')
        .as('total_interactions'),
      eb
        .selectFrom('images as i')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('i.likes_count'), e.lit(0)).as('n'))
        .whereRef('i.id_utente', '=', 'u.id_utente')
        .where('i.status', '=', 'approved')
        .as('received_likes'),
    ])
    .$narrowType<{ images_uploaded: number; total_interactions: number; received_likes: number }>();
  if (limit === undefined) return query.orderBy('u.id_utente').execute();
  // Wrapped, because PostgreSQL cannot use select aliases inside an ORDER BY expression.
  return db
    .selectFrom(query.as('s'))
    .selectAll()
    .orderBy(
      sql`${IMAGE_WEIGHT} * s.images_uploaded + ${INTERACTION_WEIGHT} * s.total_interactions`,
      'desc',
    )
    .orderBy('s.id_utente')
    .limit(limit)
    .execute();
}

export async function totals(db: Executor) {
  const count = async (table: 'users' | 'categories' | 'tags' | 'interactions') =>
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const images = await db
    .selectFrom('images')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'approved').as('approved'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: await count('users'),
    images: images.approved,
    pending_images: images.pending,
    categories: await count('categories'),
    tags: await count('tags'),
    interactions: await count('interactions'),
  };
}

/** The UTC hour of a timestamp column, as 'YYYY-MM-DDTHH', on either engine. */
function hourOf(column: string, dialect: Dialect) {
  return dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24')`
    : sql<string>`substr(${sql.ref(column)}, 1, 13)`;
}

/**
 * Uploads and interactions per UTC hour since `since` (the dashboard's charts, which add the
 * hours up into Italian days: a day's grouping in SQL would be UTC's on SQLite, which has no
 * time zones).
 */
export async function activityByHour(db: Executor, dialect: Dialect, since: string) {
  const uploads = await db
    .selectFrom('images')
    .select((eb) => [hourOf('created_at', dialect).as('hour'), eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy(hourOf('created_at', dialect))
    .execute();
  const interactions = await db
    .selectFrom('interactions')
    .select((eb) => [hourOf('created_at', dialect).as('hour'), eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy(hourOf('created_at', dialect))
    .execute();
  return { uploads, interactions };
}
