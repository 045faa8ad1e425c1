/*
 * Calendar days as Italy counts them (Europe/Rome, the time zone SPEC gives the back-office's
 * dates). A day there begins at 23:00 or 22:00 UTC of the day before; its offsets are whole
 * hours, so every UTC hour falls within one Italian day.
 */

const ITALIAN_DAY = new Intl.DateTimeFormat('en', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The Italian calendar day of an instant, as 'YYYY-MM-DD'. */
export function italianDay(instant: Date): string {
  // From the parts, not from a locale's written form of a date, which ICU versions change.
  const part = (type: 'year' | 'month' | 'day') =>
    ITALIAN_DAY.formatToParts(instant).find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The `count` Italian days that end with the one `now` is in, oldest first, and an instant no
 * later than the first one's start (its UTC midnight two hours early, the most Rome is ahead).
 */
export function lastItalianDays(now: Date, count: number): { days: string[]; since: Date } {
  const [year = 0, month = 1, day = 1] = italianDay(now).split('-').map(Number);
  const start = (offset: number) => Date.UTC(year, month - 1, day - offset);
  const days = Array.from({ length: count }, (_, index) =>
    new Date(start(count - 1 - index)).toISOString().slice(0, 10),
  );
  return { days, since: new Date(start(count - 1) - 2 * 60 * 60 * 1000) };
}
