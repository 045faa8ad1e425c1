import { describe, expect, it } from 'vitest';
import { titleFromFileName } from './uploadImage.js';

describe('titleFromFileName', () => {
  it('is the name without its image extension', () => {
    expect(titleFromFileName('Muro di via Roma.JPG')).toBe('Muro di via Roma');
    expect(titleFromFileName('scritta.webp')).toBe('scritta');
    expect(titleFromFileName('archivio.tar.gz')).toBe('archivio.tar.gz');
  });

  it('is cut to 200 code points between whole characters, as the server counts', () => {
    expect(titleFromFileName(`${'a'.repeat(250)}.jpg`)).toBe('a'.repeat(200));
    // A family emoji (five code points) that would cross the 200th is left out whole.
    expect(titleFromFileName(`${'a'.repeat(197)}👨‍👩‍👧.png`)).toBe('a'.repeat(197));
    expect(titleFromFileName(`${'a'.repeat(195)}👨‍👩‍👧.png`)).toBe(`${'a'.repeat(195)}👨‍👩‍👧`);
  });
});
