/** True when a write broke a UNIQUE constraint, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3 reports SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY); pg reports SQLSTATE 23505.
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

/** PostgreSQL: a lock was not granted within the statement's lock_timeout (SQLSTATE 55P03). */
export function isLockTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '55P03';
}

/** True when a write referred to a row that no longer exists (a FOREIGN KEY), on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3 reports SQLITE_CONSTRAINT_FOREIGNKEY; pg reports SQLSTATE 23503.
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * Runs a write that refers to a row read before it began. When that row was deleted in
 * between, the write fails on its foreign key: `recheck` then looks again and throws what the
 * request would have been answered a moment later (its 404). Any other failure, or a row
 * still there, is rethrown as it is.
 */
export async function whenRowGone<T>(
  write: () => Promise<T>,
  recheck: () => Promise<unknown>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) await recheck();
    throw error;
  }
}

/**
 * Runs `write` once more when it failed on a foreign key: a row it looked up by name inside
 * it (a tag) was deleted meanwhile, and is looked up, or made, again. A row the write was
 * given (a category) is still gone the second time: that failure is the caller's to answer
 * (`whenRowGone`).
 */
export async function onceMoreIfRowGone<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    return write();
  }
}

/**
 * Network failures of the connection to PostgreSQL: the server is down, restarting, or
 * unreachable. Node reports them by errno code.
 */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * pg's own connection failures carry no code, only these messages (pg and pg-pool 8.x:
 * a socket closed mid-query, a client left broken by it, the pool's connect timeout).
 */
const CONNECTION_ERROR_MESSAGES = [
  'Connection terminated',
  'is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * True when a query failed because the database could not be reached for the moment, not
 * because of the query: the request can be answered with a 503 and retried later. Covers
 * PostgreSQL down or restarting (refused or dropped connections, SQLSTATE class 08
 * connection_exception, 57P01–57P03 shutdown and start-up, 53300 too many connections) and
 * SQLite still locked by another process after the busy timeout.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
  }
  if (
    typeof message === 'string' &&
    CONNECTION_ERROR_MESSAGES.some((fragment) => message.includes(fragment))
  ) {
    return true;
  }
  // Node wraps the attempts of one connection to several addresses in an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailable(cause, depth + 1);
}
