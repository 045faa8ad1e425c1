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

function decodeExp(token: string): number | undefined {
  try {
    const payload = token.split('.')[1];
    if (payload === undefined) return undefined;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    return typeof json.exp === 'number' ? json.exp : undefined;
  } catch {
    return undefined;
  }
}

function isExpired(token: string): boolean {
  const exp = decodeExp(token);
  return exp === undefined || exp * 1000 <= Date.now();
}

export function getToken(): string | null {
  const token = localStorage.getItem(TOKEN_KEY);
  if (token === null) return null;
  if (isExpired(token)) {
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

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}
