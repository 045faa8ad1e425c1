/*
 * What a start that failed says to the operator (main.ts, run-worker.ts). The errors that come
 * from the machine or the settings (a database that cannot be reached, a data folder that
 * cannot be written, a full disk, a port in use) are told in one line that names the variable
 * to look at, with the system's own reason; anything else keeps its stack for a bug report.
 * The reason of a wrapped error is its cause: 'Database migration "unknown" failed' alone
 * said nothing of a PostgreSQL server that refused the connection.
 * No line repeats DATABASE_URL or SMTP_URL, whose passwords would land in the logs.
 */

interface Coded {
  code?: unknown;
  /** Set by Node on the errors of a file-system call ('mkdir', 'open'…). */
  path?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Network failures of a connection to PostgreSQL. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** PostgreSQL: no such role, authentication failed, no such database, too many connections. */
const POSTGRES_CODES = new Set(['28000', '28P01', '3D000', '53300']);
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** SQLite's file cannot be opened or written. */
const SQLITE_FILE_CODES = new Set(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_PERM']);

/** The error and its causes, outermost first. */
function chain(error: unknown): Coded[] {
  const links: Coded[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && links.length < 10) {
    const link: Coded = current;
    links.push(link);
    current = link.cause;
  }
  return links;
}

function messageOf(link: Coded): string {
  return typeof link.message === 'string' ? link.message : JSON.stringify(link);
}

/** What the server was doing when it failed: opening its data, or listening. */
export type StartupStage = 'data' | 'listen';

/**
 * The line to print for a failed start. `stage` says which settings the failure can come
 * from: a refused connection while listening is not the database's.
 */
export function describeStartupFailure(error: unknown, stage: StartupStage): string {
  const links = chain(error);
  if (links.length === 0) return String(error);
  const reason = links.map(messageOf).join(': ');
  const codes = links.map((link) => (typeof link.code === 'string' ? link.code : ''));
  const has = (set: ReadonlySet<string>) => codes.some((code) => set.has(code));
  if (has(DISK_FULL_CODES)) return `DATA_DIR: the disk is full (${reason})`;
  if (stage === 'listen') {
    if (codes.includes('EADDRINUSE')) return `PORT: the port is already in use (${reason})`;
    if (codes.includes('EACCES')) return `PORT: not allowed to listen on it (${reason})`;
    if (codes.some((code) => ['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))) {
      return `HOST: cannot listen on this address (${reason})`;
    }
  } else {
    const fileError = links.some((link) => typeof link.path === 'string');
    if (fileError || has(SQLITE_FILE_CODES)) {
      return `DATA_DIR: the data folder cannot be used (${reason})`;
    }
    if (has(CONNECTION_CODES) || has(POSTGRES_CODES)) {
      return `DATABASE_URL: the database cannot be reached (${reason})`;
    }
  }
  const deepest = links[links.length - 1] as { stack?: unknown };
  return typeof deepest.stack === 'string' ? `${reason}\n${deepest.stack}` : reason;
}
