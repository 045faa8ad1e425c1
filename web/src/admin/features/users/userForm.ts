import type { AdminUserDetail, AdminUserInput } from '../../types.js';

/** What the user dialog and the user form page edit. */
export interface UserFormValues {
  username: string;
  email: string;
  /** Empty on edit means: keep the current password. */
  password: string;
  is_active: boolean;
  is_superuser: boolean;
}

/** A new account starts active and without administrator rights. */
export const EMPTY_USER_FORM: UserFormValues = {
  username: '',
  email: '',
  password: '',
  is_active: true,
  is_superuser: false,
};

/** The form filled from an existing account; the password always starts blank. */
export function userFormOf(
  user: Pick<AdminUserDetail, 'username' | 'email' | 'is_active' | 'is_superuser'>,
): UserFormValues {
  return {
    username: user.username,
    email: user.email,
    password: '',
    is_active: user.is_active,
    is_superuser: user.is_superuser,
  };
}

/**
 * The body of POST or PUT /admin/users. Surrounding spaces are dropped from username and
 * e-mail (never meant, easy to paste); the password is sent as typed. On edit an empty
 * password is left out so the current one stays; on creation it is sent even when empty,
 * because the server decides what is valid (SPEC §5) and says why in Italian. An edit carries
 * the `revision` the form was filled from, so the server can refuse it (409) rather than let
 * it undo a change someone else saved after the form was opened.
 */
export function userBody(
  values: UserFormValues,
  editing: boolean,
  revision?: number,
): AdminUserInput {
  const body: AdminUserInput = {
    username: values.username.trim(),
    email: values.email.trim(),
    is_active: values.is_active,
    is_superuser: values.is_superuser,
  };
  if (!editing || values.password !== '') body.password = values.password;
  if (editing && revision !== undefined) body.revision = revision;
  return body;
}

/**
 * What the dialog hands to the full-page form when the administrator switches to it, carried
 * in the navigation state. The password is left behind: history entries outlive the form.
 */
export type UserDraft = Omit<UserFormValues, 'password'> & {
  /** The revision the dialog was filled from: the page saves the draft against it, not a later one. */
  revision?: number;
};

export function draftOf(values: UserFormValues, revision?: number): UserDraft {
  return {
    username: values.username,
    email: values.email,
    is_active: values.is_active,
    is_superuser: values.is_superuser,
    ...(revision === undefined ? {} : { revision }),
  };
}

/** The draft in a navigation state, or null: history state can hold anything, so check it. */
export function draftFromState(state: unknown): UserDraft | null {
  if (typeof state !== 'object' || state === null || !('draft' in state)) return null;
  const draft: unknown = state.draft;
  if (typeof draft !== 'object' || draft === null) return null;
  const { username, email, is_active, is_superuser, revision } = draft as Record<string, unknown>;
  if (
    typeof username !== 'string' ||
    typeof email !== 'string' ||
    typeof is_active !== 'boolean' ||
    typeof is_superuser !== 'boolean'
  ) {
    return null;
  }
  return {
    username,
    email,
    is_active,
    is_superuser,
    ...(typeof revision === 'number' && Number.isInteger(revision) ? { revision } : {}),
  };
}

/** The id of /admin/users/:id/edit, or null when it cannot name a user. */
export function parseUserId(param: string | undefined): number | null {
  if (param === undefined || !/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= 2_147_483_647 ? id : null;
}

/** The feedback the form page leaves for the list in the navigation state, or null. */
export function noticeFromState(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' && state.notice !== '' ? state.notice : null;
}
