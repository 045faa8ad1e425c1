import { describe, expect, it } from 'vitest';
import {
  draftFromState,
  draftOf,
  EMPTY_USER_FORM,
  noticeFromState,
  parseUserId,
  userBody,
  userFormOf,
} from './userForm.js';

const filled = {
  username: '  giulia.r ',
  email: ' giulia@example.it\t',
  password: ' segreta con spazi ',
  is_active: false,
  is_superuser: true,
};

describe('the request body of the user forms', () => {
  it('sends the typed password as it is, spaces included, and trims the names', () => {
    expect(userBody(filled, false)).toEqual({
      username: 'giulia.r',
      email: 'giulia@example.it',
      password: ' segreta con spazi ',
      is_active: false,
      is_superuser: true,
    });
    expect(userBody(filled, true).password).toBe(' segreta con spazi ');
  });

  it('leaves an empty password out on edit, so the current one stays', () => {
    const body = userBody({ ...filled, password: '' }, true);
    expect(body).not.toHaveProperty('password');
    expect(body).toEqual({
      username: 'giulia.r',
      email: 'giulia@example.it',
      is_active: false,
      is_superuser: true,
    });
  });

  it('sends an empty password on creation, for the server to refuse in Italian', () => {
    expect(userBody(EMPTY_USER_FORM, false)).toEqual({
      username: '',
      email: '',
      password: '',
      is_active: true,
      is_superuser: false,
    });
  });
});

describe('the starting values', () => {
  it('starts a new account active and without administrator rights', () => {
    expect(EMPTY_USER_FORM).toMatchObject({ is_active: true, is_superuser: false, password: '' });
  });

  it('fills an existing account with a blank password', () => {
    expect(
      userFormOf({
        username: 'marco',
        email: 'm@example.it',
        is_active: true,
        is_superuser: false,
      }),
    ).toEqual({
      username: 'marco',
      email: 'm@example.it',
      password: '',
      is_active: true,
      is_superuser: false,
    });
  });
});

describe('the draft carried from the dialog to the form page', () => {
  it('leaves the password behind and comes back out of the state', () => {
    const draft = draftOf(filled);
    expect(draft).not.toHaveProperty('password');
    expect(draftFromState({ draft })).toEqual(draft);
  });

  it.each([
    null,
    undefined,
    'draft',
    {},
    { draft: null },
    { draft: { username: 'a', email: 'b', is_active: 'sì', is_superuser: false } },
    { draft: { username: 3, email: 'b', is_active: true, is_superuser: false } },
  ])('ignores a state that holds no draft: %j', (state) => {
    expect(draftFromState(state)).toBeNull();
  });
});

describe('the notice left for the list', () => {
  it('reads a message and ignores anything else', () => {
    expect(noticeFromState({ notice: 'Utente creato' })).toBe('Utente creato');
    expect(noticeFromState({ notice: '' })).toBeNull();
    expect(noticeFromState({ notice: 4 })).toBeNull();
    expect(noticeFromState(null)).toBeNull();
    expect(noticeFromState({ draft: {} })).toBeNull();
  });
});

describe('the id in /admin/users/:id/edit', () => {
  it('accepts positive whole numbers the server can hold', () => {
    expect(parseUserId('1')).toBe(1);
    expect(parseUserId('2147483647')).toBe(2147483647);
  });

  it.each([undefined, '', '0', '007', '-3', '1.5', '1e3', 'abc', '12abc', '2147483648', ' 4'])(
    'refuses %j',
    (param) => {
      expect(parseUserId(param)).toBeNull();
    },
  );
});
