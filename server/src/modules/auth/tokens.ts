import { createSigner, createVerifier } from 'fast-jwt';

/** D3: seven days, after which the client treats the session as over. */
export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** Verified tokens whose answers are kept: a few thousand sessions at once, LRU beyond. */
const TOKENS_KEPT = 10_000;

export interface TokenClaims {
  /** The user's id (D3). */
  userId: number;
  /** The user's token_version when the token was issued. */
  version: number;
}

export interface TokenService {
  sign(claims: TokenClaims): string;
  /** The claims of a valid token, or undefined for anything else (bad, expired, wrong algorithm). */
  verify(token: string): TokenClaims | undefined;
}

export function createTokenService(secret: string): TokenService {
  const signer = createSigner({
    key: secret,
    algorithm: 'HS256',
    expiresIn: TOKEN_LIFETIME_SECONDS * 1000,
  });
  // The algorithm is pinned and `exp`/`sub` are required: a token signed with "none", another
  // HMAC size or a public-key algorithm, or one without an expiry, is refused outright.
  // A session sends its token with every request: fast-jwt keeps the answers for the last
  // tokens it accepted (by their SHA-256, never past their expiry, at most 10 minutes), 7-8 µs
  // a verification instead of 19 here (issue 8). A refused token takes a place but is never
  // answered from it (errorCacheTTL's default), so a flood of bad tokens can only push the kept
  // ones out, back to 19 µs. A token is still checked against its user's token_version on every
  // request (auth.service.ts), so logging out or a new password ends it at once.
  const verifier = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    requiredClaims: ['exp', 'sub'],
    cache: TOKENS_KEPT,
  });

  return {
    sign: ({ userId, version }) => signer({ sub: String(userId), ver: version }),
    verify(token) {
      let payload: Record<string, unknown>;
      try {
        payload = verifier(token) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      const sub = payload['sub'];
      const version = payload['ver'] ?? 0;
      if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub)) return undefined;
      if (typeof version !== 'number' || !Number.isInteger(version)) return undefined;
      return { userId: Number(sub), version };
    },
  };
}
