/**
 * SPEC §3: 'messaggi_amore' → 'Amore': the prefix 'messaggi_' or 'messaggio_' removed, the rest
 * split on underscores, each word capitalised.
 */
export function categoryDisplayName(nome: string): string {
  const bare = nome.replace(/^messaggio?_/i, '');
  const words = bare.split('_').filter((word) => word !== '');
  if (words.length === 0) return nome;
  return words.map((word) => word.charAt(0).toLocaleUpperCase('it-IT') + word.slice(1)).join(' ');
}

const TIME_ZONE = 'Europe/Rome';

// Built once: a grid formats hundreds of dates, and a formatter is costly to create.
const LONG_DATE = new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: TIME_ZONE });
const DATE_TIME = new Intl.DateTimeFormat('it-IT', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: TIME_ZONE,
});

/** 'Membro dal:' style: 21 novembre 2026, the day as it is in Rome. */
export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Errore data';
  return LONG_DATE.format(date);
}

/** Back-office dates: 21/11/2026, 15:30 in Rome time; 'Errore data' when unparsable. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Errore data';
  return DATE_TIME.format(date);
}

/** SPEC §9: Bytes, KB, MB, GB, base 1024, two decimals. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${units[unit] ?? 'GB'}`;
}

/** '1 immagine', '3 immagini'. */
export function countPhrase(count: number, singular: string, plural: string): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** D11: 'Accedi · Muri Parlanti'. */
export function pageTitle(name?: string): string {
  return name === undefined || name === '' ? 'Muri Parlanti' : `${name} · Muri Parlanti`;
}
