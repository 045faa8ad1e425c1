import { useSyncExternalStore } from 'react';
import { getUser, subscribe, type SessionUser } from '../../lib/session.js';

let cached: { raw: string | null; user: SessionUser | null } = { raw: null, user: null };

function snapshot(): SessionUser | null {
  const user = getUser();
  const raw = user === null ? null : JSON.stringify(user);
  // useSyncExternalStore needs a stable object while nothing changed.
  if (raw !== cached.raw) cached = { raw, user };
  return cached.user;
}

/** The logged-in user, or null; re-renders on login, logout and expiry. */
export function useSession(): SessionUser | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}
