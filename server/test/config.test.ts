import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const cwd = '/srv/muri';

describe('loadConfig', () => {
  it('uses the defaults of D12 for an empty environment', () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.join(cwd, 'data'),
      database: { kind: 'sqlite', file: path.join(cwd, 'data', 'muri-parlanti.sqlite') },
      jwtSecret: undefined,
      smtpUrl: undefined,
      admin: undefined,
      demoContent: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable of D12', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/muri',
        DATABASE_URL: 'postgres://muri@db:5432/muri',
        JWT_SECRET: 's'.repeat(40),
        SMTP_URL: 'smtp://user:pass@mail.example.it:587',
        PUBLIC_URL: 'https://muri.example.it',
        MAIL_FROM: 'Muri Parlanti <noreply@example.it>',
        ADMIN_USERNAME: 'capo',
        ADMIN_PASSWORD: 'una-password-lunga',
        ADMIN_EMAIL: 'capo@example.it',
        DEMO_CONTENT: '0',
        DEMO_IMAGES: '40',
        VIEW_FLUSH_MS: '1000',
        PUBLIC_CACHE_MS: '0',
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/muri',
      database: { kind: 'postgres', url: 'postgres://muri@db:5432/muri' },
      jwtSecret: 's'.repeat(40),
      smtpUrl: 'smtp://user:pass@mail.example.it:587',
      publicUrl: 'https://muri.example.it',
      mailFrom: 'Muri Parlanti <noreply@example.it>',
      admin: { username: 'capo', password: 'una-password-lunga', email: 'capo@example.it' },
      demoContent: false,
      demoImages: 40,
      viewFlushMs: 1000,
      publicCacheMs: 0,
    });
  });

  it('takes the site address from PUBLIC_URL, or the local one of PORT', () => {
    expect(loadConfig({}, cwd).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080' }, cwd).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '80' }, cwd).publicUrl).toBe('http://localhost');
    for (const value of ['https://Muri.Example.it', 'https://muri.example.it/']) {
      expect(loadConfig({ PUBLIC_URL: value }, cwd).publicUrl).toBe('https://muri.example.it');
    }
    expect(loadConfig({ PUBLIC_URL: 'http://muri.example.it:8080' }, cwd).publicUrl).toBe(
      'http://muri.example.it:8080',
    );
    // A scheme's own port is left out, as browsers write it; an IPv6 host keeps its brackets.
    expect(loadConfig({ PUBLIC_URL: 'https://muri.example.it:443' }, cwd).publicUrl).toBe(
      'https://muri.example.it',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://[2001:db8::1]:8080/' }, cwd).publicUrl).toBe(
      'http://[2001:db8::1]:8080',
    );
  });

  it('takes TRUST_PROXY addresses and CIDRs that Fastify accepts', async () => {
    const value = '10.0.0.1, 192.168.0.0/16, ::1, fd00::/8, 172.16.0.0/32';
    const config = loadConfig({ TRUST_PROXY: value }, cwd);
    expect(config.trustProxy).toBe('10.0.0.1,192.168.0.0/16,::1,fd00::/8,172.16.0.0/32');
    const app = Fastify({ trustProxy: config.trustProxy });
    await app.ready();
    await app.close();
    expect(loadConfig({ TRUST_PROXY: '1' }, cwd).trustProxy).toBe(true);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', DEMO_CONTENT: '' }, cwd)).toMatchObject({
      port: 3000,
      database: { kind: 'sqlite' },
      demoContent: true,
    });
  });

  it('takes an administrator name whose accent is typed as a combining mark', () => {
    const env = { ADMIN_USERNAME: 'Nicco\u0300la', ADMIN_PASSWORD: 'una-password-lunga' };
    expect(loadConfig(env, cwd).admin?.username).toBe('Nicco\u0300la');
  });

  it('gives the administrator an address the API takes when ADMIN_EMAIL is unset', () => {
    const addressOf = (username: string) =>
      loadConfig({ ADMIN_USERNAME: username, ADMIN_PASSWORD: 'una-password-lunga' }, cwd).admin
        ?.email ?? '';
    expect(addressOf('Capo')).toBe('capo@localhost.localdomain');
    expect(addressOf('capo.di_tutti-i')).toBe('capo.di_tutti-i@localhost.localdomain');
    // A name that loses characters on the way gets a suffix of its own, so two such names
    // never ask for one address.
    for (const [username, local] of [
      ['Nicco\u0300la', 'niccola'],
      ['Perché', 'perche'],
      ['.capo..di_tutti-i.', 'capo.di_tutti-i'],
      ['Ωμέγα', 'admin'],
      ['Ωμέγαα', 'admin'],
    ] as const) {
      expect(addressOf(username)).toMatch(
        new RegExp(`^${local}-[0-9a-f]{8}@localhost\\.localdomain$`),
      );
    }
    expect(addressOf('Perché')).not.toBe(addressOf('Perche'));
    expect(addressOf('Ωμέγα')).not.toBe(addressOf('Ωμέγαα'));
    expect(addressOf('Perché')).toBe(addressOf('Perché'));
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/muri' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://localhost' }],
    ['JWT_SECRET', { JWT_SECRET: 'corto' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.it' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.it' }],
    ['MAIL_FROM', { MAIL_FROM: 'Muri Parlanti' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'capo' }],
    ['ADMIN_USERNAME', { ADMIN_PASSWORD: 'una-password-lunga' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'capo', ADMIN_PASSWORD: 'corta' }],
    ['ADMIN_USERNAME', { ADMIN_USERNAME: 'capo supremo', ADMIN_PASSWORD: 'una-password-lunga' }],
    ['ADMIN_USERNAME', { ADMIN_USERNAME: 'capo\u034f', ADMIN_PASSWORD: 'una-password-lunga' }],
    [
      'ADMIN_EMAIL',
      { ADMIN_USERNAME: 'capo', ADMIN_PASSWORD: 'una-password-lunga', ADMIN_EMAIL: 'capo' },
    ],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'capo@example.it' }],
    // The API refuses a domain of one label: the administrator could never save the profile.
    [
      'ADMIN_EMAIL',
      {
        ADMIN_USERNAME: 'capo',
        ADMIN_PASSWORD: 'una-password-lunga',
        ADMIN_EMAIL: 'capo@localhost',
      },
    ],
    ['DEMO_CONTENT', { DEMO_CONTENT: 'forse' }],
    ['DEMO_IMAGES', { DEMO_IMAGES: 'tanti' }],
    ['DEMO_IMAGES', { DEMO_IMAGES: '0' }],
    ['VIEW_FLUSH_MS', { VIEW_FLUSH_MS: 'subito' }],
    ['VIEW_FLUSH_MS', { VIEW_FLUSH_MS: '0' }],
    ['PUBLIC_CACHE_MS', { PUBLIC_CACHE_MS: '-1' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    // Each went through to Fastify, which threw a TypeError with a stack trace at start.
    ['TRUST_PROXY', { TRUST_PROXY: 'abc' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1, 999.1.1.1' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/0' }],
    ['TRUST_PROXY', { TRUST_PROXY: '::1/129' }],
    ['TRUST_PROXY', { TRUST_PROXY: ':::' }],
    // Past the API's 254 characters, well formed as it is.
    [
      'ADMIN_EMAIL',
      {
        ADMIN_USERNAME: 'capo',
        ADMIN_PASSWORD: 'una-password-lunga',
        ADMIN_EMAIL: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.it`,
      },
    ],
    ['PUBLIC_URL', { PUBLIC_URL: 'muri.example.it' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://muri.example.it' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://muri.example.it/galleria' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://muri.example.it/?ref=mail' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://utente:segreto@muri.example.it' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://:segreto@muri.example.it' }],
    ['PUBLIC_URL', { SMTP_URL: 'smtp://mail.example.it:587' }],
  ])('names %s when its value is wrong', (variable, env) => {
    let caught: unknown;
    try {
      loadConfig(env, cwd);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as ConfigError).message).toMatch(new RegExp(`^${variable}: `));
    expect((caught as ConfigError).message).not.toContain('\n');
  });
});
