/*
 * The account rules the forms check before the round trip, with the server's own sentences
 * (SPEC §5, D2): registration and the new password of a reset say them alike.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_TOO_SHORT = 'La password deve essere di almeno 8 caratteri';
export const PASSWORDS_DIFFER = 'Le password non coincidono';
export const BAD_EMAIL = 'Inserisci un indirizzo email valido.';

/** Something, an @, something with a dot: what any address the server accepts looks like. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_SHAPE.test(value.trim());
}

/** In characters, as the server counts them: four emoji are not eight characters. */
export function isPasswordTooShort(password: string): boolean {
  return Array.from(password).length < PASSWORD_MIN_LENGTH;
}

/** What is wrong with a new password typed twice, and the fields it is about; null if nothing. */
export function newPasswordProblem(values: {
  password: string;
  confirm: string;
}): { message: string; fields: Array<'password' | 'confirm'> } | null {
  if (values.password !== values.confirm) return { message: PASSWORDS_DIFFER, fields: ['confirm'] };
  if (isPasswordTooShort(values.password)) {
    return { message: PASSWORD_TOO_SHORT, fields: ['password', 'confirm'] };
  }
  return null;
}
