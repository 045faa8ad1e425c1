import { unauthorized, forbidden, badRequest } from '../../lib/errors.js';
import type { UserRow } from '../../db/tables.js';
import { toOwnUser } from '../users/users.presenters.js';
import { USER_MESSAGES } from '../users/users.rules.js';
import { isUsable, type UsersService } from '../users/users.service.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';
import type { TokenService } from './tokens.js';
import { SETTINGS_MESSAGES, type SettingsService } from '../settings/settings.service.js';

export interface Registration {
  username: string;
  email: string;
  password: string;
  age_confirmed: boolean;
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(
  users: UsersService,
  tokens: TokenService,
  settings: Pick<SettingsService, 'get'>,
) {
  const session = (user: UserRow) => ({
    access_token: issueToken(user),
    token_type: 'bearer' as const,
    user: toOwnUser(user),
  });

  function issueToken(user: UserRow): string {
    return tokens.sign({ userId: user.id_utente, version: user.token_version });
  }

  async function register(input: Registration) {
    // D7: read now, not at start, so closing registrations takes effect on every server at once.
    if (!(await settings.get()).registrations_open) {
      throw forbidden(SETTINGS_MESSAGES.registrationsClosed);
    }
    if (!input.age_confirmed) throw badRequest(USER_MESSAGES.ageRequired);
    const user = await users.create({ ...input, ageConfirmed: true });
    return session(user);
  }

  async function login(username: string, password: string) {
    const user = await users.findByUsername(username);
    // Unknown user and wrong password answer alike, after the same hashing work.
    const valid =
      user === undefined
        ? await verifyAgainstDummy(password)
        : await verifyPassword(user.password_hash, password);
    if (user === undefined || !valid) throw unauthorized(USER_MESSAGES.invalidCredentials);
    // Said only to someone who proved the password: it reveals nothing to a guesser.
    if (!isUsable(user)) throw forbidden(USER_MESSAGES.inactive);
    return session(user);
  }

  /** The user a bearer token speaks for, if the token is valid and the account may act. */
  async function authenticate(token: string): Promise<UserRow | undefined> {
    const claims = tokens.verify(token);
    if (claims === undefined) return undefined;
    const user = await users.getCurrent(claims.userId);
    if (user === undefined || !isUsable(user) || user.token_version !== claims.version) {
      return undefined;
    }
    return user;
  }

  return { register, login, authenticate, issueToken };
}
