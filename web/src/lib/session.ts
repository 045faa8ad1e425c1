/*
 * The session (SPEC §4): token and user in browser storage. A token whose `exp` has passed
 * means logged out, checked at start and whenever auth headers are built.
 */
export interface SessionUser {
  id_utente: number;
  username: string;
  email: string;
  is_active: boolean;
  is_superuser: boolean;
  created_at: string;
}

const TOKEN_KEY = 'muri.token';
const USER_KEY = 'muri.user';

type Listener = () => void;
const listeners = new Set<Listener>();

/** The `exp` claim (seconds) of a JWT, read without checking the signature: the server does. */
function decodeExp(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload === '') return undefined;
  try {
    // base64url → base64; atob accepts the missing padding.
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    if (typeof claims !== 'object' || claims === null) return undefined;
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SPEC §4, §9: a token is expired once `exp` has passed; from that very second on it is dead.
 * A token whose expiry cannot be read counts as expired: it could never be trusted to end.
 */
export function isTokenExpired(token: string, nowMs: number): boolean {
  const exp = decodeExp(token);
  return exp === undefined || exp * 1000 <= nowMs;
}

export function getToken(): string | null {
  const token = localStorage.getItem(TOKEN_KEY);
  if (token === null) return null;
  if (isTokenExpired(token, Date.now())) {
    clearSession();
    return null;
  }
  return token;
}

export function getUser(): SessionUser | null {
  if (getToken() === null) return null;
  const raw = localStorage.getItem(USER_KEY);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

export function saveSession(token: string, user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  notify();
}

export function saveUser(user: SessionUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  notify();
}

export function clearSession(): void {
  const had = localStorage.getItem(TOKEN_KEY) !== null;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  if (had) notify();
}

/**
 * Another tab of the site logged in or out: its change of the same storage arrives as a
 * 'storage' event (never in the tab that made it), so every tab shows the session there is,
 * not the one it had, until its next request found out.
 */
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) notify();
}

export function subscribe(listener: Listener): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

function notify(): void {
  for (const listener of listeners) listener();
}
