import type { Category } from '../../lib/types.js';

/*
 * SPEC §7, §9: the category list is kept in browser storage for one hour, so a reload (or a
 * new tab) within the hour shows the header's strip and drawer without asking the server.
 */

export const CATEGORIES_KEY = 'muri.categories';
export const CATEGORIES_MAX_AGE_MS = 60 * 60 * 1000;

/** What of the Web Storage API the cache uses, so tests can hand in a plain object. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface CachedCategories {
  categories: Category[];
  /** When the list came from the server, in ms since the epoch. */
  savedAt: number;
}

function isCategory(value: unknown): value is Category {
  if (typeof value !== 'object' || value === null) return false;
  const category = value as Record<string, unknown>;
  return (
    Number.isInteger(category['id_categoria']) &&
    typeof category['nome'] === 'string' &&
    Number.isInteger(category['count']) &&
    typeof category['created_at'] === 'string'
  );
}

/**
 * The entry as stored, if it is whole and still fresh at `now`; otherwise null. An entry saved
 * "in the future" (the clock was turned back) cannot be dated and counts as stale.
 */
export function parseCachedCategories(raw: string | null, now: number): CachedCategories | null {
  if (raw === null) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof entry !== 'object' || entry === null) return null;
  const { savedAt, categories } = entry as { savedAt?: unknown; categories?: unknown };
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return null;
  if (!Array.isArray(categories) || !categories.every(isCategory)) return null;
  if (!isFresh(savedAt, now)) return null;
  return { categories, savedAt };
}

/** Fresh means saved less than an hour before `now`, and not after it. */
export function isFresh(savedAt: number, now: number): boolean {
  const age = now - savedAt;
  return age >= 0 && age < CATEGORIES_MAX_AGE_MS;
}

/** The fresh list in storage, or null; a corrupt or stale entry is removed on the way. */
export function readCachedCategories(
  storage: StorageLike | null,
  now: number,
): CachedCategories | null {
  if (storage === null) return null;
  try {
    const raw = storage.getItem(CATEGORIES_KEY);
    const cached = parseCachedCategories(raw, now);
    if (cached === null && raw !== null) storage.removeItem(CATEGORIES_KEY);
    return cached;
  } catch {
    // Storage can be switched off or refuse access (private modes): then there is no cache.
    return null;
  }
}

/** Keeps the list the server just sent; a full or blocked storage only means no cache. */
export function writeCachedCategories(
  storage: StorageLike | null,
  categories: Category[],
  now: number,
): void {
  if (storage === null) return;
  try {
    const entry: CachedCategories = { savedAt: now, categories };
    storage.setItem(CATEGORIES_KEY, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: the list still works from memory.
  }
}

/** The browser's localStorage, or null where reading it is not allowed. */
export function browserStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * Forgets the stored list, so the next read asks the server: after an administrator created,
 * renamed or deleted a category, the hour SPEC allows would otherwise keep the old list in this
 * browser across reloads (the back-office's image dialog offers categories from it).
 */
export function forgetCachedCategories(storage: StorageLike | null): void {
  if (storage === null) return;
  try {
    storage.removeItem(CATEGORIES_KEY);
  } catch {
    // Storage switched off: there is nothing kept to forget.
  }
}
