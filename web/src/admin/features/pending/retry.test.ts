import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  loadWithRetry,
  MAX_ATTEMPTS_MESSAGE,
  MaxAttemptsError,
  PENDING_RETRY_DELAY_MS,
  PENDING_TIMEOUT_MS,
  retryMessage,
} from './retry.js';

/** An attempt that answers only when its signal is never aborted: a server that hangs. */
function hangingAttempt(seen: AbortSignal[]) {
  return (signal: AbortSignal) => {
    seen.push(signal);
    return new Promise<string>(() => undefined);
  };
}

describe('loading the pending list with retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers at the first try without waiting or retrying', async () => {
    const attempt = vi.fn((_signal: AbortSignal) => Promise.resolve('lista'));
    const onRetry = vi.fn();
    await expect(loadWithRetry({ attempt, onRetry })).resolves.toBe('lista');
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('retries after a timeout, 5 seconds later, with the message for attempt 1', async () => {
    const signals: AbortSignal[] = [];
    const hang = hangingAttempt(signals);
    const attempt = vi.fn((signal: AbortSignal) =>
      signals.length === 0 ? hang(signal) : Promise.resolve('lista'),
    );
    const onRetry = vi.fn();
    const result = loadWithRetry({ attempt, onRetry });

    await vi.advanceTimersByTimeAsync(PENDING_TIMEOUT_MS - 1);
    expect(onRetry).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onRetry).toHaveBeenCalledExactlyOnceWith(
      'Tentativo 1/3: La richiesta è scaduta. Riprovo tra 5 secondi...',
      1,
    );
    // The timed-out request is cancelled, not left running.
    expect(signals[0]?.aborted).toBe(true);
    expect(attempt).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(PENDING_RETRY_DELAY_MS - 1);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(2);
    await expect(result).resolves.toBe('lista');
  });

  it('gives up after three timeouts with the final message', async () => {
    const signals: AbortSignal[] = [];
    const attempt = vi.fn(hangingAttempt(signals));
    const onRetry = vi.fn();
    const result = loadWithRetry({ attempt, onRetry });
    const outcome = expect(result).rejects.toThrow(MAX_ATTEMPTS_MESSAGE);

    await vi.advanceTimersByTimeAsync(3 * PENDING_TIMEOUT_MS + 2 * PENDING_RETRY_DELAY_MS);
    await outcome;
    await expect(result).rejects.toBeInstanceOf(MaxAttemptsError);
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(onRetry.mock.calls.map(([message]) => message as string)).toEqual([
      'Tentativo 1/3: La richiesta è scaduta. Riprovo tra 5 secondi...',
      'Tentativo 2/3: La richiesta è scaduta. Riprovo tra 5 secondi...',
    ]);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes any other failure on at once, without retrying', async () => {
    const failure = new Error('403');
    const attempt = vi.fn((_signal: AbortSignal) => Promise.reject(failure));
    const onRetry = vi.fn();
    const delay = vi.fn(() => Promise.resolve());
    await expect(loadWithRetry({ attempt, onRetry, delay })).rejects.toBe(failure);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    expect(delay).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the injected delay and limits', async () => {
    const attempt = vi.fn(hangingAttempt([]));
    const delay = vi.fn((_ms: number) => Promise.resolve());
    const result = loadWithRetry({ attempt, delay, timeoutMs: 10, maxAttempts: 2 });
    const outcome = expect(result).rejects.toBeInstanceOf(MaxAttemptsError);
    await vi.advanceTimersByTimeAsync(20);
    await outcome;
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(delay).toHaveBeenCalledExactlyOnceWith(PENDING_RETRY_DELAY_MS, undefined);
  });

  it('stops when the caller gives up, during an attempt or a pause', async () => {
    const caller = new AbortController();
    const attempt = vi.fn(hangingAttempt([]));
    const result = loadWithRetry({ attempt, signal: caller.signal });
    const outcome = expect(result).rejects.toThrow('pagina lasciata');
    await vi.advanceTimersByTimeAsync(PENDING_TIMEOUT_MS + 1000);
    caller.abort(new Error('pagina lasciata'));
    await outcome;
    await vi.advanceTimersByTimeAsync(PENDING_RETRY_DELAY_MS + PENDING_TIMEOUT_MS);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('words the retry message after its numbers', () => {
    expect(retryMessage(2)).toBe('Tentativo 2/3: La richiesta è scaduta. Riprovo tra 5 secondi...');
  });
});
