import { describe, expect, it } from 'vitest';
import { INVALID_SHAPE_MESSAGE } from '../../shape.js';
import type { AdminStats } from '../../types.js';
import { parseAdminStats } from './adminStats.js';
import { formatCount } from '../../../lib/format.js';
import { activitySeries, formatChartDay } from './dashboardFormat.js';

const STATS: AdminStats = {
  total_stats: {
    users: 12,
    images: 40,
    pending_images: 3,
    categories: 7,
    tags: 15,
    interactions: 12345,
  },
  top_categories: [{ name: 'messaggi_amore', count: 9 }],
  top_tags: [{ name: 'roma', count: 4 }],
  most_active_users: [
    { id_utente: 2, username: 'marta', image_score: 10, interaction_score: 3, total_score: 13 },
  ],
  daily: [
    { date: '2025-11-21', uploads: 2, interactions: 5 },
    { date: '2025-11-20', uploads: 1, interactions: 0 },
  ],
};

describe('dashboard figures', () => {
  it('writes totals the Italian way', () => {
    expect(formatCount(12345)).toBe('12.345');
    expect(formatCount(0)).toBe('0');
  });

  it('names chart days in Italian, the same calendar day in any time zone', () => {
    expect(formatChartDay('2025-11-21')).toBe('21 nov');
    expect(formatChartDay('2026-01-01')).toBe('1 gen');
    expect(formatChartDay('2025-11-21', 'long')).toBe('venerdì 21 novembre 2025');
    expect(formatChartDay('ieri')).toBe('Errore data');
  });

  it('orders the days oldest first and adds up the period', () => {
    expect(activitySeries(STATS.daily)).toEqual({
      days: ['2025-11-20', '2025-11-21'],
      uploads: [1, 2],
      interactions: [0, 5],
      totalUploads: 3,
      totalInteractions: 5,
    });
    expect(activitySeries([])).toMatchObject({ days: [], totalUploads: 0 });
  });
});

describe('the stats answer', () => {
  it('passes a well-formed answer through', () => {
    expect(parseAdminStats(STATS)).toEqual(STATS);
  });

  it.each([
    ['a list', []],
    ['no totals', { ...STATS, total_stats: undefined }],
    ['a missing total', { ...STATS, total_stats: { ...STATS.total_stats, tags: undefined } }],
    ['a total as text', { ...STATS, total_stats: { ...STATS.total_stats, users: '12' } }],
    ['top tags not a list', { ...STATS, top_tags: {} }],
    ['a category without count', { ...STATS, top_categories: [{ name: 'x' }] }],
    ['a user without score', { ...STATS, most_active_users: [{ username: 'x' }] }],
    ['a day without date', { ...STATS, daily: [{ uploads: 1, interactions: 1 }] }],
    ['a day with a numeric date', { ...STATS, daily: [{ date: 1, uploads: 1, interactions: 1 }] }],
  ])('refuses %s', (_case, value) => {
    expect(() => parseAdminStats(value)).toThrow(INVALID_SHAPE_MESSAGE);
  });
});
