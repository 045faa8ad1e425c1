import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  askAgainOnMount,
  errorMessage,
  failureOf,
  parseBody,
  settle,
  uploadPercent,
  retryOf,
  worthRetrying,
} from './api.js';

/** A localStorage stand-in, so the session's storage can be watched from node. */
function stubStorage(initial: Record<string, string>) {
  const items = new Map(Object.entries(initial));
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
    removeItem: (key: string) => items.delete(key),
  });
  return items;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('worthRetrying', () => {
  it('tries a failed read once more only when another try may answer otherwise', () => {
    expect(worthRetrying(0, new TypeError('Failed to fetch'))).toBe(true);
    // What `api` throws when no answer came at all.
    expect(worthRetrying(0, new ApiError(0, undefined))).toBe(true);
    expect(worthRetrying(0, new ApiError(503, undefined))).toBe(true);
    expect(worthRetrying(0, new ApiError(429, undefined))).toBe(true);
    expect(worthRetrying(0, new ApiError(404, 'Categoria non trovata'))).toBe(false);
    expect(worthRetrying(0, new ApiError(403, undefined))).toBe(false);
    expect(worthRetrying(1, new ApiError(503, undefined))).toBe(false);
  });
});

describe('retryOf', () => {
  it("offers 'Riprova' for a failure another try may mend, and asks again on it", () => {
    const again = vi.fn();
    const retry = retryOf(new ApiError(0, undefined), again);
    expect(retry).toBeTypeOf('function');
    retry?.();
    expect(again).toHaveBeenCalledOnce();
    expect(retryOf(new ApiError(502, undefined), again)).toBeTypeOf('function');
  });

  it('offers none for a refusal, which another try would repeat', () => {
    expect(retryOf(new ApiError(403, 'No'), vi.fn())).toBeUndefined();
    expect(retryOf(new ApiError(404, undefined), vi.fn())).toBeUndefined();
  });
});

describe('askAgainOnMount', () => {
  const at = 1_000_000;
  const failed = (error: unknown, ago: number) => ({ error, errorUpdatedAt: at - ago });

  it('does not ask again for a fresh refusal: the first screen already heard it', () => {
    expect(askAgainOnMount(failed(new ApiError(404, 'Immagine non trovata'), 0), 30_000, at)).toBe(
      false,
    );
    expect(askAgainOnMount(failed(new ApiError(400, undefined), 29_999), 30_000, at)).toBe(false);
    expect(askAgainOnMount(failed(new ApiError(403, undefined), 10), 30_000, at)).toBe(false);
  });

  it('asks again for a refusal as old as stale data', () => {
    expect(askAgainOnMount(failed(new ApiError(404, undefined), 30_000), 30_000, at)).toBe(true);
  });

  it('always asks again after a failure another try may mend', () => {
    expect(askAgainOnMount(failed(new ApiError(0, undefined), 0), 30_000, at)).toBe(true);
    expect(askAgainOnMount(failed(new ApiError(503, undefined), 0), 30_000, at)).toBe(true);
    expect(askAgainOnMount(failed(new ApiError(429, undefined), 0), 30_000, at)).toBe(true);
    expect(askAgainOnMount(failed(new TypeError('Failed to fetch'), 0), 30_000, at)).toBe(true);
  });
});

describe('parseBody', () => {
  it('reads JSON and gives undefined for an empty or non-JSON body', () => {
    expect(parseBody('{"images":[]}')).toEqual({ images: [] });
    expect(parseBody('[1,2]')).toEqual([1, 2]);
    expect(parseBody('')).toBeUndefined();
    expect(parseBody('<html>Bad gateway</html>')).toBeUndefined();
  });
});

describe('failureOf', () => {
  it("carries the server's Italian detail, and only a string one", () => {
    const error = failureOf(400, { detail: 'Username o email già in uso' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.detail).toBe('Username o email già in uso');
    expect(failureOf(500, { detail: { code: 1 } }).detail).toBeUndefined();
    expect(failureOf(502, undefined).detail).toBeUndefined();
    expect(failureOf(500, 'testo').detail).toBeUndefined();
    expect(failureOf(500, null).detail).toBeUndefined();
  });
});

describe('settle', () => {
  it('gives the parsed body of a 2xx answer', () => {
    expect(settle(200, '{"id_image":3}', null)).toEqual({ id_image: 3 });
    expect(settle(201, '{"status":"pending"}', null)).toEqual({ status: 'pending' });
    expect(settle(204, '', null)).toBeUndefined();
  });

  it('throws an ApiError with the detail for any other status', () => {
    expect(() => settle(413, '{"detail":"File troppo grande."}', null)).toThrow(
      new ApiError(413, 'File troppo grande.'),
    );
    expect(() => settle(500, 'oops', null)).toThrow(ApiError);
    expect(() => settle(302, '', null)).toThrow(ApiError);
  });

  it('ends the session on a 401 to a call that carried a token', () => {
    const items = stubStorage({ 'muri.token': 'vecchio', 'muri.user': '{}', other: 'x' });
    expect(() => settle(401, '{"detail":"Token non valido"}', 'vecchio')).toThrow(
      'Token non valido',
    );
    expect(items.has('muri.token')).toBe(false);
    expect(items.has('muri.user')).toBe(false);
    expect(items.get('other')).toBe('x');
  });

  it('leaves the storage alone on a 401 to an anonymous call, and on a 403', () => {
    const items = stubStorage({ 'muri.token': 'altro' });
    expect(() => settle(401, '', null)).toThrow(ApiError);
    expect(() => settle(403, '', 'altro')).toThrow(ApiError);
    expect(items.get('muri.token')).toBe('altro');
  });
});

describe('uploadPercent', () => {
  it('is the whole percentage sent, from 0 to 100', () => {
    expect(uploadPercent(0, 1000)).toBe(0);
    expect(uploadPercent(1, 1000)).toBe(0);
    expect(uploadPercent(505, 1000)).toBe(50);
    expect(uploadPercent(999, 1000)).toBe(99);
    expect(uploadPercent(1000, 1000)).toBe(100);
  });

  it('never leaves 0–100, and is 0 when the size is unknown', () => {
    expect(uploadPercent(2000, 1000)).toBe(100);
    expect(uploadPercent(-5, 1000)).toBe(0);
    expect(uploadPercent(10, 0)).toBe(0);
    expect(uploadPercent(10, Number.NaN)).toBe(0);
    expect(uploadPercent(Number.POSITIVE_INFINITY, 1000)).toBe(0);
  });
});

describe('errorMessage', () => {
  it("prefers the server's detail, else the screen's fallback", () => {
    expect(errorMessage(new ApiError(400, 'Dettaglio'), 'Riserva')).toBe('Dettaglio');
    expect(errorMessage(new ApiError(500, undefined), 'Riserva')).toBe('Riserva');
    expect(errorMessage(new Error('boom'), 'Riserva')).toBe('Riserva');
  });
});
