import { useMutation } from '@tanstack/react-query';
import { api, ApiError, errorMessage } from '../../lib/api.js';

interface Detail {
  detail: string;
}

/**
 * POST /auth/password-reset: the server mails a link if the address is an account's, and
 * answers the same sentence either way.
 */
export function requestPasswordReset(email: string): Promise<Detail> {
  return api<Detail>('/auth/password-reset', { method: 'POST', body: { email } });
}

/** POST /auth/password-reset/confirm: the link's secret and the new password. */
export function confirmPasswordReset(input: { token: string; password: string }): Promise<Detail> {
  return api<Detail>('/auth/password-reset/confirm', { method: 'POST', body: input });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}

/** The server's sentence for a link that does not work (wrong, used, replaced or expired). */
export const INVALID_RESET_LINK =
  'Il link per scegliere una nuova password non è valido o è scaduto: chiedine uno nuovo.';

/** The link's secret, from the address's fragment (`/reset-password#…`), or null. */
export function resetSecretOf(hash: string): string | null {
  const secret = hash.replace(/^#/, '');
  return /^[\w-]{1,200}$/.test(secret) ? secret : null;
}

/**
 * What the pages of a reset say when a request fails: the server's own sentence for what the
 * person can act upon (a bad address or password, a dead link, the rate limit), else `fallback`
 * (the network, the server's own failure).
 */
export function resetFailureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 429)) {
    return errorMessage(error, fallback);
  }
  return fallback;
}
