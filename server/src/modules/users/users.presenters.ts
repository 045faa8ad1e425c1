import type { UserRow } from '../../db/tables.js';

/** Exactly the fields of OwnUser: the e-mail goes out only here. */
export function toOwnUser(user: UserRow) {
  return {
    id_utente: user.id_utente,
    username: user.username,
    email: user.email,
    is_active: user.is_active === 1,
    is_superuser: user.is_superuser === 1,
    created_at: user.created_at,
  };
}
