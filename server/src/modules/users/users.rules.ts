/*
 * Shape rules of an account, shared by the request schemas, the administrator bootstrap and
 * the services, so every way in accepts the same names.
 */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
/** Letters of any alphabet, digits, dot, underscore and hyphen: no spaces, no look-alike tricks. */
export const USERNAME_PATTERN = '^[\\p{L}\\p{N}._-]+$';
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** Longer inputs would only cost hashing time; nobody types 256 characters. */
export const PASSWORD_MAX_LENGTH = 256;

export function isValidUsername(value: string): boolean {
  return (
    value.length >= USERNAME_MIN_LENGTH &&
    value.length <= USERNAME_MAX_LENGTH &&
    new RegExp(USERNAME_PATTERN, 'u').test(value)
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
