/*
 * Shape rules of an account, shared by the request schemas, the administrator bootstrap and
 * the services, so every way in accepts the same names.
 */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
/**
 * What a request's username may hold before it is normalised: letters of any alphabet with
 * their marks, digits, dot, underscore and hyphen. Marks are let through because an accent may
 * arrive as a letter and a combining mark ('o' + U+0300 for 'ò', as some systems type it);
 * `isValidUsername` decides on the normalised name.
 */
export const USERNAME_PATTERN = '^[\\p{L}\\p{M}\\p{N}._-]+$';
/**
 * A normalised username: each letter may carry up to three marks of its own script (the vowel
 * signs of Devanagari or Thai, which have no precomposed letters). Marks shared by all scripts
 * (Inherited, Common) are what NFC already composed into accented letters; any left over would
 * stack ('á́'), be invisible (U+034F, variation selectors) or strike a letter through, so that
 * 'admin' followed by one of them would pass for 'admin'.
 */
const STORED_USERNAME =
  /^(?:\p{L}(?:(?![\p{Script=Inherited}\p{Script=Common}])\p{M}){0,3}|[\p{N}._-])+$/u;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** Longer inputs would only cost hashing time; nobody types 256 characters. */
export const PASSWORD_MAX_LENGTH = 256;

/** Whether a username, normalised by `normalizeUsername`, may be stored. */
export function isValidUsername(normalized: string): boolean {
  return (
    normalized.length >= USERNAME_MIN_LENGTH &&
    normalized.length <= USERNAME_MAX_LENGTH &&
    STORED_USERNAME.test(normalized)
  );
}

/**
 * The form a username is stored and compared in. NFKC folds compatibility look-alikes
 * (fullwidth 'ａｄｍｉｎ', ligatures, superscripts) into the letters they imitate.
 */
export function normalizeUsername(value: string): string {
  return value.normalize('NFKC');
}

/** The alphabets whose letters pass for one another ('а' Cyrillic, 'a' Latin, 'α' Greek). */
const CONFUSABLE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];

/**
 * True when a name mixes Latin, Greek and Cyrillic letters: the way 'аdmin' (first letter
 * Cyrillic) impersonates 'admin'. Names wholly in one alphabet, digits and punctuation pass.
 */
export function mixesScripts(value: string): boolean {
  return CONFUSABLE_SCRIPTS.filter((script) => script.test(value)).length > 1;
}

export const USER_MESSAGES = {
  taken: 'Username o email già in uso',
  invalidCredentials: 'Username o password non validi',
  inactive: 'Account disattivato',
  notFound: 'Utente non trovato',
  passwordTooShort: 'La password deve essere di almeno 8 caratteri',
  currentPasswordRequired: 'Per cambiare email o password inserisci la password attuale.',
  currentPasswordWrong: 'La password attuale non è corretta.',
  ageRequired: 'Devi dichiarare di avere almeno 16 anni per registrarti.',
  usernameCharacters:
    'Lo username può contenere solo lettere, numeri, punti, trattini e trattini bassi.',
  mixedScripts:
    'Lo username non può mescolare alfabeti diversi (per esempio lettere latine e cirilliche).',
} as const;
