import { describe, expect, it } from 'vitest';
import { expectList, expectListIn, expectObject, INVALID_SHAPE_MESSAGE } from './shape.js';

describe('answer shape checks', () => {
  it('passes lists and objects of the expected shape through', () => {
    expect(expectList([1, 2])).toEqual([1, 2]);
    expect(expectObject({ a: 1, b: 2 }, 'a')).toEqual({ a: 1, b: 2 });
    expect(expectListIn({ users: [], total: 0 }, 'users')).toEqual({ users: [], total: 0 });
  });

  it.each([null, undefined, 'testo', 3, { images: [] }])(
    'refuses %j where a list is expected',
    (value) => {
      expect(() => expectList(value)).toThrow(INVALID_SHAPE_MESSAGE);
    },
  );

  it('refuses an object missing its list', () => {
    expect(() => expectListIn({ total: 3 }, 'users')).toThrow(INVALID_SHAPE_MESSAGE);
    expect(() => expectListIn({ users: 'none' }, 'users')).toThrow(INVALID_SHAPE_MESSAGE);
    expect(() => expectListIn([], 'users')).toThrow(INVALID_SHAPE_MESSAGE);
    expect(() => expectObject(null, 'a')).toThrow(INVALID_SHAPE_MESSAGE);
  });
});
