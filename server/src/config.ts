import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEmailAddress, placeholderAddress } from './lib/email-address.js';
import {
  isPasswordTooShort,
  isValidUsername,
  normalizeUsername,
  PASSWORD_MIN_LENGTH,
} from './modules/users/users.rules.js';

/**
 * The whole runtime configuration, read once from the environment (DECISIONS D12) and frozen.
 * Tests build the same object with `makeConfig` so they run with production settings.
 */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  /** Absolute path of the data folder: SQLite file, image files, mail outbox, secrets. */
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  /** From JWT_SECRET; when undefined, a secret is generated once and kept in the data folder. */
  readonly jwtSecret: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly admin: AdminBootstrap | undefined;
  readonly demoContent: boolean;
  /** How many demo photos the first start renders (fewer makes a quick test gallery). */
  readonly demoImages: number;
  /** D10: the job worker runs inside the server unless it runs as its own process. */
  readonly jobsInServer: boolean;
  /** D9: how long after 'Elimina account' the erasure runs (at most 5 days; default at once). */
  readonly erasureDelayMs: number;
  readonly logLevel: LogLevel;
  /** Uploads one user may have waiting for review (issue 7: no flooding the moderation queue). */
  readonly maxPendingUploads: number;
  /** Per-route rate limits (issue 7); only tests of other features turn them off. */
  readonly rateLimits: boolean;
  /** How long public lists are kept (plugins/public-cache.ts); 0 keeps none. */
  readonly publicCacheMs: number;
  /** How long counted views wait to be written together (issue 8: views don't starve reads). */
  readonly viewFlushMs: number;
  /**
   * Whom to believe about the client's address (X-Forwarded-For): nobody by default, so a
   * client cannot fake its address to dodge rate limits; behind a proxy, its address or CIDR.
   */
  readonly trustProxy: string | boolean;
  /** Where the built web app lives; its index.html answers every client-side route. */
  readonly webDistDir: string;
  /**
   * The site's address as its visitors reach it (PUBLIC_URL), an origin without a trailing
   * slash: links in e-mails must be whole, a mail client has no page to resolve a path against.
   */
  readonly publicUrl: string;
}

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface AdminBootstrap {
  readonly username: string;
  readonly password: string;
  readonly email: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(serverRoot, '..');

/** Reads the environment. Throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const read = (name: string): string | undefined => {
    const value = env[name];
    // An empty variable (`PORT=`) means "not set": shells and .env files produce them often.
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? './data');
  const adminUsername = read('ADMIN_USERNAME');
  const adminPassword = env['ADMIN_PASSWORD'] === '' ? undefined : env['ADMIN_PASSWORD'];

  const port = parsePort(read('PORT'));
  return makeConfig({
    port,
    host: read('HOST') ?? '0.0.0.0',
    dataDir,
    database: parseDatabaseUrl(read('DATABASE_URL'), dataDir),
    jwtSecret: parseJwtSecret(env['JWT_SECRET']),
    smtpUrl: parseSmtpUrl(read('SMTP_URL')),
    mailFrom: parseMailFrom(read('MAIL_FROM')),
    admin: parseAdmin(adminUsername, adminPassword, read('ADMIN_EMAIL')),
    demoContent: parseFlag('DEMO_CONTENT', read('DEMO_CONTENT'), true),
    demoImages: parseCount('DEMO_IMAGES', read('DEMO_IMAGES'), 300),
    jobsInServer: parseFlag('JOBS_IN_SERVER', read('JOBS_IN_SERVER'), true),
    erasureDelayMs: parseErasureDelay(read('ERASURE_DELAY_HOURS')),
    logLevel: parseLogLevel(read('LOG_LEVEL')),
    rateLimits: parseFlag('RATE_LIMITS', read('RATE_LIMITS'), true),
    maxPendingUploads: parseCount('MAX_PENDING_UPLOADS', read('MAX_PENDING_UPLOADS'), 20),
    viewFlushMs: parseCount('VIEW_FLUSH_MS', read('VIEW_FLUSH_MS'), 250),
    publicCacheMs: parseCount('PUBLIC_CACHE_MS', read('PUBLIC_CACHE_MS'), 1000, 0),
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    webDistDir: path.resolve(cwd, read('WEB_DIST_DIR') ?? path.resolve(repoRoot, 'web', 'dist')),
    publicUrl: parsePublicUrl(read('PUBLIC_URL'), port, read('SMTP_URL') !== undefined),
  });
}

/** Fills defaults and freezes; used by loadConfig and by tests that need variations. */
export function makeConfig(overrides: Partial<AppConfig> & Pick<AppConfig, 'dataDir'>): AppConfig {
  const config: AppConfig = {
    port: 3000,
    host: '0.0.0.0',
    database: { kind: 'sqlite', file: path.join(overrides.dataDir, 'muri-parlanti.sqlite') },
    jwtSecret: undefined,
    smtpUrl: undefined,
    mailFrom: 'Muri Parlanti <noreply@localhost>',
    admin: undefined,
    demoContent: true,
    demoImages: 300,
    jobsInServer: true,
    erasureDelayMs: 0,
    logLevel: 'info',
    rateLimits: true,
    maxPendingUploads: 20,
    viewFlushMs: 250,
    publicCacheMs: 1000,
    trustProxy: false,
    webDistDir: path.resolve(repoRoot, 'web', 'dist'),
    publicUrl: localUrl(overrides.port ?? 3000),
    ...overrides,
  };
  return Object.freeze(config);
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 3000;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

/**
 * Where a browser on the server's own machine finds it: the default of PUBLIC_URL. Port 0 (a
 * free one picked at start, for tests) has no number to name yet.
 */
function localUrl(port: number): string {
  return port === 80 || port === 0 ? 'http://localhost' : `http://localhost:${String(port)}`;
}

function parsePublicUrl(value: string | undefined, port: number, mailsOut: boolean): string {
  if (value === undefined) {
    // E-mails that leave the machine would link their readers to their own localhost.
    if (mailsOut) throw new ConfigError('PUBLIC_URL', 'must be set when SMTP_URL is set');
    return localUrl(port);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('PUBLIC_URL', `is not a valid URL (expected https://…), got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_URL', `must start with https:// or http://, got "${value}"`);
  }
  // The web app answers at the root of its host: a path, a query or credentials in the
  // address would make every link in an e-mail wrong.
  const credentials = url.username !== '' || url.password !== '';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || credentials) {
    throw new ConfigError(
      'PUBLIC_URL',
      `must be the site's address alone, like https://muri.example.it, got "${value}"`,
    );
  }
  return url.origin;
}

function parseDatabaseUrl(value: string | undefined, dataDir: string): DatabaseConfig {
  if (value === undefined) {
    return { kind: 'sqlite', file: path.join(dataDir, 'muri-parlanti.sqlite') };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL (expected postgres://...)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      'DATABASE_URL',
      `must be a postgres:// URL, got "${url.protocol}" (leave it unset for SQLite)`,
    );
  }
  if (url.pathname.length <= 1) {
    throw new ConfigError('DATABASE_URL', 'must name a database, e.g. postgres://host/muri');
  }
  return { kind: 'postgres', url: value };
}

const MIN_SECRET_LENGTH = 32;

function parseJwtSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  // HS256 is only as strong as its key; a short secret can be brute-forced offline from any token.
  if (value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      'JWT_SECRET',
      `must be at least ${MIN_SECRET_LENGTH} characters long (leave it unset to generate one)`,
    );
  }
  return value;
}

function parseSmtpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('SMTP_URL', 'is not a valid URL (expected smtp://user:pass@host:587)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL', `must start with smtp:// or smtps://, got "${url.protocol}"`);
  }
  if (url.hostname === '') throw new ConfigError('SMTP_URL', 'must name a host');
  return value;
}

/** A sender's address: looser than a user's (`noreply@localhost` is a fine sender). */
const SENDER = /^[^\s@<>]+@[^\s@<>]+$/;

function parseMailFrom(value: string | undefined): string {
  if (value === undefined) return 'Muri Parlanti <noreply@localhost>';
  const address = /<([^<>]+)>\s*$/.exec(value)?.[1] ?? value;
  if (!SENDER.test(address)) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an e-mail address or "Name <address>", got "${value}"`,
    );
  }
  return value;
}

function parseAdmin(
  username: string | undefined,
  password: string | undefined,
  email: string | undefined,
): AdminBootstrap | undefined {
  if (username === undefined && password === undefined) {
    if (email !== undefined) {
      throw new ConfigError('ADMIN_EMAIL', 'needs ADMIN_USERNAME and ADMIN_PASSWORD as well');
    }
    return undefined;
  }
  if (username === undefined) {
    throw new ConfigError('ADMIN_USERNAME', 'must be set when ADMIN_PASSWORD is set');
  }
  if (password === undefined) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be set when ADMIN_USERNAME is set');
  }
  if (!isValidUsername(normalizeUsername(username))) {
    throw new ConfigError(
      'ADMIN_USERNAME',
      'must be 3 to 30 letters, digits, dots, hyphens or underscores',
    );
  }
  if (isPasswordTooShort(password)) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      `must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    );
  }
  // The API's own rule: an address it would refuse could never be saved again in a form.
  if (email !== undefined && !isEmailAddress(email)) {
    throw new ConfigError('ADMIN_EMAIL', `is not a valid e-mail address: "${email}"`);
  }
  return { username, password, email: email ?? placeholderAddress(username) };
}

function parseFlag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(name, `must be 1 or 0, got "${value}"`);
}

function parseCount(
  name: string,
  value: string | undefined,
  fallback: number,
  min: 0 | 1 = 1,
): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min) {
    throw new ConfigError(name, `must be a whole number from ${min} to 999999, got "${value}"`);
  }
  return Number(value);
}

function parseTrustProxy(value: string | undefined): string | boolean {
  if (value === undefined || ['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  const entries = value.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be 0, 1 or a comma-separated list of proxy addresses/CIDRs, got "${value}"`,
    );
  }
  return entries.join(',');
}

/**
 * An address or CIDR that Fastify's proxy-addr takes: a malformed one ('abc', '999.1.1.1',
 * '10.0.0.0/33') made it throw a TypeError with a stack trace at start, not a named error.
 */
function isProxyAddress(entry: string): boolean {
  const match = /^([0-9a-fA-F.:]+)(?:\/(\d{1,3}))?$/.exec(entry);
  const version = match?.[1] === undefined ? 0 : isIP(match[1]);
  if (version === 0) return false;
  const prefix = match?.[2];
  return (
    prefix === undefined || (Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

/** The privacy policy promises erasure within 5 days: the delay can never exceed that. */
function parseErasureDelay(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d{1,3}$/.test(value) || Number(value) > 5 * 24) {
    throw new ConfigError(
      'ERASURE_DELAY_HOURS',
      `must be a whole number from 0 to 120, got "${value}"`,
    );
  }
  return Number(value) * 60 * 60 * 1000;
}

function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined) return 'info';
  const level = value.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return level as LogLevel;
}
