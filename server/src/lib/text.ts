/**
 * The key under which names are unique "case-insensitively" (D6). Done in JavaScript rather
 * than with SQL lower(), whose fold is the database's (ASCII only in SQLite's own, the
 * locale's in PostgreSQL): 'Città' and 'CITTÀ' must collide on both engines alike. Upper case,
 * then lower, is full case folding where lower case alone is not: 'ß' (and 'ẞ') and 'ss', the
 * final 'ς' and 'σ', the dotless 'ı' and 'i' meet. So do the Turkish dotted capital 'İ' and
 * 'i': JavaScript lowers 'İ' to 'i' and a combining dot above (U+0307), which kept 'İstanbul'
 * apart from 'istanbul' (and 'Istanbul') while 'ıstanbul' met it; the dot is dropped after
 * an 'i', where it adds nothing to the letter (migration 2026-12-08T0900 moved the keys).
 */
export function foldKey(value: string): string {
  // Lower case first: the capital 'ẞ' upper-cases to itself, its small 'ß' to 'SS'.
  return value
    .normalize('NFC')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/i\u0307/gu, 'i')
    .normalize('NFC');
}

/**
 * The key as it was computed before 2026-11-27 (lower case only). The migration of that date
 * moved every key to foldKey but left a row on this one where its new key was already held,
 * so that both rows keep their names; only the login reads it (users.service findByUsername).
 */
export function lowerCaseKey(value: string): string {
  return value.normalize('NFC').toLocaleLowerCase('it-IT');
}

/**
 * Lower case without the accents Italian writes ('Città' → 'citta'): the back-office's image
 * search, in JavaScript and as the SQL function accentless_lower of both engines (db/database.ts,
 * migration 2026-12-03T0800), which must agree with it. Narrower than plainLetters on purpose:
 * a one-line SQL function can drop U+0300–U+036F after NFD, not spell letters out.
 */
export function accentlessLower(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/gu, '');
}

/**
 * Letters that NFKD leaves whole (they are not "letter + accent"), spelled out so that
 * 'STRAßE' and 'strasse', or 'cœur' and 'coeur', fold alike.
 */
const SPELLED_OUT: Readonly<Record<string, string>> = {
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
 * Lower case without accents or other marks, and the letters NFKD leaves whole spelled out:
 * 'Perché' → 'perche', 'Straße' → 'strasse'. NFKD also splits ligatures and full-width forms.
 */
export function plainLetters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/gu, (letter) => SPELLED_OUT[letter] ?? letter);
}

/**
 * Text folded for grouping and search (D7): two readings of the same writing should fold to the
 * same string even when they differ in case, accents, punctuation or spacing. Steps:
 * NFKD (which also splits ligatures and full-width forms), diacritics stripped, lower case,
 * a few OCR confusions repaired, anything that is not a letter or digit turned into a space,
 * spaces collapsed.
 *
 * The OCR repairs are deliberately conservative, touching only characters that cannot be what
 * the writer meant where they stand (see repairOcrConfusions); numbers such as '2000', 'h24' or
 * 'covid19' are left alone. Near-misses beyond that are the grouping's job (fuzzy matching),
 * not this function's.
 */
export function foldText(text: string): string {
  return repairOcrConfusions(plainLetters(text))
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Repairs, on lower-cased text, the OCR slips that are unambiguous in context:
 * - '|' touching a letter is an 'i' read as a bar ('t|' → 'ti', 'g|ulia' → 'giulia');
 * - a lone '0' in a word of two or more letters is an 'o' ('am0re', 'am0' → 'amo');
 * - a lone '1' between two letters is an 'i' ('c1ao' → 'ciao'); at a word's edge it could as
 *   well be an 'l' or a real number, so it stays.
 * "Lone" means not next to another digit, so real numbers never change.
 */
function repairOcrConfusions(text: string): string {
  const bars = text.replace(/\|(?=\p{L})|(?<=\p{L})\|/gu, 'i');
  return bars.replace(/[\p{L}\p{N}]+/gu, (word) => {
    if (!/[01]/.test(word)) return word;
    const letters = word.match(/\p{L}/gu)?.length ?? 0;
    if (letters < 2) return word;
    return word.replace(/(?<!\p{N})0(?!\p{N})/gu, 'o').replace(/(?<=\p{L})1(?=\p{L})/gu, 'i');
  });
}

/**
 * A category's name as visitors read it (SPEC §3): 'messaggi_di_protesta' → 'Di Protesta'.
 * The same rule as web/src/lib/format.ts categoryDisplayName, which the browser uses.
 */
export function categoryDisplayName(nome: string): string {
  const words = nome
    .replace(/^messaggio?_/iu, '')
    .split('_')
    .filter((word) => word !== '');
  if (words.length === 0) return nome;
  return words.map((word) => word.charAt(0).toLocaleUpperCase('it-IT') + word.slice(1)).join(' ');
}
