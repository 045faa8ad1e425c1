import { stemmer } from '@orama/stemmers/italian';
import { IRREGULAR_PLURALS, NOUNS_IN_ANO } from './italian-forms.js';

/*
 * The text side of search, shared by documents and queries so both are processed identically:
 * fold (accents, case, punctuation) and stem every word with the Italian Snowball stemmer. The
 * engines then only match the resulting tokens, which is what makes SQLite and PostgreSQL find
 * exactly the same images (see search.service.ts).
 */

/** Longer "words" are noise (hashes, OCR garbage) and PostgreSQL refuses lexemes over 2 KB. */
const MAX_WORD_LENGTH = 64;
/**
 * Words kept per document field. A wall photo's OCR text is short; the bound only keeps a
 * pathological text from making a huge index entry (PostgreSQL also stops counting positions
 * at 16383, so words past that would rank differently on the two engines).
 */
const MAX_FIELD_WORDS = 2000;
/** Every query word must match (AND); beyond this many, extra words only cost time. */
const MAX_QUERY_TERMS = 12;
/** Latin letters that are not a base letter plus an accent, so NFKD leaves them whole. */
const PLAIN_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * Lower case, without accents or other marks, with every run of characters that are not
 * letters or digits turned into one space: 'Città!' → 'citta', 'messaggi_amore' →
 * 'messaggi amore', "l'amore" → 'l amore'.
 */
export function foldForSearch(text: string): string {
  return (
    text
      // NFKD splits 'à' into 'a' + a combining accent and spells out ligatures ('ﬁ' → 'fi').
      .normalize('NFKD')
      // After NFKD: compatibility forms may decompose into capitals ('㎁' → 'nA'), and
      // lower-casing 'İ' yields 'i' + a combining dot, which the next step removes.
      .toLowerCase()
      .replace(/\p{M}+/gu, '')
      .replace(/[ßæœøłđðþı]/gu, (letter) => PLAIN_LETTERS[letter] ?? letter)
      // '_' and every other punctuation or symbol separate words, and so do the modifier
      // letters shaped as apostrophes and primes (U+02B9–U+02BF: 'ʼ', 'ʻ', 'ʽ'...), which some
      // keyboards and converters type for "'": to Unicode they are letters, and
      // "sullʼasfalto" was one word that 'asfalto' never found.
      .replace(/(?:[^\p{L}\p{N}]|[\u02B9-\u02BF])+/gu, ' ')
      .trim()
  );
}

/**
 * The version of the terms words are indexed under (termOf). Stored documents made under an
 * older version are rebuilt by the search-rebuild job when a server starts; bump it with every
 * change of termOf or foldForSearch.
 * 1: the Snowball stem. 2: singular and plural joined where Snowball keeps them apart.
 * 3: irregular plurals and nouns in '-ano' joined too (italian-forms.ts).
 * 4: PostgreSQL stores the terms as they are, not split again by its text parser
 *    (search.repository.ts, tsvectorText).
 * 5: apostrophes typed as modifier letters (U+02B9–U+02BF) separate words (foldForSearch).
 */
export const SEARCH_TERMS_VERSION = 5;

/** A stem this long or longer loses a final vowel Snowball kept; a shorter one ('mai') keeps it. */
const MIN_STEM_WITH_VOWEL = 4;

/**
 * The term a folded word is indexed and searched under: its Italian Snowball stem, with the
 * final vowel Snowball keeps in short words dropped ('anno' and 'anni' → 'ann', 'alza' and
 * 'alze' → 'alz') and the 'h' that keeps a plural's c or g hard ('laghi' → 'lagh') dropped
 * after it, so that a word's singular and plural meet ('lago' → 'lag'). Irregular plurals are
 * searched as their singular ('uomini' → 'uomo'), nouns in '-ano' as their plural ('milano' →
 * 'milani'), where Snowball alone keeps the two apart (italian-forms.ts).
 */
export function termOf(word: string): string {
  const stemmed =
    IRREGULAR_PLURALS.get(word) ?? (NOUNS_IN_ANO.has(word) ? `${word.slice(0, -1)}i` : word);
  let term = stemmer(stemmed);
  if (term.length >= MIN_STEM_WITH_VOWEL && /[aeiou]$/.test(term)) term = term.slice(0, -1);
  if (/[cg]h$/.test(term)) term = term.slice(0, -1);
  return term;
}

/** The folded words of `text`, each reduced to its Italian stem: 'Muri che parlano' → ['mur', 'che', 'parl']. */
export function stemWords(text: string): string[] {
  return wordsAndStems(text).map(([, stem]) => stem);
}

/** The folded words of `text` with their stems: 'Muri' → [['muri', 'mur']]. */
export function wordsAndStems(text: string): Array<[word: string, stem: string]> {
  const folded = foldForSearch(text);
  if (folded === '') return [];
  const pairs: Array<[string, string]> = [];
  for (const word of folded.split(' ')) {
    if (word.length > MAX_WORD_LENGTH) continue;
    const stem = termOf(word);
    // The stemmer works on the folded word, so 'città' and 'citta' give the same stem.
    if (stem !== '') pairs.push([word, stem]);
  }
  return pairs;
}

/** What an image is found by, as read from the database. */
export interface SearchDocumentParts {
  title: string | null;
  tags: readonly string[];
  category: string | null;
  /** The OCR text. */
  text: string | null;
  username: string | null;
  /** The OCR's alternates: words it found likely but did not choose (jobs/image-analysis/ocr.ts). */
  alternates: string | null;
}

/**
 * The stored document: one field per ranking weight, each a space-separated list of stems.
 * Title weighs most, then tags and category, then the OCR text; the lowest weight, `author`
 * (the engines' field of that name), holds the uploader's name and the OCR's alternates, so a
 * photo found only by a word the OCR did not choose comes after those that read it.
 * `forms` is what the fallback's vocabulary learns from it (search.fuzzy.ts): each distinct
 * folded word and each stem, with the stem it is indexed as.
 */
export interface SearchDocument {
  title: string;
  tags: string;
  body: string;
  author: string;
  forms: ReadonlyArray<{ form: string; term: string }>;
}

export function searchDocument(parts: SearchDocumentParts): SearchDocument {
  const forms = new Map<string, { form: string; term: string }>();
  const field = (...texts: ReadonlyArray<string | null>): string => {
    const pairs = texts
      .flatMap((text) => (text === null ? [] : wordsAndStems(text)))
      .slice(0, MAX_FIELD_WORDS);
    for (const [word, stem] of pairs) {
      forms.set(`${word} ${stem}`, { form: word, term: stem });
      forms.set(`${stem} ${stem}`, { form: stem, term: stem });
    }
    return pairs.map(([, stem]) => stem).join(' ');
  };
  return {
    title: field(parts.title),
    tags: field(...parts.tags, parts.category),
    body: field(parts.text),
    author: field(parts.username, parts.alternates),
    forms: [...forms.values()],
  };
}

/**
 * The distinct stems of a query, every one of them required (AND); empty when the query has
 * no word at all (only spaces or punctuation).
 */
export function queryTerms(query: string): string[] {
  return queryWords(query).map(({ stem }) => stem);
}

/** The query's distinct stems as queryTerms, each with the first word that gave it. */
export function queryWords(query: string): Array<{ word: string; stem: string }> {
  const byStem = new Map<string, string>();
  for (const [word, stem] of wordsAndStems(query)) if (!byStem.has(stem)) byStem.set(stem, word);
  return [...byStem].map(([stem, word]) => ({ word, stem })).slice(0, MAX_QUERY_TERMS);
}
