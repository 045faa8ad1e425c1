/** SPEC §3: 'messaggi_amore' → 'Amore': prefix removed, split on underscores, words capitalised. */
export function categoryDisplayName(nome: string): string {
  const bare = nome.replace(/^messaggi?_/i, '');
  const words = bare.split('_').filter((word) => word !== '');
  if (words.length === 0) return nome;
  return words.map((word) => word.charAt(0).toLocaleUpperCase('it-IT') + word.slice(1)).join(' ');
}

const TIME_ZONE = 'Europe/Rome';

/** 'Membro dal:' style: 21 novembre 2026. */
export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Errore data';
  return new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: TIME_ZONE }).format(date);
}

/** Back-office dates: 21/11/2026, 15:30 in Rome time; 'Errore data' when unparsable. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Errore data';
  return new Intl.DateTimeFormat('it-IT', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: TIME_ZONE,
  }).format(date);
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
