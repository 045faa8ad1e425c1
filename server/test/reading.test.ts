import { describe, expect, it } from 'vitest';
import { buildEvalSet } from '../eval/dataset.js';
import {
  characterErrorRate,
  otherForm,
  pairwise,
  scoreReading,
  searchQuery,
  wordAccuracy,
} from '../eval/metrics.js';
import { textOf, writingAngle } from '../src/jobs/image-analysis/ocr.js';
import { boxesOf, type TextLine } from '../src/jobs/image-analysis/scene-text.js';
import { mendLine, segmentToken } from '../src/jobs/image-analysis/mending.js';
import { isItalianWord, nearestItalianWord } from '../src/jobs/image-analysis/words.js';

/* Issue 9: how lines are found, ordered and made into Italian words, and how it is scored. */

describe('Italian word list', () => {
  it('knows inflected Italian words and names, folded', () => {
    for (const word of ['muri', 'sono', 'liberta', 'giulia', 'costituzione']) {
      expect(isItalianWord(word)).toBe(true);
    }
    expect(isItalianWord('xqzt')).toBe(false);
  });

  it('mends a word one slip away from an Italian word, and leaves the rest alone', () => {
    expect(nearestItalianWord('guera')).toBe('guerra');
    expect(nearestItalianWord('costituzlone')).toBe('costituzione');
    expect(nearestItalianWord('libertta')).toBe('liberta');
    // Known words, short words, numbers and hopeless strings stay as read.
    expect(nearestItalianWord('amore')).toBeNull();
    expect(nearestItalianWord('uva')).toBeNull();
    expect(nearestItalianWord('2019')).toBeNull();
    expect(nearestItalianWord('xqztk')).toBeNull();
  });
});

describe('glued words and slips', () => {
  it('parts words the recogniser glued together', () => {
    expect(segmentToken('siamoqui')).toEqual(['siamo', 'qui']);
    expect(segmentToken('tiaspettero')).toEqual(['ti', 'aspettero']);
    expect(segmentToken('napolie')).toEqual(['napoli', 'e']);
    // An elided article glued to its word: "l'esame" read without the apostrophe.
    expect(segmentToken('lesame')).toEqual(['l', 'esame']);
    // Glued and misread at once.
    expect(segmentToken('domanieunaltroghorno')).toEqual(['domani', 'e', 'un', 'altro', 'giorno']);
  });

  it('mends one slip, and leaves words, numbers and what it cannot tell alone', () => {
    expect(segmentToken('chiedond')).toEqual(['chiedono']);
    expect(segmentToken('sorelle')).toBeNull();
    expect(segmentToken('rosanero')).toBeNull();
    expect(segmentToken('2019')).toBeNull();
    expect(segmentToken('xqzt')).toBeNull();
    // Short common words are not a licence to cut any unknown token into pieces.
    expect(segmentToken('vergoans')).not.toEqual(['ver', 'go', 'ans']);
  });

  it('reads letters the recogniser confuses as the word they make', () => {
    expect(segmentToken('6uerra')).toEqual(['guerra']);
    expect(segmentToken('me33e')).toEqual(['mezze']);
    expect(segmentToken('gtusto')).toEqual(['giusto']);
    expect(segmentToken('llmondo')).toEqual(['il', 'mondo']);
    expect(segmentToken('vna')).toEqual(['una']);
  });

  it('keeps verbs with a pronoun joined, and parts numbers glued to words', () => {
    for (const word of ['saperli', 'amami', 'aspettami', 'ribellati', 'dimmi']) {
      expect(segmentToken(word)).toBeNull();
    }
    // Not a pronoun after a fragment that is no verb ('gio' + 'mi'): an 'rn' read as 'm'.
    expect(segmentToken('giomi')).toEqual(['giorni']);
    expect(segmentToken('90anni')).toEqual(['90', 'anni']);
    expect(segmentToken('luca3')).toEqual(['luca', '3']);
    expect(segmentToken('1987')).toBeNull();
  });

  it('gives words the accents Italian always writes them with', () => {
    expect(mendLine('VIVA LA LIBERTA')).toBe('VIVA LA LIBERTÀ');
    expect(mendLine('Perche?')).toBe('Perché?');
    expect(mendLine('Sanita pubblica')).toBe('Sanità pubblica');
  });

  it('mends a line in the case it was written in, keeping its punctuation', () => {
    expect(mendLine('TIAMO GIULIA')).toBe('TI AMO GIULIA');
    expect(mendLine('Fra,ci vediamo')).toBe('Fra, ci vediamo');
    expect(mendLine('ROSA,90ANNI')).toBe('ROSA, 90 ANNI');
    expect(mendLine('Civolete zitti!')).toBe('Ci volete zitti!');
    expect(mendLine('')).toBe('');
  });

  it('joins the parts of a word that something in front of the wall parted', () => {
    // A pole hid a letter: the two parts and the letter between them spell one word.
    expect(mendLine('LE STE LE NON')).toBe('LE STELLE NON');
    expect(mendLine('Sempre ins eme, mai')).toBe('Sempre insieme, mai');
    // A letter alone is a part when what stands beside it is no word at all.
    expect(mendLine('LA SCUO A')).toBe('LA SCUOLA');
    // Two words stay two words, and a letter alone beside a word is a word of its own.
    expect(mendLine('TI AMO')).toBe('TI AMO');
    expect(mendLine('ama e fai')).toBe('ama e fai');
    expect(mendLine('DI TE')).toBe('DI TE');
    // Glued as they are, a word and a piece are likelier a word and a misread one.
    expect(mendLine('Gra no.')).toBe('Gra no.');
  });
});

describe('text lines', () => {
  const line = (text: string, cx: number, cy: number, height = 40): TextLine => ({
    text,
    confidence: 0.9,
    readings: [{ text, logProbability: -0.1 }],
    box: { cx, cy, width: 200, height, angle: 0 },
  });

  it('reads the lines top to bottom and the words of a line left to right', () => {
    const result = textOf([
      line('voce', 500, 210),
      line('ogni muro', 300, 100),
      line('ha una', 250, 195),
    ]);
    expect(result.text).toBe('ogni muro\nha una voce');
    expect(result.confidence).toBe(90);
    expect(textOf([])).toEqual({ text: '', confidence: 0, alternates: '' });
  });

  it('reads a writing photographed at an angle along its lines, not by height', () => {
    // Two lines tilted 15° clockwise, each parted by the detector into two boxes.
    const radians = (15 * Math.PI) / 180;
    const tilted = (text: string, along: number, across: number, width = 200): TextLine => ({
      ...line(text, 0, 0),
      box: {
        cx: along * Math.cos(radians) - across * Math.sin(radians),
        cy: along * Math.sin(radians) + across * Math.cos(radians),
        width,
        height: 40,
        angle: 15,
      },
    });
    const boxes = [
      tilted('ogni muro', 200, 200),
      tilted('ha', 520, 200, 80),
      tilted('una', 200, 300),
      tilted('voce', 450, 300),
    ];
    expect(textOf(boxes).text).toBe('ogni muro ha\nuna voce');
    // A box no longer than high (a letter, a mark) says nothing of the direction.
    const speck = tilted('Z', 900, 250, 40);
    speck.box.angle = -40;
    expect(writingAngle([...boxes, speck])).toBe(15);
    // Upright writing is read as before.
    expect(writingAngle([line('ogni muro', 300, 100)])).toBe(0);
  });

  it('drops short lines of no word read unsurely, as specks of the wall', () => {
    const unsure = (text: string, cy: number): TextLine => ({
      ...line(text, 300, cy),
      confidence: 0.6,
    });
    // Four letters or fewer, no word, under 0.9: texture ('Shim' beside GRAZIE MAMMA).
    expect(textOf([line('GRAZIE MAMMA', 300, 300), unsure('Shim', 100)]).text).toBe('GRAZIE MAMMA');
    // A word that short stays however unsure; so do longer lines and sure ones.
    expect(textOf([unsure('casa', 100)]).text).toBe('casa');
    expect(textOf([unsure('Shimo', 100)]).text).not.toBe('');
    expect(textOf([line('Shim', 100, 100)]).text).not.toBe('');
  });

  it('chooses among the likeliest readings of a line the one made of Italian words', () => {
    const hesitant: TextLine = {
      ...line('non si qwrende', 100, 100),
      readings: [
        { text: 'non si qwrende', logProbability: -1.1 },
        { text: 'non si arrende', logProbability: -2.5 },
      ],
    };
    // Two slips from 'arrende': the mending alone could not have read it.
    expect(textOf([hesitant]).text).toBe('non si arrende');
    // A far less likely reading is not taken for being Italian.
    const sure: TextLine = {
      ...line('ciao', 100, 100),
      readings: [
        { text: 'ciao', logProbability: -0.1 },
        { text: 'cibo', logProbability: -9 },
      ],
    };
    expect(textOf([sure]).text).toBe('ciao');
  });

  it("keeps the likely readings' other Italian words as alternates for search", () => {
    const torn: TextLine = {
      ...line('CHI SEI QUANDO NESSO NO', 100, 100),
      readings: [
        { text: 'CHI SEI QUANDO NESSO NO', logProbability: -0.6 },
        { text: 'CHI SEI QUANDO NESSUNO', logProbability: -1.4 },
        { text: 'CHI SEI QUANDO NE SSO NO', logProbability: -2.0 },
        { text: 'CHE SEI QUANDO NESSUNA', logProbability: -3.1 },
        // Far less likely than the best: not an alternate, though Italian.
        { text: 'CHI SEI QUANDO NESSO CANE', logProbability: -9.5 },
      ],
    };
    const result = textOf([torn]);
    expect(result.text).toBe('CHI SEI QUANDO NESSO NO');
    // Folded, each once, none the text already holds, none under four letters ('che').
    expect(result.alternates).toBe('nessuno nessuna');
    expect(textOf([line('ogni muro', 100, 100)]).alternates).toBe('');
  });

  it('keeps a word as read when mending replaced it, as an alternate for search', () => {
    // 'diem' is no word of the lists and one slip from 'die', which the mending writes; a
    // visitor searching the motto types 'diem'.
    const motto = textOf([line('Carpe diem', 100, 100)]);
    expect(motto.text).toBe('Carpe die');
    expect(motto.alternates).toBe('diem');
    // Digits read for letters are confusions mended, not words anyone searches for.
    expect(textOf([line('6UERRA', 100, 100)])).toMatchObject({ text: 'GUERRA', alternates: '' });
  });

  it('finds each line of a probability map as a box around its core', () => {
    // Two lines' cores, 60 × 8 and 40 × 6 px, on a 128 × 64 map; a faint smudge is no line.
    const width = 128;
    const height = 64;
    const map = new Float32Array(width * height);
    const fill = (left: number, top: number, w: number, h: number, value: number) => {
      for (let y = top; y < top + h; y += 1)
        for (let x = left; x < left + w; x += 1) map[y * width + x] = value;
    };
    fill(10, 10, 60, 8, 0.95);
    fill(20, 40, 40, 6, 0.9);
    fill(100, 50, 10, 10, 0.35);
    const boxes = boxesOf(map, width, height).sort((a, b) => a.cy - b.cy);
    expect(boxes).toHaveLength(2);
    const [first, second] = boxes;
    expect(first?.cx).toBeCloseTo(40);
    expect(first?.cy).toBeCloseTo(14);
    expect(Math.abs(first?.angle ?? 1)).toBeLessThan(1e-6);
    // Grown by the unclip ratio: wider and taller than the core, along the writing.
    expect(first?.width).toBeGreaterThan(60);
    expect(first?.height).toBeGreaterThan(8);
    expect(first?.width).toBeGreaterThan(first?.height ?? Infinity);
    expect(second?.cy).toBeCloseTo(43);
  });

  it('measures the angle of a slanted line', () => {
    const width = 200;
    const height = 120;
    const map = new Float32Array(width * height);
    const radians = (10 * Math.PI) / 180;
    // A 120 × 10 px core turned 10° clockwise about (100, 60).
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const dx = x + 0.5 - 100;
        const dy = y + 0.5 - 60;
        const u = dx * Math.cos(radians) + dy * Math.sin(radians);
        const v = -dx * Math.sin(radians) + dy * Math.cos(radians);
        if (Math.abs(u) <= 60 && Math.abs(v) <= 5) map[y * width + x] = 0.9;
      }
    }
    const [box] = boxesOf(map, width, height);
    expect(box?.angle).toBeCloseTo(10, 0);
    expect(box?.cx).toBeCloseTo(100, 0);
    expect(box?.cy).toBeCloseTo(60, 0);
  });
});

describe('evaluation scores', () => {
  it('scores readings on folded text, by words and by characters', () => {
    const exact = scoreReading('Città, ti amo!', 'CITTA TI AMO');
    expect(wordAccuracy(exact)).toBe(1);
    expect(characterErrorRate(exact)).toBe(0);
    const slip = scoreReading('ti amo giulia', 'ti amo giuiia');
    expect(wordAccuracy(slip)).toBeCloseTo(2 / 3);
    expect(slip.characterErrors).toBe(1);
    // Nothing read: every word and character is an error, never more.
    expect(wordAccuracy(scoreReading('ti amo', ''))).toBe(0);
    expect(characterErrorRate(scoreReading('ti amo', 'x y z w v u t s r q'))).toBe(1);
  });

  it('counts pairwise precision and recall', () => {
    const truth = new Map([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
      [5, 3],
    ]);
    const result = pairwise(
      [
        [1, 2],
        [3, 4],
      ],
      (id) => truth.get(id) ?? 0,
      [1, 2, 3, 4, 5],
    );
    expect(result).toMatchObject({ truePairs: 3, predictedPairs: 2, hits: 1 });
    expect(result.precision).toBe(0.5);
    expect(result.recall).toBeCloseTo(1 / 3);
  });

  it('asks for another Italian form of the words, without accents', () => {
    expect(otherForm('muro')).toBe('muri');
    expect(otherForm('parola')).toBe('parole');
    expect(otherForm('Libertà')).toBe('liberta');
    expect(searchQuery('Ti amo', () => 0)).toBeNull();
    expect(searchQuery('Ogni muro ha una voce', () => 0)).toBe('muri voce');
  });

  it('builds the same labelled set for the same seed', () => {
    const a = buildEvalSet(40, 'test');
    const b = buildEvalSet(40, 'test');
    expect(a).toEqual(b);
    expect(a).toHaveLength(40);
    expect(buildEvalSet(40, 'other')[0]?.text).not.toBe(undefined);
    // Copies share their writing; different writings on one wall share the wall only.
    const byWriting = new Map<number, number>();
    for (const item of a) byWriting.set(item.writing, (byWriting.get(item.writing) ?? 0) + 1);
    expect(Math.max(...byWriting.values())).toBe(3);
    const shared = a.filter((item) => item.role === 'shared-wall');
    expect(shared.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shared.map((item) => item.writing)).size).toBe(shared.length);
  });
});
