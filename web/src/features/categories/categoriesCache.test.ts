import { describe, expect, it } from 'vitest';
import type { Category } from '../../lib/types.js';
import {
  CATEGORIES_KEY,
  CATEGORIES_MAX_AGE_MS,
  isFresh,
  parseCachedCategories,
  readCachedCategories,
  writeCachedCategories,
  type StorageLike,
} from './categoriesCache.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const CATEGORIES: Category[] = [
  { id_categoria: 1, nome: 'Non categorizzata', count: 3, created_at: '2026-01-01T00:00:00.000Z' },
  { id_categoria: 2, nome: 'messaggi_amore', count: 12, created_at: '2026-01-02T00:00:00.000Z' },
];

/** A Storage stand-in over a Map; `broken` makes every call throw like a blocked storage. */
function memoryStorage(initial: Record<string, string> = {}, broken = false) {
  const items = new Map(Object.entries(initial));
  const storage: StorageLike = {
    getItem: (key) => {
      if (broken) throw new Error('SecurityError');
      return items.get(key) ?? null;
    },
    setItem: (key, value) => {
      if (broken) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => {
      if (broken) throw new Error('SecurityError');
      items.delete(key);
    },
  };
  return { storage, items };
}

const entry = (savedAt: unknown, categories: unknown = CATEGORIES) =>
  JSON.stringify({ savedAt, categories });

describe('isFresh', () => {
  it('holds for less than an hour after saving, not at the hour and not before saving', () => {
    expect(isFresh(NOW, NOW)).toBe(true);
    expect(isFresh(NOW - CATEGORIES_MAX_AGE_MS + 1, NOW)).toBe(true);
    expect(isFresh(NOW - CATEGORIES_MAX_AGE_MS, NOW)).toBe(false);
    expect(isFresh(NOW + 1, NOW)).toBe(false);
  });
});

describe('parseCachedCategories', () => {
  it('gives back a whole, fresh entry', () => {
    expect(parseCachedCategories(entry(NOW - 59 * 60 * 1000), NOW)).toEqual({
      categories: CATEGORIES,
      savedAt: NOW - 59 * 60 * 1000,
    });
    expect(parseCachedCategories(entry(NOW, []), NOW)).toEqual({ categories: [], savedAt: NOW });
  });

  it('ignores a missing or stale entry', () => {
    expect(parseCachedCategories(null, NOW)).toBeNull();
    expect(parseCachedCategories(entry(NOW - CATEGORIES_MAX_AGE_MS), NOW)).toBeNull();
    expect(parseCachedCategories(entry(NOW - 2 * CATEGORIES_MAX_AGE_MS), NOW)).toBeNull();
    expect(parseCachedCategories(entry(NOW + 60_000), NOW)).toBeNull();
  });

  it.each([
    ['not JSON', '{savedAt:'],
    ['JSON null', 'null'],
    ['a bare list', JSON.stringify(CATEGORIES)],
    ['no date', JSON.stringify({ categories: CATEGORIES })],
    ['a date as text', entry(String(NOW))],
    ['no list', JSON.stringify({ savedAt: NOW })],
    ['a list of text', entry(NOW, ['amore'])],
    ['a category without its name', entry(NOW, [{ id_categoria: 1, count: 0, created_at: '' }])],
    [
      'a count as text',
      entry(NOW, [{ id_categoria: 1, nome: 'a', count: '3', created_at: '2026-01-01' }]),
    ],
    ['a null in the list', entry(NOW, [...CATEGORIES, null])],
  ])('ignores a corrupt entry: %s', (_name, raw) => {
    expect(parseCachedCategories(raw, NOW)).toBeNull();
  });
});

describe('readCachedCategories and writeCachedCategories', () => {
  it('reads back what was written, under muri.categories, for the next hour', () => {
    const { storage, items } = memoryStorage();
    writeCachedCategories(storage, CATEGORIES, NOW);
    expect(JSON.parse(items.get(CATEGORIES_KEY) ?? 'null')).toEqual({
      savedAt: NOW,
      categories: CATEGORIES,
    });
    expect(readCachedCategories(storage, NOW + 30 * 60 * 1000)).toEqual({
      categories: CATEGORIES,
      savedAt: NOW,
    });
    expect(readCachedCategories(storage, NOW + CATEGORIES_MAX_AGE_MS)).toBeNull();
  });

  it('removes a stale or corrupt entry and leaves other keys alone', () => {
    const stale = memoryStorage({
      [CATEGORIES_KEY]: entry(NOW - CATEGORIES_MAX_AGE_MS - 1),
      'muri.token': 'abc',
    });
    expect(readCachedCategories(stale.storage, NOW)).toBeNull();
    expect(stale.items.has(CATEGORIES_KEY)).toBe(false);
    expect(stale.items.get('muri.token')).toBe('abc');

    const corrupt = memoryStorage({ [CATEGORIES_KEY]: 'garbage' });
    expect(readCachedCategories(corrupt.storage, NOW)).toBeNull();
    expect(corrupt.items.has(CATEGORIES_KEY)).toBe(false);
  });

  it('has nothing when there is no entry or no storage', () => {
    expect(readCachedCategories(memoryStorage().storage, NOW)).toBeNull();
    expect(readCachedCategories(null, NOW)).toBeNull();
    expect(() => {
      writeCachedCategories(null, CATEGORIES, NOW);
    }).not.toThrow();
  });

  it('treats a storage that throws (blocked, full) as no cache, without failing', () => {
    const { storage } = memoryStorage({}, true);
    expect(readCachedCategories(storage, NOW)).toBeNull();
    expect(() => {
      writeCachedCategories(storage, CATEGORIES, NOW);
    }).not.toThrow();
  });
});
