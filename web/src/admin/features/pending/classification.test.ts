import { describe, expect, it } from 'vitest';
import type { ModerationHints, PendingImage } from '../../types.js';
import { addTags, classificationChange, cleanTags, suggestionsPending } from './classification.js';

const image = {
  id_image: 7,
  category: { id_categoria: 1, name: 'Non categorizzata' },
  tags: ['Roma', 'amore'],
} as unknown as PendingImage;

const hints: ModerationHints = {
  possible_duplicates: [],
  suggested_category: { id_categoria: 4, nome: 'messaggi_amore' },
  suggested_tags: [
    { id_tag: 1, nome: 'amore' },
    { id_tag: 2, nome: 'cuore' },
  ],
};

describe('the classification chosen before approving', () => {
  it('is nothing to save when category and tags are unchanged', () => {
    expect(classificationChange(image, 1, ['Roma', 'amore'])).toBeNull();
    expect(classificationChange(image, 1, [' amore', 'roma '])).toBeNull();
  });

  it('is the whole choice when the category or the tags changed', () => {
    expect(classificationChange(image, 4, ['Roma', 'amore'])).toEqual({
      id_categoria: 4,
      tags: ['Roma', 'amore'],
    });
    expect(classificationChange(image, 1, ['Roma'])).toEqual({ id_categoria: 1, tags: ['Roma'] });
    expect(classificationChange(image, 1, ['Roma', 'amore', 'cuore'])).toEqual({
      id_categoria: 1,
      tags: ['Roma', 'amore', 'cuore'],
    });
  });

  it('cleans tag names and keeps the limit of ten', () => {
    expect(cleanTags(['  muro  alto ', '', 'Città', 'citta', 'MURO ALTO'])).toEqual([
      'muro alto',
      'Città',
    ]);
    const ten = Array.from({ length: 10 }, (_, index) => `tag${index}`);
    expect(addTags(ten, ['altro'])).toEqual(ten);
    expect(addTags(['Roma'], ['roma', 'cuore'])).toEqual(['Roma', 'cuore']);
  });

  it('knows whether the suggestions still add something', () => {
    expect(suggestionsPending(hints, 1, ['Roma', 'amore'])).toBe(true);
    expect(suggestionsPending(hints, 4, ['Roma', 'amore'])).toBe(true);
    expect(suggestionsPending(hints, 4, ['Roma', 'Amore', 'cuore'])).toBe(false);
    const bare = { ...hints, suggested_category: null, suggested_tags: [] };
    expect(suggestionsPending(bare, 1, [])).toBe(false);
  });
});
