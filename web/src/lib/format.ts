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

const ITALIAN = new Intl.Collator('it');

/**
 * Two texts in Italian alphabetical order, whatever the browser's own language: a grid sorting
 * shown category names ('Città' between 'Cibo' and 'Cuore') must not depend on it.
 */
export function compareItalian(a: string, b: string): number {
  return ITALIAN.compare(a, b);
}

const TIME_ZONE = 'Europe/Rome';

const MONTHS = [
  'gennaio',
  'febbraio',
  'marzo',
  'aprile',
  'maggio',
  'giugno',
  'luglio',
  'agosto',
  'settembre',
  'ottobre',
  'novembre',
  'dicembre',
];

/** The last Sunday of a month (0-based), at 01:00 UTC: when the EU's summer time starts or ends. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Rome's offset from UTC in ms at `time`: +2 h in summer time, +1 h otherwise (EU rule, 1996 on). */
function romeOffsetMs(time: number, year: number): number {
  const summer = time >= lastSundayAt1Utc(year, 2) && time < lastSundayAt1Utc(year, 9);
  return (summer ? 2 : 1) * 3_600_000;
}

// Intl formatters are made when first needed, never while the app starts: the first
// Intl.DateTimeFormat with a time zone loads ICU's data, 20–30 ms of the phone's startup task
// before the app could paint (goal 8, total blocking time). A grid formats hundreds of dates,
// so each is made once.
let dateTimeFormat: Intl.DateTimeFormat | undefined;
let longDateFormat: Intl.DateTimeFormat | undefined;

/**
 * 'Membro dal:' style: 21 novembre 2026, the day as it is in Rome — what Intl's it-IT
 * `dateStyle: 'long'` writes, computed by hand (the EU's summer-time rule, in force since 1996)
 * so that public pages never pay for Intl's time-zone data.
 */
export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  const time = date.getTime();
  if (Number.isNaN(time)) return 'Errore data';
  const year = date.getUTCFullYear();
  if (year < 1997) {
    longDateFormat ??= new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: TIME_ZONE });
    return longDateFormat.format(date);
  }
  const rome = new Date(time + romeOffsetMs(time, year));
  return `${String(rome.getUTCDate())} ${MONTHS[rome.getUTCMonth()] ?? ''} ${String(rome.getUTCFullYear())}`;
}

/** Back-office dates: 21/11/2026, 15:30 in Rome time; 'Errore data' when unparsable. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Errore data';
  dateTimeFormat ??= new Intl.DateTimeFormat('it-IT', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: TIME_ZONE,
  });
  return dateTimeFormat.format(date);
}

/** Two decimals with Italian's decimal comma ('1,50'), as every other figure here is written. */
export function twoDecimals(value: number): string {
  return value.toFixed(2).replace('.', ',');
}

/** SPEC §9: Bytes, KB, MB, GB, base 1024, two decimals ('1,50 KB'). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${twoDecimals(value)} ${units[unit] ?? 'GB'}`;
}

const countFormat = new Intl.NumberFormat('it-IT');

/** A count as Italians write it: 12.345 (every figure on screen, public and back-office). */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** 'nessuna pubblicata', '1 pubblicata', '12.345 pubblicate': of a list's approved count. */
export function publishedCount(count: number): string {
  return count === 0 ? 'nessuna pubblicata' : countPhrase(count, 'pubblicata', 'pubblicate');
}

/** '1 immagine', '3 immagini', '12.345 visualizzazioni'. */
export function countPhrase(count: number, singular: string, plural: string): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/** D11: 'Accedi · Muri Parlanti'. */
export function pageTitle(name?: string): string {
  return name === undefined || name === '' ? 'Muri Parlanti' : `${name} · Muri Parlanti`;
}

/**
 * A username cut after each dot, hyphen and underscore ('federica.fontana' → 'federica.',
 * 'fontana'): the places a narrow column may wrap it and still be read, where an ellipsis would
 * hide it and a break anywhere would split a word. Joined again, the parts are the name.
 */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[._-])(?=.)/u);
}
