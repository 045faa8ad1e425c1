import { describe, expect, it } from 'vitest';
import { INVALID_SHAPE_MESSAGE } from '../../shape.js';
import { parseUserList } from './users.js';

describe('the answer of GET /admin/users', () => {
  it('passes {users, total} through', () => {
    const answer = { users: [{ id_utente: 1, username: 'admin' }], total: 1 };
    expect(parseUserList(answer)).toBe(answer);
    expect(parseUserList({ users: [], total: 0 })).toEqual({ users: [], total: 0 });
  });

  it.each([
    null,
    [],
    [{ id_utente: 1 }],
    { total: 3 },
    { users: 'tutti', total: 1 },
    { users: [] },
    { users: [], total: '0' },
    { users: [null], total: 1 },
    { users: [{ username: 'senza id' }], total: 1 },
  ])('reports %j as an answer of unexpected shape', (answer) => {
    expect(() => parseUserList(answer)).toThrow(INVALID_SHAPE_MESSAGE);
  });
});
