import Type from 'typebox';
import { IsoDateTime } from '../../lib/schemas.js';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_MESSAGES,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from './users.rules.js';

export const Username = Type.String({
  title: 'Username',
  minLength: USERNAME_MIN_LENGTH,
  maxLength: USERNAME_MAX_LENGTH,
  pattern: USERNAME_PATTERN,
  errorMessage: {
    minLength: USER_MESSAGES.usernameTooShort,
    maxLength: USER_MESSAGES.usernameTooLong,
    pattern: USER_MESSAGES.usernameCharacters,
  },
});

export const Email = Type.String({
  title: 'Email',
  format: 'email',
  maxLength: EMAIL_MAX_LENGTH,
  errorMessage: { format: 'Inserisci un indirizzo email valido.' },
});

/** A new password: the SPEC §5 rule and message. */
export const NewPassword = Type.String({
  title: 'Password',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  errorMessage: {
    minLength: USER_MESSAGES.passwordTooShort,
    maxLength: USER_MESSAGES.passwordTooLong,
  },
});

/**
 * A password field that may be left empty, meaning unchanged (SPEC §5): only its length is
 * checked here, the minimum by the service once it knows the field is not empty.
 */
export const PasswordOrEmpty = (title: string) =>
  Type.String({
    title,
    maxLength: PASSWORD_MAX_LENGTH,
    errorMessage: { maxLength: USER_MESSAGES.passwordTooLong },
  });

/** The account as its owner (and administrators) see it: the only shape with the e-mail. */
export const OwnUser = Type.Object(
  {
    id_utente: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    is_active: Type.Boolean(),
    is_superuser: Type.Boolean(),
    created_at: IsoDateTime,
  },
  { $id: 'OwnUser' },
);

export const UpdateMeBody = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    password: Type.Optional(PasswordOrEmpty('Nuova Password')),
    current_password: Type.Optional(PasswordOrEmpty('Password attuale')),
  },
  { additionalProperties: false },
);

/** PUT /users/me answers the user itself (D13), plus a fresh token when the password changed. */
export const UpdateMeResponse = Type.Object({
  ...OwnUser.properties,
  access_token: Type.Optional(Type.String()),
});
