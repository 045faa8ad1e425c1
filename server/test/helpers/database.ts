import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';

/**
 * The engine under test: SQLite by default, PostgreSQL when TEST_DATABASE_URL is set (habit 5:
 * the same suite runs on every engine). Each call gets a database of its own, so test files
 * run in parallel without seeing each other's rows.
 */
export const TEST_ENGINE: DatabaseConfig['kind'] = process.env['TEST_DATABASE_URL']
  ? 'postgres'
  : 'sqlite';

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export async function createTestDatabase(dataDir: string): Promise<TestDatabase> {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    return {
      config: { kind: 'sqlite', file: path.join(dataDir, 'test.sqlite') },
      drop: async () => undefined,
    };
  }
  return throwawayPostgres(adminUrl, 'mp_test');
}

/**
 * A new PostgreSQL database made through `adminUrl` (a role that may create databases), named
 * `<prefix>_<time>_<random>`, and how to drop it. The test suite and the evaluation share it.
 * `locale` gives it a locale of its own instead of the cluster's (a test of the C locale).
 */
export async function throwawayPostgres(
  adminUrl: string,
  prefix: string,
  options: { locale?: 'C' } = {},
): Promise<TestDatabase & { config: Extract<DatabaseConfig, { kind: 'postgres' }> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(adminUrl, async (client) => {
    let locale = '';
    if (options.locale !== undefined) {
      // libc's locale, not an ICU one the cluster may default to: PostgreSQL 15 and newer can
      // have either and name the provider; 14 has libc's only.
      const { rows } = await client.query<{ version: string }>(
        "SELECT current_setting('server_version_num') AS version",
      );
      const provider = Number(rows[0]?.version) >= 150000 ? ' LOCALE_PROVIDER libc' : '';
      locale = ` TEMPLATE template0 ENCODING 'UTF8'${provider} LOCALE '${options.locale}'`;
    }
    await client.query(`CREATE DATABASE ${name}${locale}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
