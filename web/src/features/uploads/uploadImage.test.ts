import { describe, expect, it } from 'vitest';
import { titleFromFileName } from './uploadImage.js';

describe('titleFromFileName', () => {
  it('is the name as it is, which the server keeps without its image extension', () => {
    expect(titleFromFileName('Muro di via Roma.JPG')).toBe('Muro di via Roma.JPG');
    // Only the last extension is the server's to drop: 'foto.png' stays the title.
    expect(titleFromFileName('foto.png.jpg')).toBe('foto.png.jpg');
  });

  it('has its part before the extension cut to 200 code points between whole characters', () => {
    expect(titleFromFileName(`${'a'.repeat(250)}.jpg`)).toBe(`${'a'.repeat(200)}.jpg`);
    expect(titleFromFileName('a'.repeat(250))).toBe('a'.repeat(200));
    // A family emoji (five code points) that would cross the 200th is left out whole.
    expect(titleFromFileName(`${'a'.repeat(197)}👨‍👩‍👧.png`)).toBe(`${'a'.repeat(197)}.png`);
    expect(titleFromFileName(`${'a'.repeat(195)}👨‍👩‍👧.png`)).toBe(`${'a'.repeat(195)}👨‍👩‍👧.png`);
  });

  it('counts the name composed, as the server does', () => {
    // 'e' and a combining acute accent: one code point once composed.
    expect(titleFromFileName(`${'e\u0301'.repeat(200)}.jpg`)).toBe(`${'é'.repeat(200)}.jpg`);
  });
});
