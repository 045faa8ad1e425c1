import { describe, expect, it } from 'vitest';
import { filterTagsByName, tagSummary } from './tagFigures.js';

const tag = (nome: string, image_count: number) => ({ nome, image_count });

describe('tag summary figures', () => {
  it('is all zeros with no tags', () => {
    expect(tagSummary([])).toEqual({ total: 0, mostUsed: null, average: 0 });
  });

  it('counts the tags, finds the most used and rounds the average', () => {
    // 10 images over 3 tags: 3.33 rounds down.
    expect(tagSummary([tag('roma', 2), tag('amore', 7), tag('vuoto', 1)])).toEqual({
      total: 3,
      mostUsed: { nome: 'amore', image_count: 7 },
      average: 3,
    });
    // 5 images over 2 tags: 2.5 rounds up.
    expect(tagSummary([tag('a', 2), tag('b', 3)]).average).toBe(3);
    // 5 images over 3 tags: 1.67 rounds up.
    expect(tagSummary([tag('a', 0), tag('b', 0), tag('c', 5)]).average).toBe(2);
  });

  it('keeps the first of equally used tags and counts unused ones', () => {
    expect(tagSummary([tag('primo', 0), tag('secondo', 0)])).toEqual({
      total: 2,
      mostUsed: { nome: 'primo', image_count: 0 },
      average: 0,
    });
  });
});

describe('tag filter', () => {
  const tags = [tag('Roma', 1), tag('amore', 2), tag('ROMANTICO', 0), tag('Città', 3)];

  it('matches part of the name, ignoring case and accents', () => {
    expect(filterTagsByName(tags, 'rom').map((t) => t.nome)).toEqual(['Roma', 'ROMANTICO']);
    expect(filterTagsByName(tags, '  CITTÀ ').map((t) => t.nome)).toEqual(['Città']);
    expect(filterTagsByName(tags, 'citta').map((t) => t.nome)).toEqual(['Città']);
    expect(filterTagsByName(tags, 'nessuno')).toEqual([]);
  });

  it('shows everything for a blank filter', () => {
    expect(filterTagsByName(tags, '   ')).toBe(tags);
  });
});
