/*
 * SPEC §4 'Pending load': each attempt at the pending list gives up after 120 seconds; a
 * timed-out attempt is tried again after 5 seconds, three attempts in all. Pure and injectable
 * (the attempt, the delay, the clock through setTimeout) so the rules are tested with fake timers.
 */

export const PENDING_TIMEOUT_MS = 120_000;
export const PENDING_RETRY_DELAY_MS = 5_000;
export const PENDING_MAX_ATTEMPTS = 3;

export const MAX_ATTEMPTS_MESSAGE = 'Numero massimo di tentativi raggiunto. Riprova più tardi.';

/** 'Tentativo 1/3: La richiesta è scaduta. Riprovo tra 5 secondi...' */
export function retryMessage(
  attempt: number,
  maxAttempts = PENDING_MAX_ATTEMPTS,
  retryDelayMs = PENDING_RETRY_DELAY_MS,
): string {
  const seconds = Math.round(retryDelayMs / 1000);
  return `Tentativo ${attempt}/${maxAttempts}: La richiesta è scaduta. Riprovo tra ${seconds} secondi...`;
}

/** One attempt ran out of time; only this kind of failure is tried again. */
export class AttemptTimeoutError extends Error {
  constructor() {
    super('La richiesta è scaduta.');
    this.name = 'AttemptTimeoutError';
  }
}

/** Every attempt ran out of time. */
export class MaxAttemptsError extends Error {
  constructor() {
    super(MAX_ATTEMPTS_MESSAGE);
    this.name = 'MaxAttemptsError';
  }
}

export type Delay = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits `ms`, or stops early with the signal's reason when the caller gives up. */
export const wait: Delay = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs `attempt` with a signal that aborts after `timeoutMs`. The attempt's own promise is not
 * trusted to honour the signal: the timeout (or the caller giving up) settles the result.
 */
export async function withTimeout<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<T> {
  if (outer?.aborted === true) throw outer.reason as Error;
  const controller = new AbortController();
  let fail: (reason: Error) => void = () => undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  const timer = setTimeout(() => {
    const timeout = new AttemptTimeoutError();
    controller.abort(timeout);
    fail(timeout);
  }, timeoutMs);
  const onOuterAbort = () => {
    const reason = outer?.reason as Error;
    controller.abort(reason);
    fail(reason);
  };
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    return await Promise.race([attempt(controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

export interface RetryOptions<T> {
  /** One try; it should pass the signal on to fetch so a timed-out request is cancelled. */
  attempt: (signal: AbortSignal) => Promise<T>;
  timeoutMs?: number;
  retryDelayMs?: number;
  maxAttempts?: number;
  delay?: Delay;
  /** Told before each wait, with the message the page shows meanwhile. */
  onRetry?: (message: string, attempt: number) => void;
  /** The caller gave up (the page was left): stop at once, no further attempts. */
  signal?: AbortSignal;
}

/**
 * The attempt's result; a timed-out attempt is retried after a pause, any other failure is
 * passed on at once (a 403 will not become a 200 by asking again). After the last timeout:
 * MaxAttemptsError.
 */
export async function loadWithRetry<T>({
  attempt,
  timeoutMs = PENDING_TIMEOUT_MS,
  retryDelayMs = PENDING_RETRY_DELAY_MS,
  maxAttempts = PENDING_MAX_ATTEMPTS,
  delay = wait,
  onRetry,
  signal,
}: RetryOptions<T>): Promise<T> {
  for (let number = 1; ; number += 1) {
    try {
      return await withTimeout(attempt, timeoutMs, signal);
    } catch (error) {
      if (!(error instanceof AttemptTimeoutError)) throw error;
      if (number >= maxAttempts) throw new MaxAttemptsError();
      onRetry?.(retryMessage(number, maxAttempts, retryDelayMs), number);
      await delay(retryDelayMs, signal);
    }
  }
}
