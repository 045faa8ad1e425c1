import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type BuildOptions } from '../../src/app.js';
import { makeConfig, type AppConfig } from '../../src/config.js';
import { createTestDatabase } from './database.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_ADMIN = {
  username: 'admin',
  password: 'admin-password',
  email: 'admin@example.it',
};

export interface TestApp {
  app: App;
  config: AppConfig;
  /** Log lines the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * The real application on a real, fresh database of the engine under test, with production
 * settings except for quiet defaults a test may override. A test that brings its own
 * `database` keeps it: close() leaves it for the test to drop.
 */
export async function buildTestApp(
  overrides: Partial<AppConfig> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-test-'));
  const database =
    overrides.database === undefined
      ? await createTestDatabase(dataDir)
      : { config: overrides.database, drop: () => Promise.resolve() };
  const config = makeConfig({
    dataDir,
    database: database.config,
    jwtSecret: TEST_JWT_SECRET,
    admin: TEST_ADMIN,
    demoContent: false,
    // Tests run jobs themselves (ctx.jobs.runUntilIdle()) when they want them.
    jobsInServer: false,
    // Suites of other features make many calls from one address; security.test.ts turns it on.
    rateLimits: false,
    // Suites upload many pictures as one user; security.test.ts checks the real cap.
    maxPendingUploads: 10_000,
    logLevel: 'warn',
    ...overrides,
  });
  const logs: Array<Record<string, unknown>> = [];
  const app = await buildApp(config, {
    logStream: { write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) },
    ...options,
  });
  let closed = false;
  return {
    app,
    config,
    logs,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
