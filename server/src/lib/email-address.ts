import { fullFormats } from 'ajv-formats/dist/formats.js';
import { createHash } from 'node:crypto';
import { EMAIL_MAX_LENGTH } from '../modules/users/users.rules.js';
import { plainLetters } from './text.js';

const format = fullFormats.email;
if (!(format instanceof RegExp)) throw new Error('ajv-formats: the email format is not a pattern');
const EMAIL: RegExp = format;

/**
 * Whether the API takes `value` as an e-mail address: JSON Schema's `email` format as the
 * request validator checks it (ajv-formats in full mode; users.schemas.ts `Email`). For the
 * addresses the server is given outside a request (ADMIN_EMAIL) or makes itself, which an
 * administrator must later be able to save unchanged in the profile form.
 */
export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
}

/**
 * The address an administrator gets when none is configured: the name in the ASCII an
 * address's local part takes (accents dropped, lower case), at `localhost.localdomain`. Not
 * `localhost`: the API refuses a domain of one label, so the administrator could not save
 * their own profile, nor another administrator their account's form, without changing it.
 * A name that loses characters on the way gets a suffix of its own: 'Perché' and 'Perche', or
 * two names of Greek letters only, would otherwise ask for one address, and the second
 * administrator could not be created.
 */
export function placeholderAddress(username: string): string {
  const ascii = plainLetters(username)
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.|\.$/g, '');
  if (ascii === username.toLowerCase()) return `${ascii}@localhost.localdomain`;
  const own = createHash('sha256').update(username.normalize('NFC')).digest('hex').slice(0, 8);
  return `${ascii === '' ? 'admin' : ascii}-${own}@localhost.localdomain`;
}
