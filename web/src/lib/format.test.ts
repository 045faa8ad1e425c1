import { describe, expect, it } from 'vitest';
import {
  categoryDisplayName,
  compareItalian,
  countPhrase,
  publishedCount,
  formatDateTime,
  formatLongDate,
  nameParts,
  pageTitle,
} from './format.js';

describe('categoryDisplayName (SPEC §3)', () => {
  it.each([
    ['messaggi_amore', 'Amore'],
    ['messaggio_politico', 'Politico'],
    ['messaggi_di_protesta', 'Di Protesta'],
    ['MESSAGGI_calcio', 'Calcio'],
    ['messaggi__doppio__trattino', 'Doppio Trattino'],
    ['street_art', 'Street Art'],
    ['città', 'Città'],
    ['messaggi_èstate', 'Èstate'],
    ['Non categorizzata', 'Non categorizzata'],
  ])('shows %s as %s', (nome, shown) => {
    expect(categoryDisplayName(nome)).toBe(shown);
  });

  it('removes the prefix only at the start, and only with its underscore', () => {
    expect(categoryDisplayName('amore_messaggi_muri')).toBe('Amore Messaggi Muri');
    expect(categoryDisplayName('messaggiamore')).toBe('Messaggiamore');
  });

  it('keeps a name that would be left empty', () => {
    expect(categoryDisplayName('messaggi_')).toBe('messaggi_');
    expect(categoryDisplayName('___')).toBe('___');
  });
});

describe('formatLongDate (Italian, Europe/Rome)', () => {
  it('writes the long Italian date', () => {
    expect(formatLongDate('2026-11-21T10:00:00Z')).toBe('21 novembre 2026');
  });

  it('gives the day it already is in Rome just before midnight UTC, winter and summer', () => {
    // Winter: Rome is UTC+1.
    expect(formatLongDate('2026-01-31T22:59:59Z')).toBe('31 gennaio 2026');
    expect(formatLongDate('2026-01-31T23:00:00Z')).toBe('1 febbraio 2026');
    // Summer: Rome is UTC+2.
    expect(formatLongDate('2026-07-14T21:59:59Z')).toBe('14 luglio 2026');
    expect(formatLongDate('2026-07-14T22:30:00Z')).toBe('15 luglio 2026');
  });

  it('writes what Intl writes for Rome, hour by hour across summer-time changes', () => {
    const intl = new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: 'Europe/Rome' });
    const starts = [Date.UTC(1997, 0, 1), Date.UTC(2026, 2, 27), Date.UTC(2026, 9, 23)];
    for (const start of starts) {
      for (let hour = 0; hour < 24 * 4; hour += 1) {
        for (const minute of [0, 59]) {
          const iso = new Date(start + hour * 3_600_000 + minute * 60_000).toISOString();
          expect(formatLongDate(iso), iso).toBe(intl.format(new Date(iso)));
        }
      }
    }
    // A day every 9 days for thirty years, at 22:30 and 23:30 UTC (the day changes in Rome).
    for (
      let time = Date.UTC(1997, 0, 1, 22, 30);
      time < Date.UTC(2027, 0, 1);
      time += 9 * 86_400_000
    ) {
      for (const extra of [0, 3_600_000]) {
        const iso = new Date(time + extra).toISOString();
        expect(formatLongDate(iso), iso).toBe(intl.format(new Date(iso)));
      }
    }
  });

  it("says 'Errore data' when the date cannot be read", () => {
    expect(formatLongDate('')).toBe('Errore data');
    expect(formatLongDate('ieri')).toBe('Errore data');
    expect(formatLongDate('2026-13-45T00:00:00Z')).toBe('Errore data');
  });
});

describe('formatDateTime (back-office dates, Europe/Rome)', () => {
  it('writes day/month/year, hour:minute in Rome time', () => {
    expect(formatDateTime('2026-11-21T14:30:00.000Z')).toBe('21/11/2026, 15:30');
    expect(formatDateTime('2026-07-01T08:05:00Z')).toBe('01/07/2026, 10:05');
  });

  it('moves to the next day in Rome near midnight UTC, in winter and in summer time', () => {
    expect(formatDateTime('2026-11-21T23:30:00Z')).toBe('22/11/2026, 00:30');
    expect(formatDateTime('2026-11-21T22:59:00Z')).toBe('21/11/2026, 23:59');
    expect(formatDateTime('2026-07-14T22:30:00Z')).toBe('15/07/2026, 00:30');
    expect(formatDateTime('2026-07-14T21:59:00Z')).toBe('14/07/2026, 23:59');
    expect(formatDateTime('2026-12-31T23:15:00Z')).toBe('01/01/2027, 00:15');
  });

  it('follows the change to summer time (last Sunday of March, 02:00 → 03:00)', () => {
    expect(formatDateTime('2026-03-29T00:59:00Z')).toBe('29/03/2026, 01:59');
    expect(formatDateTime('2026-03-29T01:00:00Z')).toBe('29/03/2026, 03:00');
  });

  it.each(['', 'non è una data', '2026-02-30T25:00:00Z', 'undefined'])(
    "says 'Errore data' for %j",
    (value) => {
      expect(formatDateTime(value)).toBe('Errore data');
    },
  );
});

describe('countPhrase', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(countPhrase(1, 'immagine', 'immagini')).toBe('1 immagine');
    expect(countPhrase(0, 'immagine', 'immagini')).toBe('0 immagini');
    expect(countPhrase(2, 'risultato', 'risultati')).toBe('2 risultati');
    expect(countPhrase(120, 'immagine con questo tag', 'immagini con questo tag')).toBe(
      '120 immagini con questo tag',
    );
  });

  it('writes large counts as Italian does, as the profile and the dashboard write theirs', () => {
    expect(countPhrase(12_345, 'visualizzazione', 'visualizzazioni')).toBe(
      '12.345 visualizzazioni',
    );
    expect(countPhrase(1_000_000, 'risultato', 'risultati')).toBe('1.000.000 risultati');
  });
});

describe('pageTitle (D11)', () => {
  it('names the page before the brand, or the brand alone', () => {
    expect(pageTitle('Accedi')).toBe('Accedi · Muri Parlanti');
    expect(pageTitle()).toBe('Muri Parlanti');
    expect(pageTitle('')).toBe('Muri Parlanti');
  });
});

describe('nameParts', () => {
  it.each([
    ['federica.fontana', ['federica.', 'fontana']],
    ['emanuele_rossi-88', ['emanuele_', 'rossi-', '88']],
    ['noemi', ['noemi']],
    ['a..b', ['a.', '.', 'b']],
    ['fine.', ['fine.']],
    ['città.bella', ['città.', 'bella']],
  ])('cuts %s after its dots, hyphens and underscores', (name, parts) => {
    expect(nameParts(name)).toEqual(parts);
    expect(nameParts(name).join('')).toBe(name);
  });
});

describe('compareItalian', () => {
  it('orders shown category names as an Italian reader does, whatever the browser language', () => {
    const shown = ['Zona Rossa', 'Éclair', 'città', 'Cibo', 'Amicizia', 'amore', 'Cuore'];
    expect([...shown].sort(compareItalian)).toEqual([
      'Amicizia',
      'amore',
      'Cibo',
      'città',
      'Cuore',
      'Éclair',
      'Zona Rossa',
    ]);
  });
});

describe('publishedCount', () => {
  it('says none, one or how many of a list are published, grouped in Italian', () => {
    expect(publishedCount(0)).toBe('nessuna pubblicata');
    expect(publishedCount(1)).toBe('1 pubblicata');
    expect(publishedCount(12345)).toBe('12.345 pubblicate');
  });
});
