import { describe, expect, it } from 'vitest';
import {
  ALT_MAX_LENGTH,
  imageAltText,
  imageLinkLabel,
  imageTitle,
  truncate,
  UNTITLED,
} from './imageText.js';

const amore = { id_categoria: 4, nome: 'messaggi_amore' };
const none = { id_categoria: 1, nome: 'Non categorizzata' };

describe('imageAltText', () => {
  it('is the title when there is one', () => {
    expect(
      imageAltText({ titolo_img: 'Ti amo Giulia', extracted_text: 'TI AMO', category: amore }),
    ).toBe('Ti amo Giulia');
  });

  it('is the text read on the wall when the title is missing or blank', () => {
    expect(imageAltText({ titolo_img: null, extracted_text: 'FORZA ROMA', category: amore })).toBe(
      'FORZA ROMA',
    );
    expect(
      imageAltText({ titolo_img: '  \n ', extracted_text: 'VIVA LA\nLIBERTÀ  ', category: amore }),
    ).toBe('VIVA LA LIBERTÀ');
  });

  it("falls back to 'Scritta sul muro' with the category's display name", () => {
    expect(imageAltText({ titolo_img: null, extracted_text: null, category: amore })).toBe(
      'Scritta sul muro, categoria Amore',
    );
    expect(imageAltText({ titolo_img: '', category: amore })).toBe(
      'Scritta sul muro, categoria Amore',
    );
  });

  it('ignores OCR noise with fewer than three letters', () => {
    for (const noise of ['|', ' ~ , ', 'a1 2', '—', '']) {
      expect(imageAltText({ titolo_img: null, extracted_text: noise, category: amore })).toBe(
        'Scritta sul muro, categoria Amore',
      );
    }
    expect(imageAltText({ titolo_img: null, extracted_text: 'NO!', category: amore })).toBe(
      'Scritta sul muro, categoria Amore',
    );
    expect(imageAltText({ titolo_img: null, extracted_text: 'SÌ 3 VOLTE', category: amore })).toBe(
      'SÌ 3 VOLTE',
    );
  });

  it("leaves out 'Non categorizzata' and a missing category", () => {
    expect(imageAltText({ titolo_img: null, extracted_text: null, category: none })).toBe(UNTITLED);
    expect(imageAltText({ titolo_img: null, category: null })).toBe(UNTITLED);
    expect(imageAltText({ titolo_img: null })).toBe(UNTITLED);
  });

  it('cuts long texts to at most 125 characters, at a word, with an ellipsis', () => {
    const wall = `${'PAROLA '.repeat(40)}FINE`;
    const alt = imageAltText({ titolo_img: null, extracted_text: wall, category: amore });
    expect(Array.from(alt).length).toBeLessThanOrEqual(ALT_MAX_LENGTH);
    expect(alt).toMatch(/^PAROLA( PAROLA)+…$/);
    const title = 'Una frase lunghissima '.repeat(10);
    expect(Array.from(imageAltText({ titolo_img: title })).length).toBeLessThanOrEqual(125);
  });
});

describe('truncate', () => {
  it('leaves short texts alone', () => {
    expect(truncate('Ciao')).toBe('Ciao');
    const exact = 'x'.repeat(ALT_MAX_LENGTH);
    expect(truncate(exact)).toBe(exact);
  });

  it('cuts a text without spaces mid-word, and counts characters, not UTF-16 units', () => {
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('😀😀😀😀😀😀', 4)).toBe('😀😀😀…');
  });

  it('drops trailing punctuation before the ellipsis', () => {
    expect(truncate('uno due, tre quattro', 9)).toBe('uno due…');
  });
});

describe('imageTitle', () => {
  it("is the title, or 'Scritta sul muro' when it is missing", () => {
    expect(imageTitle({ titolo_img: ' Forza  Roma ' })).toBe('Forza Roma');
    expect(imageTitle({ titolo_img: null, extracted_text: 'TESTO' })).toBe('Scritta sul muro');
  });
});

describe('imageLinkLabel', () => {
  const untitled = { titolo_img: null, category: { id_categoria: 1, nome: 'Non categorizzata' } };

  it('is the whole title when there is one, however long', () => {
    const long = 'Parole '.repeat(40).trim();
    expect(imageLinkLabel({ titolo_img: 'Ti amo Roma' })).toBe('Ti amo Roma');
    expect(imageLinkLabel({ titolo_img: long, extracted_text: 'ALTRO' })).toBe(long);
  });

  it('starts with the caption and adds what the wall says without a title', () => {
    expect(imageLinkLabel({ ...untitled, extracted_text: 'FORZA\nROMA' })).toBe(
      `${UNTITLED}: FORZA ROMA`,
    );
    expect(imageLinkLabel(untitled)).toBe(UNTITLED);
    expect(
      imageLinkLabel({ titolo_img: '  ', category: { id_categoria: 4, nome: 'messaggi_amore' } }),
    ).toBe(`${UNTITLED}, categoria Amore`);
  });
});
