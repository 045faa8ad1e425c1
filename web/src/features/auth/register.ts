import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { saveSession } from '../../lib/session.js';
import type { SessionAnswer } from './login.js';

export interface Registration {
  username: string;
  email: string;
  password: string;
}

/** POST /auth/register: the age confirmation of D9 is required by the server. */
export function register(registration: Registration): Promise<SessionAnswer> {
  return api<SessionAnswer>('/auth/register', {
    method: 'POST',
    body: { ...registration, age_confirmed: true },
  });
}

/** Registration opens the session at once (SPEC §4). */
export function useRegister() {
  return useMutation({
    mutationFn: register,
    onSuccess: ({ access_token, user }) => {
      saveSession(access_token, user);
    },
  });
}
