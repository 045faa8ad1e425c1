import DataLoader from 'dataloader';
import { ConfigError, type AdminBootstrap } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { UserRow, UserUpdate } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { placeholderAddress } from '../../lib/email-address.js';
import { badRequest, conflict, MESSAGES, notFound, unauthorized } from '../../lib/errors.js';
import { foldKey, lowerCaseKey } from '../../lib/text.js';
import { generatePassword, hashPassword, verifyPassword } from '../auth/passwords.js';
import * as repo from './users.repository.js';
import {
  isPasswordTooShort,
  hasUsernameCharacters,
  mixesScripts,
  normalizeUsername,
  USER_MESSAGES,
  usernameLengthProblem,
} from './users.rules.js';

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  isActive?: boolean;
  isSuperuser?: boolean;
  /** Registration through the public form confirms the minimum age (D9). */
  ageConfirmed?: boolean;
}

export interface ProfileChanges {
  username?: string | undefined;
  email?: string | undefined;
  /** Empty or missing: unchanged (SPEC §5). */
  password?: string | undefined;
  currentPassword?: string | undefined;
}

export interface GeneratedAdministrator {
  username: string;
  password: string;
}

export type UsersService = ReturnType<typeof createUsersService>;

/**
 * A write of a request's own account that failed on its foreign key to the user: the account
 * was erased after the request was authenticated. The answer is the 401 the request would
 * have had a moment later (plugins/auth.ts), which ends the stale session, not a 500. An
 * account still there leaves the failure to the caller's other checks.
 */
export async function refuseIfAccountGone(db: Executor, userId: number): Promise<void> {
  if ((await repo.findUserById(db, userId)) === undefined) {
    throw unauthorized(MESSAGES.invalidToken);
  }
}

/** An account that may act: active and not waiting for erasure. */
export function isUsable(user: Pick<UserRow, 'is_active' | 'deletion_requested_at'>): boolean {
  return user.is_active === 1 && user.deletion_requested_at === null;
}

/**
 * A requested username in its stored form, or a 400: look-alike forms fold into the letters
 * they imitate, and a name mixing confusable alphabets is refused (issue 7).
 */
export function acceptUsername(requested: string): string {
  const username = normalizeUsername(requested);
  const lengthProblem = usernameLengthProblem(username);
  if (lengthProblem !== undefined) throw badRequest(lengthProblem);
  if (!hasUsernameCharacters(username)) throw badRequest(USER_MESSAGES.usernameCharacters);
  if (mixesScripts(username)) throw badRequest(USER_MESSAGES.mixedScripts);
  return username;
}

/** Users read by one statement at most (an IN list of this many ids). */
const CURRENT_BATCH = 100;

/**
 * `onRenamed` is told of every username change once it is stored, by the user or by an
 * administrator: the uploader's name is one of the fields search finds an image by.
 */
export function createUsersService(
  db: Executor,
  dialect: Dialect,
  clock: Clock,
  hooks: { onRenamed?: (id_utente: number) => Promise<void> } = {},
) {
  const timestamp = () => clock.now().toISOString();

  /**
   * Every authenticated request reads its user's row, so that a blocked, demoted or erased
   * account loses its powers at once (plugins/auth.ts). On PostgreSQL that round trip was the
   * cost of a logged-in gallery page (issue 8, goal 1; docs/PERFORMANCE.md). The reads asked
   * for during one turn of the event loop are made by one statement, issued after the last of
   * them was asked (setImmediate): each request's row is read after the request arrived, as
   * current as a read of its own. Nothing is kept between batches (no cache).
   */
  const current = new DataLoader<number, UserRow | undefined>(
    async (ids) => {
      // Without a cache DataLoader hands over an id once per request asking: many requests
      // of one user (a page and its images) are one id to read, by the precompiled read.
      const rows = await repo.findUsersByIds(db, [...new Set(ids)]);
      const byId = new Map(rows.map((row) => [row.id_utente, row]));
      return ids.map((id) => byId.get(id));
    },
    { cache: false, maxBatchSize: CURRENT_BATCH, batchScheduleFn: (run) => setImmediate(run) },
  );

  /** Writes an edit; a 404 when the account is gone, a 401 when `ifVersion` no longer holds. */
  async function writeEdit(
    tx: Executor,
    user: UserRow,
    update: Omit<UserUpdate, 'token_version' | 'revision'>,
    options: { endSessions: boolean; ifVersion?: number; ifRevision?: number },
  ): Promise<UserRow> {
    let updated: UserRow | undefined;
    try {
      updated = await repo.updateUser(tx, user.id_utente, update, options);
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest(USER_MESSAGES.taken);
      throw error;
    }
    if (updated !== undefined) return updated;
    const now = await repo.findUserById(tx, user.id_utente);
    if (
      options.ifRevision !== undefined &&
      now !== undefined &&
      now.revision !== options.ifRevision
    ) {
      throw conflict(USER_MESSAGES.staleEdit);
    }
    if (options.ifVersion !== undefined && now !== undefined) {
      // The session this edit came with ended meanwhile (a password set by an administrator,
      // a deactivation): it no longer speaks for the account.
      throw unauthorized(MESSAGES.invalidToken);
    }
    throw notFound(USER_MESSAGES.notFound);
  }

  /**
   * D7: the last active administrator stays. `change` runs in a transaction in which the active
   * administrators are read and kept from every other change of this kind until it ends
   * (lockActiveAdmins); when it takes `user`'s powers away (`removes`: a demotion, a
   * deactivation, a deletion) and no other active administrator would remain, `refuse()` is
   * thrown instead. Two administrators demoting or deleting each other at once cannot both
   * succeed, as two checks made before their changes could.
   */
  async function keepingAnAdmin<T>(
    user: UserRow,
    removes: boolean,
    refuse: () => Error,
    change: (trx: Executor) => Promise<T>,
  ): Promise<T> {
    return db.transaction().execute(async (trx) => {
      if (removes) {
        const admins = await repo.lockActiveAdmins(trx, dialect);
        if (admins.length === 1 && admins[0] === user.id_utente) throw refuse();
      }
      return change(trx);
    });
  }

  async function create(account: NewAccount): Promise<UserRow> {
    const username = acceptUsername(account.username);
    const email = account.email.normalize('NFC').trim();
    const usernameKey = foldKey(username);
    const emailKey = foldKey(email);
    // Checked first for the common case; the unique indexes settle concurrent registrations.
    if (await repo.isUsernameOrEmailTaken(db, usernameKey, emailKey)) {
      throw badRequest(USER_MESSAGES.taken);
    }
    const now = timestamp();
    try {
      return await repo.insertUser(db, {
        username,
        username_key: usernameKey,
        email,
        email_key: emailKey,
        password_hash: await hashPassword(account.password),
        is_active: account.isActive === false ? 0 : 1,
        is_superuser: account.isSuperuser === true ? 1 : 0,
        age_confirmed_at: account.ageConfirmed === true ? now : null,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest(USER_MESSAGES.taken);
      throw error;
    }
  }

  /**
   * The keys an account's name and e-mail are held under: the stored ones while unchanged (so a
   * row the migration of 2026-11-27 left on its lower-case key keeps it, and is not refused as
   * taken by the row holding the folded one), a new name's or e-mail's folded key otherwise.
   */
  function keysOf(user: UserRow, username: string, email: string) {
    return {
      username_key: username === user.username ? user.username_key : foldKey(username),
      email_key: email === user.email ? user.email_key : foldKey(email),
    };
  }

  async function updateProfile(
    user: UserRow,
    changes: ProfileChanges,
  ): Promise<{ user: UserRow; passwordChanged: boolean }> {
    const username =
      changes.username === undefined ? user.username : acceptUsername(changes.username);
    const email = changes.email?.normalize('NFC').trim() ?? user.email;
    const newPassword = changes.password === '' ? undefined : changes.password;
    const keys = keysOf(user, username, email);
    const emailChanged = keys.email_key !== user.email_key;
    if (newPassword !== undefined && isPasswordTooShort(newPassword)) {
      throw badRequest(USER_MESSAGES.passwordTooShort);
    }

    // D3: a stolen session alone must not be enough to take the account over.
    if (emailChanged || newPassword !== undefined) {
      if (changes.currentPassword === undefined || changes.currentPassword === '') {
        throw badRequest(USER_MESSAGES.currentPasswordRequired);
      }
      if (!(await verifyPassword(user.password_hash, changes.currentPassword))) {
        throw badRequest(USER_MESSAGES.currentPasswordWrong);
      }
    }
    if (await repo.isUsernameOrEmailTaken(db, keys.username_key, keys.email_key, user.id_utente)) {
      throw badRequest(USER_MESSAGES.taken);
    }

    // Only what the user changed: an administrator's edit made meanwhile is not written over.
    const update: Omit<UserUpdate, 'token_version' | 'revision'> = {
      ...(username === user.username ? {} : { username, username_key: keys.username_key }),
      ...(email === user.email ? {} : { email, email_key: keys.email_key }),
      updated_at: timestamp(),
      ...(newPassword === undefined ? {} : { password_hash: await hashPassword(newPassword) }),
    };
    // Checked against the version the request's session was read with: a password set or a
    // deactivation by an administrator since then wins, and this session has ended.
    const updated = await writeEdit(db, user, update, {
      // Every session opened with the old password ends (tokens carry the version).
      endSessions: newPassword !== undefined,
      ifVersion: user.token_version,
    });
    if (updated.username !== user.username) await hooks.onRenamed?.(user.id_utente);
    return { user: updated, passwordChanged: newPassword !== undefined };
  }

  /**
   * The account holding `value` (a name or an address, in its stored form) under its folded
   * key. An account the migration of 2026-11-27 left on its lower-case key (its folded key was
   * already held) is found there by its exact value.
   */
  async function findUnderKeys(
    field: 'username' | 'email',
    value: string,
  ): Promise<UserRow | undefined> {
    const find = field === 'username' ? repo.findUserByUsernameKey : repo.findUserByEmailKey;
    const key = foldKey(value);
    const before = lowerCaseKey(value);
    if (before === key) return find(db, key);
    const [folded, lowerCased] = await Promise.all([find(db, key), find(db, before)]);
    return lowerCased?.[field] === value ? lowerCased : (folded ?? lowerCased);
  }

  /** The account a login names. */
  const findByUsername = (requested: string) =>
    findUnderKeys('username', normalizeUsername(requested));

  /** The account an e-mail address belongs to (a forgotten password's request). */
  const findByEmail = (requested: string) =>
    findUnderKeys('email', requested.normalize('NFC').trim());

  /**
   * A new password set through a link of the password reset, in that flow's transaction: only
   * while the account is usable and still as it was when the link was asked for (its token
   * version: no password set since; its e-mail key: still the address the link went to). Every
   * session ends. False, and nothing written, otherwise. The hash is made before the
   * transaction: argon2's tens of milliseconds must not hold SQLite's write lock.
   */
  async function setPasswordIf(
    tx: Executor,
    id: number,
    expected: { token_version: number; email_key: string },
    passwordHash: string,
  ): Promise<boolean> {
    const user = await repo.findUserById(tx, id);
    if (
      user === undefined ||
      !isUsable(user) ||
      user.token_version !== expected.token_version ||
      user.email_key !== expected.email_key
    ) {
      return false;
    }
    const updated = await repo.updateUser(
      tx,
      id,
      { password_hash: passwordHash, updated_at: timestamp() },
      { endSessions: true, ifVersion: expected.token_version },
    );
    return updated !== undefined;
  }

  /**
   * D12: the configured administrator is created when missing; with none configured and no
   * active administrator at all, one is generated and its credentials returned to be printed
   * once. Concurrent starts of several processes create it once (unique indexes).
   */
  async function ensureAdministrator(
    bootstrap: AdminBootstrap | undefined,
  ): Promise<GeneratedAdministrator | undefined> {
    if (bootstrap !== undefined) {
      if ((await findByUsername(bootstrap.username)) === undefined) {
        const created = await createIgnoringRace({ ...bootstrap, isSuperuser: true });
        // Refused and still missing: not another process's start making it meanwhile, but the
        // address held by another account. Starting without the administrator asked for would
        // leave nobody able to log in to the back-office, and nothing would say why.
        if (!created && (await findByUsername(bootstrap.username)) === undefined) {
          throw new ConfigError(
            'ADMIN_EMAIL',
            `is already the address of another account: "${bootstrap.email}"`,
          );
        }
      }
      return undefined;
    }
    if (await repo.hasActiveSuperuser(db)) return undefined;

    const username = await freeAdministratorName();
    const password = generatePassword();
    const created = await createIgnoringRace({
      username,
      email: placeholderAddress(username),
      password,
      isSuperuser: true,
    });
    return created ? { username, password } : undefined;
  }

  async function createIgnoringRace(account: NewAccount): Promise<boolean> {
    try {
      await create(account);
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 400) return false;
      throw error;
    }
  }

  async function freeAdministratorName(): Promise<string> {
    for (const candidate of ['admin', 'amministratore']) {
      if (!(await repo.isUsernameOrEmailTaken(db, candidate, placeholderAddress(candidate)))) {
        return candidate;
      }
    }
    return `admin-${generatePassword().slice(0, 6).toLowerCase()}`;
  }

  /**
   * An administrator's edit of an account (D7): every field but the id; an empty password
   * leaves it unchanged. A new password or a deactivation ends the user's sessions at once.
   * `refuse()` is thrown when it would leave no active administrator (keepingAnAdmin).
   */
  async function adminUpdate(
    user: UserRow,
    changes: {
      username: string;
      email: string;
      password: string | undefined;
      isActive: boolean;
      isSuperuser: boolean;
      /** The revision the administrator's form was filled with; a later one answers 409. */
      revision?: number | undefined;
    },
    refuse: () => Error,
  ): Promise<UserRow> {
    // Before anything else: the form's other values were read from an account that has
    // changed since, and writing them would undo that change (a deactivation, a new name).
    if (changes.revision !== undefined && changes.revision !== user.revision) {
      throw conflict(USER_MESSAGES.staleEdit);
    }
    // D9: the owner asked for the erasure, which a tick cannot take back; ticked anyway, the
    // account stayed unusable while the form showed it active.
    if (user.deletion_requested_at !== null && user.is_active === 0 && changes.isActive) {
      throw badRequest(USER_MESSAGES.leaving);
    }
    const username = acceptUsername(changes.username);
    const email = changes.email.normalize('NFC').trim();
    const newPassword = changes.password === '' ? undefined : changes.password;
    if (newPassword !== undefined && isPasswordTooShort(newPassword)) {
      throw badRequest(USER_MESSAGES.passwordTooShort);
    }
    const keys = keysOf(user, username, email);
    if (await repo.isUsernameOrEmailTaken(db, keys.username_key, keys.email_key, user.id_utente)) {
      throw badRequest(USER_MESSAGES.taken);
    }
    const endSessions = newPassword !== undefined || (user.is_active === 1 && !changes.isActive);
    const update: Omit<UserUpdate, 'token_version' | 'revision'> = {
      username,
      email,
      ...keys,
      is_active: changes.isActive ? 1 : 0,
      is_superuser: changes.isSuperuser ? 1 : 0,
      updated_at: timestamp(),
      ...(newPassword === undefined ? {} : { password_hash: await hashPassword(newPassword) }),
    };
    const updated = await keepingAnAdmin(
      user,
      !changes.isActive || !changes.isSuperuser,
      refuse,
      // Conditional on the revision read above (when the form sent one): a change committed
      // since then is not written over.
      (trx) =>
        writeEdit(trx, user, update, {
          endSessions,
          ...(changes.revision === undefined ? {} : { ifRevision: user.revision }),
        }),
    );
    if (updated.username !== user.username) await hooks.onRenamed?.(user.id_utente);
    return updated;
  }

  /** A user others may see: active and not waiting for erasure; otherwise 404. */
  async function getPublic(id: number): Promise<UserRow> {
    const user = await repo.findUserById(db, id);
    if (user === undefined || !isUsable(user)) throw notFound(USER_MESSAGES.notFound);
    return user;
  }

  return {
    create,
    updateProfile,
    adminUpdate,
    getPublic,
    profileStats: (id: number) => repo.profileStats(db, id),
    imageIdsOf: (id: number) => repo.imageIdsOfUser(db, id),
    deleteAccount: (id: number, tx: Executor = db) => repo.deleteUser(tx, id),
    keepingAnAdmin,
    /** Ends the account's access at once and marks it for erasure (D9). */
    markForErasure: (id: number, at: string, tx: Executor = db, ifVersion?: number) =>
      repo.markForErasure(tx, id, at, ifVersion),
    ensureAdministrator,
    getById: (id: number) => repo.findUserById(db, id),
    /** The user's row as it is now, read with the others asked for in the same moment. */
    getCurrent: (id: number) => current.load(id),
    findByUsername,
    findByEmail,
    setPasswordIf,
  };
}
