import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import type { GeneratedAdministrator } from '../src/modules/users/users.service.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser, login } from './helpers/factories.js';

let t: TestApp | undefined;

/**
 * The profile form sends the address back as it is: the one the server made at start must pass
 * the API's own check (a one-label domain such as `@localhost` did not, 400).
 */
async function expectProfileSavedUnchanged(
  app: TestApp,
  session: { access_token: string; user: { username: string; email: string } },
  email: string,
): Promise<void> {
  expect(session.user.email).toBe(email);
  const saved = await app.app.inject({
    method: 'PUT',
    url: '/api/users/me',
    headers: { authorization: `Bearer ${session.access_token}` },
    payload: { username: session.user.username, email, password: '' },
  });
  expect(saved.statusCode).toBe(200);
  expect(saved.json().email).toBe(email);
}
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('first administrator (D12)', () => {
  it('generates one when none is configured or present, and announces it once', async () => {
    const announced: GeneratedAdministrator[] = [];
    t = await buildTestApp(
      { admin: undefined },
      { onGeneratedAdministrator: (admin) => announced.push(admin) },
    );
    expect(announced).toHaveLength(1);
    const [admin] = announced;
    expect(admin?.username).toBe('admin');
    expect(admin?.password.length).toBeGreaterThanOrEqual(16);

    const session = await login(t.app, admin!.username, admin!.password);
    expect(session.statusCode).toBe(200);
    expect(session.json().user.is_superuser).toBe(true);
    await expectProfileSavedUnchanged(t, session.json(), 'admin@localhost.localdomain');

    // A second start on the same database finds the administrator and says nothing.
    const again = await buildApp(t.config, {
      logStream: { write: () => undefined },
      onGeneratedAdministrator: (generated) => announced.push(generated),
    });
    await again.close();
    expect(announced).toHaveLength(1);
  });

  it('creates the configured administrator once and never overwrites its password', async () => {
    t = await buildTestApp({
      admin: { username: 'capo', password: 'prima-password', email: 'capo@example.it' },
    });
    expect((await login(t.app, 'capo', 'prima-password')).statusCode).toBe(200);

    const again = await buildApp(
      {
        ...t.config,
        admin: { username: 'capo', password: 'altra-password', email: 'capo@example.it' },
      },
      { logStream: { write: () => undefined } },
    );
    await again.close();
    expect((await login(t.app, 'capo', 'prima-password')).statusCode).toBe(200);
    expect((await login(t.app, 'capo', 'altra-password')).statusCode).toBe(401);
  });

  it('gives a configured administrator without an address one the profile form saves', async () => {
    // As loadConfig fills ADMIN_EMAIL in: the name without its accent, in lower case.
    const config = loadConfig({
      ADMIN_USERNAME: 'Nicco\u0300la',
      ADMIN_PASSWORD: 'prima-password',
    });
    t = await buildTestApp({ admin: config.admin });
    const session = await login(t.app, 'Nicco\u0300la', 'prima-password');
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toMatch(/^niccola-[0-9a-f]{8}@localhost\.localdomain$/);
    await expectProfileSavedUnchanged(t, session.json(), session.json().user.email);
  });

  it('refuses to start when the configured address belongs to another account', async () => {
    t = await buildTestApp({ admin: undefined });
    const other = await createUser(t.app);
    let caught: unknown;
    try {
      const again = await buildApp(
        {
          ...t.config,
          admin: { username: 'capo', password: 'prima-password', email: other.email },
        },
        { logStream: { write: () => undefined } },
      );
      await again.close();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe('ADMIN_EMAIL');
    expect((await login(t.app, 'capo', 'prima-password')).statusCode).toBe(401);
  });

  it('keeps the generated JWT secret across restarts, so sessions survive', async () => {
    t = await buildTestApp({ jwtSecret: undefined });
    const session = (await login(t.app, 'admin', 'admin-password')).json();
    const again = await buildApp(t.config, { logStream: { write: () => undefined } });
    try {
      const me = await again.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: `Bearer ${String(session.access_token)}` },
      });
      expect(me.statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });
});
