import { describe, expect, it } from 'vitest';
import { accentlessLower, foldKey, foldText } from '../src/lib/text.js';

describe('foldText', () => {
  it('folds case, accents, punctuation and spacing', () => {
    expect(foldText('TI AMO GIULIA!!')).toBe('ti amo giulia');
    expect(foldText("  L'amore   è\n\teterno…  ")).toBe('l amore e eterno');
    expect(foldText('Città—PERCHÉ? «Sì»')).toBe('citta perche si');
    expect(foldText('Ünïcödé İstanbul')).toBe('unicode istanbul');
  });

  it('gives the same key to two readings of one writing', () => {
    expect(foldText('Viva la Libertà!')).toBe(foldText('VIVA  LA LIBERTA'));
  });

  it('expands ligatures, full-width forms and letters NFKD keeps whole', () => {
    expect(foldText('ﬁne ＡＢＣ')).toBe('fine abc');
    expect(foldText('STRAßE Cœur Æther Łódź')).toBe('strasse coeur aether lodz');
  });

  it('turns symbols and emoji into spaces', () => {
    expect(foldText('#forza_roma ❤️ 4ever @mura')).toBe('forza roma 4ever mura');
    expect(foldText('¿?!…')).toBe('');
    expect(foldText('')).toBe('');
  });

  it('repairs only OCR slips that are unambiguous', () => {
    expect(foldText('T| AM0 G|ULIA')).toBe('ti amo giulia');
    expect(foldText('am0re c1ao')).toBe('amore ciao');
  });

  it('leaves real numbers and ambiguous digits alone', () => {
    expect(foldText('2000 h24 covid19 100anni')).toBe('2000 h24 covid19 100anni');
    // At a word's edge a 1 may be an l or a real number; a 0 next to one letter may be a code.
    expect(foldText('ss1 1love x0')).toBe('ss1 1love x0');
    // A bar between spaces is a separator, not a letter.
    expect(foldText('roma | lazio')).toBe('roma lazio');
  });

  it('does not change foldKey', () => {
    expect(foldKey('Città')).toBe('città');
  });

  it('folds keys fully: sharp s, final sigma and dotless i meet their letters', () => {
    expect(foldKey('Straße')).toBe(foldKey('STRASSE'));
    expect(foldKey('STRAẞE')).toBe('strasse');
    expect(foldKey('σασ')).toBe(foldKey('ΣΑΣ'));
    expect(foldKey('σας')).toBe(foldKey('σασ'));
    expect(foldKey('mar\u0131o')).toBe('mario');
    // NFC after folding: 'ΐ' upper-cases to three code points.
    expect(foldKey('\u0390')).toBe('\u0390');
  });
});

describe('accentlessLower', () => {
  it('lowers and drops the accents, and nothing else', () => {
    expect(accentlessLower('PERCHÉ NO À ÇA')).toBe('perche no a ca');
    expect(accentlessLower('Città, libertà: 100% _muri_')).toBe('citta, liberta: 100% _muri_');
    // The dot a capital İ lowers into is a combining mark too.
    expect(accentlessLower('İstanbul')).toBe('istanbul');
    // Letters that are not a letter plus an accent stay (unlike plainLetters).
    expect(accentlessLower('Straße Œuvre')).toBe('straße œuvre');
  });
});
