import { describe, expect, it } from 'vitest';
import { tagTooLong, tidyTagName } from './tagName.js';

describe('a tag name as the server stores it', () => {
  it('drops a leading hash after the spaces, and the spaces that follow it', () => {
    expect(tidyTagName('  #Roma ')).toBe('Roma');
    expect(tidyTagName('## muro   rosso')).toBe('muro rosso');
    expect(tidyTagName('viva#roma')).toBe('viva#roma');
  });

  it('counts characters, not UTF-16 units, and not the hash it drops', () => {
    expect(tagTooLong('a'.repeat(50))).toBe(false);
    expect(tagTooLong('a'.repeat(51))).toBe(true);
    expect(tagTooLong('😀'.repeat(50))).toBe(false);
    expect(tagTooLong(tidyTagName(`#${'a'.repeat(50)}`))).toBe(false);
  });
});
