import { describe, expect, it } from 'vitest';
import { isPasswordTooShort, looksLikeEmail, newPasswordProblem } from './accountRules.js';
import { resetSecretOf } from './passwordReset.js';

describe('account rules checked before the round trip', () => {
  it('counts a password in characters, as the server does', () => {
    expect(isPasswordTooShort('1234567')).toBe(true);
    expect(isPasswordTooShort('12345678')).toBe(false);
    // Four emoji: eight UTF-16 units, four characters.
    expect(isPasswordTooShort('😀😀😀😀')).toBe(true);
  });

  it('says what is wrong with a new password typed twice, the mismatch first', () => {
    expect(newPasswordProblem({ password: 'corta', confirm: 'diversa' })).toEqual({
      message: 'Le password non coincidono',
      fields: ['confirm'],
    });
    expect(newPasswordProblem({ password: 'corta', confirm: 'corta' })).toEqual({
      message: 'La password deve essere di almeno 8 caratteri',
      fields: ['password', 'confirm'],
    });
    expect(newPasswordProblem({ password: 'lunga-abbastanza', confirm: 'lunga-abbastanza' })).toBe(
      null,
    );
  });

  it('takes an address of the usual shape, spaces around it aside', () => {
    expect(looksLikeEmail(' mario@example.it ')).toBe(true);
    expect(looksLikeEmail('mario@example')).toBe(false);
    expect(looksLikeEmail('mario rossi@example.it')).toBe(false);
  });
});

describe('resetSecretOf', () => {
  it('reads the secret from the fragment, and nothing else', () => {
    expect(resetSecretOf('#dK8mJfMO8tL6RpW2cuBD8zBv-_x')).toBe('dK8mJfMO8tL6RpW2cuBD8zBv-_x');
    expect(resetSecretOf('')).toBe(null);
    expect(resetSecretOf('#')).toBe(null);
    expect(resetSecretOf('#a b')).toBe(null);
    expect(resetSecretOf(`#${'a'.repeat(201)}`)).toBe(null);
  });
});
