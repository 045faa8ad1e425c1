/*
 * Shape rules of an account, shared by the request schemas, the administrator bootstrap and
 * the services, so every way in accepts the same names.
 */
import { lengthOf } from '../../lib/typed-text.js';

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
 * A normalised username: letters, digits, dot, underscore and hyphen, none of them invisible
 * (Default_Ignorable: Hangul fillers, U+034F, variation selectors, Khmer's silent vowels).
 * A letter outside the alphabets that pass for one another (Latin, Greek, Cyrillic) may carry
 * up to three marks (the vowel signs of Devanagari or Thai, which have no precomposed
 * letters), none of them shared by all scripts (Inherited, Common). A Latin, Greek or Cyrillic
 * letter carries none: NFC has already made its accents part of it, and a mark left over
 * would stack ('á́'), strike it through or hide behind it, so that 'admin' followed by one
 * would pass for 'admin'.
 */
const VISIBLE = '(?!\\p{Default_Ignorable_Code_Point})';
const OWN_MARK = `(?:(?![\\p{Script=Inherited}\\p{Script=Common}])${VISIBLE}\\p{M})`;
const LOOK_ALIKE_LETTER = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}]';
const STORED_USERNAME = new RegExp(
  `^(?:${VISIBLE}(?:(?!${LOOK_ALIKE_LETTER})\\p{L}${OWN_MARK}{0,3}|\\p{L})|[\\p{N}._-])+$`,
  'u',
);
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** Longer inputs would only cost hashing time; nobody types 256 characters. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Whether a new password is shorter than the rule. Counted in characters (code points), as the
 * request schemas' `minLength` counts them: a string's UTF-16 length took four emoji for the
 * eight characters asked, so a profile edit or an administrator's reset accepted a password
 * that registration refuses.
 */
export function isPasswordTooShort(password: string): boolean {
  return lengthOf(password) < PASSWORD_MIN_LENGTH;
}

/** Whether a username, normalised by `normalizeUsername`, may be stored. */
export function isValidUsername(normalized: string): boolean {
  return usernameLengthProblem(normalized) === undefined && hasUsernameCharacters(normalized);
}

/** Whether a normalised username holds only the characters a stored one may (length aside). */
export function hasUsernameCharacters(normalized: string): boolean {
  return STORED_USERNAME.test(normalized);
}

/**
 * The message for a normalised username too short or too long, if it is. Counted in characters
 * (code points) as the request schema counts them: a UTF-16 length made twenty letters of an
 * alphabet outside the BMP (Adlam, a CJK extension's ideographs) forty, refused as if they
 * were not letters. NFKC may lengthen a name ('ﷺ' is eighteen letters): said here too.
 */
export function usernameLengthProblem(normalized: string): string | undefined {
  const length = lengthOf(normalized);
  if (length < USERNAME_MIN_LENGTH) return USER_MESSAGES.usernameTooShort;
  if (length > USERNAME_MAX_LENGTH) return USER_MESSAGES.usernameTooLong;
  return undefined;
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
  passwordTooLong: `La password può contenere al massimo ${PASSWORD_MAX_LENGTH} caratteri.`,
  currentPasswordRequired: 'Per cambiare email o password inserisci la password attuale.',
  currentPasswordWrong: 'La password attuale non è corretta.',
  ageRequired: 'Devi dichiarare di avere almeno 16 anni per registrarti.',
  usernameTooShort: `Lo username deve contenere almeno ${USERNAME_MIN_LENGTH} caratteri.`,
  usernameTooLong: `Lo username può contenere al massimo ${USERNAME_MAX_LENGTH} caratteri.`,
  usernameCharacters:
    'Lo username può contenere solo lettere, numeri, punti, trattini e trattini bassi.',
  mixedScripts:
    'Lo username non può mescolare alfabeti diversi (per esempio lettere latine e cirilliche).',
  leaving: 'L’utente ha chiesto di eliminare il suo account: non può essere riattivato.',
  staleEdit:
    'Questo utente è stato modificato da qualcun altro dopo che l’hai aperto: ricarica per vedere i dati aggiornati e ripeti la modifica.',
} as const;
