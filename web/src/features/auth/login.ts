import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { saveSession, type SessionUser } from '../../lib/session.js';

export interface SessionAnswer {
  access_token: string;
  user: SessionUser;
}

export interface Credentials {
  username: string;
  password: string;
}

/** POST /auth/login {username, password} → {access_token, user}. */
export function login(credentials: Credentials): Promise<SessionAnswer> {
  return api<SessionAnswer>('/auth/login', { method: 'POST', body: credentials });
}

/** Logs in and keeps the session in browser storage (SPEC §4). */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: ({ access_token, user }) => {
      saveSession(access_token, user);
    },
  });
}
