import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectList, expectObject, InvalidShapeError } from '../../shape.js';
import type { AdminStats } from '../../types.js';

const TOTAL_KEYS = ['users', 'images', 'pending_images', 'categories', 'tags', 'interactions'];

/**
 * The stats answer when it has the shape the dashboard draws; otherwise the shape error
 * (SPEC §5). Every figure is checked to be a number: a card or a chart fed a string would not
 * fail, it would quietly show nonsense.
 */
export function parseAdminStats(value: unknown): AdminStats {
  const stats = expectObject<AdminStats>(
    value,
    'total_stats',
    'top_categories',
    'top_tags',
    'most_active_users',
    'daily',
  );
  const totals = expectObject<Record<string, unknown>>(stats.total_stats, ...TOTAL_KEYS);
  const numbers = (record: object, keys: readonly string[]) => {
    for (const key of keys) {
      if (typeof (record as Record<string, unknown>)[key] !== 'number') {
        throw new InvalidShapeError();
      }
    }
  };
  numbers(totals, TOTAL_KEYS);
  for (const row of expectList<unknown>(stats.top_categories)) {
    numbers(expectObject<object>(row, 'name', 'count'), ['count']);
  }
  for (const row of expectList<unknown>(stats.top_tags)) {
    numbers(expectObject<object>(row, 'name', 'count'), ['count']);
  }
  for (const row of expectList<unknown>(stats.most_active_users)) {
    const scores = ['id_utente', 'image_score', 'interaction_score', 'total_score'];
    numbers(expectObject<object>(row, 'username', ...scores), scores);
  }
  for (const row of expectList<unknown>(stats.daily)) {
    const day = expectObject<{ date: unknown }>(row, 'date', 'uploads', 'interactions');
    if (typeof day.date !== 'string') throw new InvalidShapeError();
    numbers(day, ['uploads', 'interactions']);
  }
  return stats;
}

/** GET /admin/stats: totals, top lists and the last 30 days (SPEC §7, D7). */
export async function fetchAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return parseAdminStats(await api<unknown>('/admin/stats', { signal }));
}

export const adminStatsQuery = queryOptions({
  queryKey: ['admin', 'dashboard', 'stats'],
  queryFn: ({ signal }) => fetchAdminStats(signal),
  // Figures change with every upload, reaction and decision made elsewhere: the dashboard asks
  // again each time it is opened (showing the last figures meanwhile) rather than trusting a
  // cache that no other screen invalidates.
  staleTime: 0,
});

export const useAdminStats = () => useQuery(adminStatsQuery);
