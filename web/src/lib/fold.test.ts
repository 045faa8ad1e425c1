import { describe, expect, it } from 'vitest';
import { filterByName, fold } from './fold.js';

describe('fold', () => {
  it('drops case and accents', () => {
    expect(fold('Libertà')).toBe('liberta');
    expect(fold('PERCHÉ')).toBe('perche');
    expect(fold('Città')).toBe(fold('CITTA'));
    expect(fold('İstanbul')).toBe('istanbul');
  });

  it('folds every apostrophe a keyboard or a phone types into the straight one', () => {
    for (const typed of ['l’amore', 'l‘amore', 'lʼamore', 'L`AMORE', 'l´amore']) {
      expect(fold(typed)).toBe("l'amore");
    }
    expect(filterByName([{ nome: "l'amore" }], 'l’amore')).toEqual([{ nome: "l'amore" }]);
  });

  it('folds the decomposed spelling like the composed one', () => {
    expect(fold('liberta\u0300')).toBe(fold('libert\u00e0'));
  });
});

describe('filterByName', () => {
  const tags = [{ nome: 'libertà' }, { nome: 'Città' }, { nome: 'muro' }];

  it('finds a name typed without its accent, or with another case', () => {
    expect(filterByName(tags, 'liberta')).toEqual([{ nome: 'libertà' }]);
    expect(filterByName(tags, ' CITTA ')).toEqual([{ nome: 'Città' }]);
    expect(filterByName(tags, 'LIBERTÀ')).toEqual([{ nome: 'libertà' }]);
  });

  it('keeps everything for a blank needle and nothing for a missing name', () => {
    expect(filterByName(tags, '  ')).toBe(tags);
    expect(filterByName(tags, 'roma')).toEqual([]);
  });
});
