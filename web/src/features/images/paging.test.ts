import { describe, expect, it } from 'vitest';
import { nextPageParam, nextSkip, pageParamQuery, type Paged } from './paging.js';

const page = (count: number, extra: Omit<Paged, 'images'>): Paged => ({
  images: Array.from({ length: count }, (_, index) => index),
  ...extra,
});

describe('nextSkip (SPEC §4: stop when the loaded count reaches the total)', () => {
  it('asks from the loaded count while it is below the total', () => {
    const first = page(120, { total: 300 });
    expect(nextSkip(first, [first])).toBe(120);
    const second = page(120, { total: 300 });
    expect(nextSkip(second, [first, second])).toBe(240);
  });

  it('stops at the total, and on an empty page even if the total says more', () => {
    const first = page(120, { total: 240 });
    const last = page(120, { total: 240 });
    expect(nextSkip(last, [first, last])).toBeUndefined();
    const empty = page(0, { total: 500 });
    expect(nextSkip(empty, [first, empty])).toBeUndefined();
    expect(nextSkip(page(0, { total: 0 }), [page(0, { total: 0 })])).toBeUndefined();
  });

  it('follows hasMore when the server answers with it (profiles)', () => {
    const first = page(30, { hasMore: true });
    expect(nextSkip(first, [first])).toBe(30);
    const last = page(12, { hasMore: false });
    expect(nextSkip(last, [first, last])).toBeUndefined();
  });

  it('ends a list that says neither', () => {
    const only = page(10, {});
    expect(nextSkip(only, [only])).toBeUndefined();
  });
});

describe('nextPageParam (galleries continue by cursor, other lists by skip)', () => {
  it('follows the server’s cursor while it hands one out, and stops on null', () => {
    const first = page(120, { total: 1000, next_cursor: 'abc' });
    expect(nextPageParam(first, [first])).toBe('abc');
    // The cursor wins over the count: a total that changed meanwhile does not matter.
    const last = page(40, { total: 1000, next_cursor: null });
    expect(nextPageParam(last, [first, last])).toBeUndefined();
  });

  it('falls back to skip for lists without cursors (search, related)', () => {
    const first = page(120, { total: 300 });
    expect(nextPageParam(first, [first])).toBe(120);
    const last = page(60, { total: 180 });
    expect(nextPageParam(last, [first, last])).toBeUndefined();
  });

  it('turns a cursor or a skip into its query parameter', () => {
    expect(pageParamQuery(240)).toBe('skip=240');
    expect(pageParamQuery('WyIyMDI2Ii wxXQ+/=')).toBe('cursor=WyIyMDI2Ii%20wxXQ%2B%2F%3D');
  });
});
