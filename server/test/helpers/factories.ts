import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app.js';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

let counter = 0;

/** Registers a user through the public API and returns its credentials and token. */
export async function createUser(
  app: App,
  overrides: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> & {
    /** Where the registration comes from, for suites that keep the rate limits on. */
    remoteAddress?: string;
  } = {},
): Promise<TestUser> {
  counter += 1;
  const suffix = `${counter}${randomBytes(2).toString('hex')}`;
  const username = overrides.username ?? `utente${suffix}`;
  const email = overrides.email ?? `${username.toLowerCase()}@example.it`;
  const password = overrides.password ?? 'password-sicura';
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { username, email, password, age_confirmed: true },
    ...(overrides.remoteAddress === undefined ? {} : { remoteAddress: overrides.remoteAddress }),
  });
  if (response.statusCode !== 201) {
    throw new Error(`createUser failed: ${response.statusCode} ${response.body}`);
  }
  const body = response.json<{ access_token: string; user: { id_utente: number } }>();
  return { id: body.user.id_utente, username, email, password, token: body.access_token };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** Logs in through the API and returns the raw response. */
export function login(app: App, username: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
}
