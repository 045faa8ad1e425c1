import { describe, expect, it } from 'vitest';
import { tagsProblem, tidyTagNames } from './imageTags.js';

describe('tags typed in the image edit dialog', () => {
  it('drops hashes, extra spaces, blanks and case-insensitive repeats, keeping the first spelling', () => {
    expect(tidyTagNames(['#Roma ', 'roma', '  ', 'muro   rosso', 'Muro Rosso', 'Àncora'])).toEqual([
      'Roma',
      'muro rosso',
      'Àncora',
    ]);
  });

  it('merges the names the server keeps as one, and keeps those it keeps apart', () => {
    expect(tidyTagNames(['İzmir', 'izmir', 'Straße', 'STRASSE', 'papà', 'papa'])).toEqual([
      'İzmir',
      'Straße',
      'papà',
      'papa',
    ]);
  });

  it('accepts up to 10 tags of up to 50 characters', () => {
    const ten = Array.from({ length: 10 }, (_, index) => `tag${index}`);
    expect(tagsProblem(ten)).toBeNull();
    expect(tagsProblem(['a'.repeat(50)])).toBeNull();
    expect(tagsProblem([])).toBeNull();
  });

  it('refuses an eleventh tag and a name over 50 characters', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `tag${index}`);
    expect(tagsProblem(eleven)).toBe('Puoi assegnare al massimo 10 tag.');
    expect(tagsProblem(['ok', 'a'.repeat(51)])).toBe(
      'Ogni tag può contenere al massimo 50 caratteri.',
    );
  });
});
