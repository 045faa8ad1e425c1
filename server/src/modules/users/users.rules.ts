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

export const USER_MESSAGES = {
  taken: 'Username o email già in uso',
  invalidCredentials: 'Username o password non validi',
  inactive: 'Account disattivato',
  notFound: 'Utente non trovato',
  passwordTooShort: 'La password deve essere di almeno 8 caratteri',
  currentPasswordRequired: 'Per cambiare email o password inserisci la password attuale.',
  currentPasswordWrong: 'La password attuale non è corretta.',
  ageRequired: 'Devi dichiarare di avere almeno 16 anni per registrarti.',
} as const;
