import { clearSession, getToken } from './session.js';

/** An API failure: the status and the Italian `detail` the server sent (D2), if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
  ) {
    super(detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/**
 * A failure's 'Riprova' (ErrorMessage's onRetry), for a failure that another try may mend (see
 * worthRetrying): without it a page whose first request met a network drop or a restarting
 * server was a dead end until reloaded. None for a refusal, which another try would repeat.
 */
export function retryOf(error: unknown, again: () => unknown): (() => void) | undefined {
  return worthRetrying(0, error) ? () => void again() : undefined;
}

/**
 * Whether a failed read is worth one more try, for every query (main.tsx): a network failure
 * or the server's own trouble (5xx, 429) may pass, but a 404, 403 or 401 will answer the same
 * again and only delays its message ('Categoria non trovata' came after two round trips).
 */
export function worthRetrying(failures: number, error: unknown): boolean {
  if (failures >= 1) return false;
  if (!(error instanceof ApiError)) return true;
  // Status 0 is how `api` reports no answer at all (network down, connection cut).
  return error.status === 0 || error.status >= 500 || error.status === 429;
}

/**
 * Whether a page mounting on a query that failed asks again (TanStack's `retryOnMount`, for
 * every query in main.tsx). TanStack asks by default, so a missing image was asked for twice
 * on a first load: app/prefetch.ts got the 404 before the page mounted, and the page asked
 * again. A refusal (4xx) is an answer like any other, fresh for `freshMs` as data is
 * (`staleTime`); a failure that another try may mend is always tried again.
 */
export function askAgainOnMount(
  state: { error: unknown; errorUpdatedAt: number },
  freshMs: number,
  now = Date.now(),
): boolean {
  if (worthRetrying(0, state.error)) return true;
  return now - state.errorUpdatedAt >= freshMs;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The headers every call starts from, with the bearer token when there is one. Reading the
 * token drops an expired session first (SPEC §4), so a dead token is never sent.
 */
export function authHeaders(): { headers: Record<string, string>; token: string | null } {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  return { headers, token };
}

/** The body of an answer as JSON; undefined when it is empty or not JSON. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The failure of an answer that is not ok, with the server's Italian detail when it sent one. */
export function failureOf(status: number, body: unknown): ApiError {
  const detail =
    typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined;
  return new ApiError(status, typeof detail === 'string' ? detail : undefined);
}

/**
 * What every transport (fetch, XMLHttpRequest) does with an answer: a 401 to a call that
 * carried a token ends the session cleanly (SPEC §4) and is still reported; a failure becomes
 * an ApiError; otherwise the parsed body is the result.
 */
export function settle(status: number, text: string, sentToken: string | null): unknown {
  if (status === 401 && sentToken !== null) clearSession();
  const body = parseBody(text);
  if (status < 200 || status > 299) throw failureOf(status, body);
  return body;
}

/**
 * Calls the API on the same origin (D1), with the bearer token when there is one. A read
 * refused with 401 because of its token (a session ended elsewhere: the password changed on
 * another device, the account edited by an administrator) ends the session and is asked once
 * more without it: the visitor is anonymous from then on (SPEC §4) and sees what anonymous
 * visitors see, instead of an error on every public list fetched meanwhile.
 * Writes are not repeated: their callers send the visitor to log in.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders(path, options)).body as T;
}

/**
 * As api(), with the answer's headers beside its body: for the few calls that say something
 * aside from a body whose shape is fixed (D13), such as a list's cap.
 */
export async function apiWithHeaders(
  path: string,
  options: RequestOptions = {},
): Promise<{ body: unknown; headers: Headers }> {
  const method = options.method ?? 'GET';
  let answer = await send(path, method, options);
  if (answer.status === 401 && answer.token !== null && method === 'GET') {
    clearSession();
    answer = await send(path, method, options);
  }
  return { body: settle(answer.status, answer.text, answer.token), headers: answer.headers };
}

/** One request: the answer's status, headers and text, and the token it carried. */
async function send(path: string, method: string, options: RequestOptions) {
  const { headers, token } = authHeaders();
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { method, headers, body, signal: options.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, undefined);
  }
  return {
    status: response.status,
    headers: response.headers,
    text: await response.text(),
    token,
  };
}

/** How far an upload has gone, as a whole percentage (0 to 100). */
export function uploadPercent(loaded: number, total: number): number {
  if (!Number.isFinite(loaded) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}

/**
 * POSTs a form to the API through XMLHttpRequest, the one browser transport that reports how
 * much of a request body has been sent (fetch cannot); token and answers as `api` handles them.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<T> {
  const { headers, token } = authHeaders();
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api${path}`);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(uploadPercent(event.loaded, event.total));
    };
    request.onload = () => {
      try {
        resolve(settle(request.status, request.responseText, token) as T);
      } catch (error) {
        reject(error instanceof Error ? error : new ApiError(0, undefined));
      }
    };
    // No answer at all (network down, connection cut): status 0, like a failed fetch.
    request.onerror = () => {
      reject(new ApiError(0, undefined));
    };
    request.send(form);
  });
}

/** The message to show for a failed call: the server's detail, else the screen's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail !== undefined ? error.detail : fallback;
}
