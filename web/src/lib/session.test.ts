import { describe, expect, it } from 'vitest';
import { isTokenExpired } from './session.js';

/** Standard base64 of the text's UTF-8 bytes. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
/** base64url as JWTs use it: '-' and '_' for '+' and '/', no padding. */
const base64url = (text: string) =>
  base64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A token shaped like the server's: header.payload.signature, the payload in base64url. */
const tokenWith = (claims: unknown) =>
  `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.firma`;

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const nowSeconds = NOW / 1000;

describe('isTokenExpired', () => {
  it('keeps a token whose exp is still ahead', () => {
    expect(isTokenExpired(tokenWith({ sub: '7', exp: nowSeconds + 3600 }), NOW)).toBe(false);
    expect(isTokenExpired(tokenWith({ sub: '7', exp: nowSeconds + 1 }), NOW)).toBe(false);
  });

  it('ends a token at the very second of its exp, and after it', () => {
    expect(isTokenExpired(tokenWith({ exp: nowSeconds }), NOW)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: nowSeconds }), NOW - 1)).toBe(false);
    expect(isTokenExpired(tokenWith({ exp: nowSeconds - 1 }), NOW)).toBe(true);
  });

  it('counts a token without a usable exp as expired', () => {
    expect(isTokenExpired(tokenWith({ sub: '7' }), NOW)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: String(nowSeconds + 3600) }), NOW)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: null }), NOW)).toBe(true);
    // 1e400 is Infinity once parsed: a token that would never end is not believed.
    const forever = `${base64url('{}')}.${base64url('{"exp":1e400}')}.firma`;
    expect(isTokenExpired(forever, NOW)).toBe(true);
    expect(isTokenExpired(tokenWith(null), NOW)).toBe(true);
    expect(isTokenExpired(tokenWith([nowSeconds + 3600]), NOW)).toBe(true);
    expect(isTokenExpired(tokenWith(nowSeconds + 3600), NOW)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['one part', 'abc'],
    ['an empty payload', 'abc..def'],
    ['a payload that is not base64', 'abc.!!!!.def'],
    ['a payload that is not JSON', `abc.${base64url('non è json')}.def`],
    ['an impossible base64 length', 'abc.a.def'],
  ])('counts garbage (%s) as expired', (_name, token) => {
    expect(isTokenExpired(token, NOW)).toBe(true);
  });

  it('reads base64url payloads: no padding, and - and _ where base64 has + and /', () => {
    // '?>' and '~~~' encode to bytes whose base64 needs '+', '/' and padding.
    const claims = { exp: nowSeconds + 60, pad: '?>?', more: '~~~~', name: 'Niccolò' };
    const payload = base64url(JSON.stringify(claims));
    expect(payload).not.toMatch(/[+/=]/);
    expect(base64(JSON.stringify(claims))).toMatch(/[+/=]/);
    expect(isTokenExpired(`h.${payload}.s`, NOW)).toBe(false);
    expect(isTokenExpired(`h.${payload}.s`, NOW + 60_000)).toBe(true);
  });
});
