import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
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

/** The server's own sentence for a registration refused while they are closed (D7). */
export const REGISTRATIONS_CLOSED = 'Le registrazioni sono chiuse al momento.';

const registrationsQuery = queryOptions({
  queryKey: ['auth', 'registrations'],
  queryFn: ({ signal }) => api<{ registrations_open: boolean }>('/auth/registrations', { signal }),
  // An administrator may close or open them at any moment: asked each time the page opens.
  staleTime: 0,
});

/**
 * False once the server says registrations are closed: the page says so instead of a form
 * that could only be refused. Open while it has not answered (or could not): the server
 * still refuses a closed registration with the same sentence.
 */
export function useRegistrationsOpen(): boolean {
  return useQuery(registrationsQuery).data?.registrations_open ?? true;
}
