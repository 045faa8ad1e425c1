import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService, TOKEN_LIFETIME_SECONDS } from '../src/modules/auth/tokens.js';

/*
 * D3's tokens as the server checks them. Verified tokens' answers are kept (fast-jwt's cache,
 * tokens.ts): a kept answer must never outlive the token's expiry nor stand for another token.
 */

const SECRET = 'a-secret-long-enough-for-the-tokens-test-0123456789';

afterEach(() => {
  vi.useRealTimers();
});

describe('tokens', () => {
  it('are refused once expired, though verified and kept before', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
    const tokens = createTokenService(SECRET);
    const token = tokens.sign({ userId: 42, version: 3 });
    expect(tokens.verify(token)).toEqual({ userId: 42, version: 3 });
    expect(tokens.verify(token)).toEqual({ userId: 42, version: 3 });
    vi.setSystemTime(new Date(Date.now() + (TOKEN_LIFETIME_SECONDS - 60) * 1000));
    expect(tokens.verify(token)).toEqual({ userId: 42, version: 3 });
    vi.setSystemTime(new Date(Date.now() + 120 * 1000));
    expect(tokens.verify(token)).toBeUndefined();
  });

  it('are refused when changed by a character, though the original was verified and kept', () => {
    const tokens = createTokenService(SECRET);
    const token = tokens.sign({ userId: 7, version: 0 });
    expect(tokens.verify(token)).toEqual({ userId: 7, version: 0 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const other = Buffer.from(JSON.stringify({ sub: '8', ver: 0, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    // A character in the middle: all six of its bits are the signature's (the last one's are not).
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    for (const changed of [`${header}.${other}.${signature}`, `${header}.${payload}.${flipped}`]) {
      expect(tokens.verify(changed)).toBeUndefined();
    }
    expect(tokens.verify(token)).toEqual({ userId: 7, version: 0 });
    const elsewhere = createTokenService('another-secret-long-enough-for-the-test-9876');
    expect(elsewhere.verify(token)).toBeUndefined();
  });
});
