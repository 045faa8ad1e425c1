import type { AdminStats } from '../../types.js';

/*
 * The server sends each day as a bare calendar date (YYYY-MM-DD). It is read and written in UTC
 * so that the label is that very day whatever the browser's time zone: turning it into a Rome
 * instant would shift it by a day for days near midnight.
 */
const shortDay = new Intl.DateTimeFormat('it-IT', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const longDay = new Intl.DateTimeFormat('it-IT', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

function parseDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '21 nov' under the chart's axis, 'venerdì 21 novembre 2025' in its tooltip. */
export function formatChartDay(day: string, style: 'short' | 'long' = 'short'): string {
  const date = parseDay(day);
  if (date === null) return 'Errore data';
  return (style === 'short' ? shortDay : longDay).format(date);
}

export interface ActivitySeries {
  days: string[];
  uploads: number[];
  interactions: number[];
  totalUploads: number;
  totalInteractions: number;
}

/** The charts' columns from the per-day figures, oldest day first as the axis reads. */
export function activitySeries(daily: AdminStats['daily']): ActivitySeries {
  const sorted = [...daily].sort((a, b) => a.date.localeCompare(b.date));
  const uploads = sorted.map((day) => day.uploads);
  const interactions = sorted.map((day) => day.interactions);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    days: sorted.map((day) => day.date),
    uploads,
    interactions,
    totalUploads: sum(uploads),
    totalInteractions: sum(interactions),
  };
}
