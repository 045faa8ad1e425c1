import type { Kysely } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { Database } from '../../db/tables.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../uploads/uploads.service.js';
import * as repo from './settings.repository.js';

/*
 * Settings an administrator changes at run time (D7), stored in the database and enforced by
 * the server: registrations open or closed, the upload size limit, moderation e-mails.
 *
 * No cache, on purpose: every use reads the rows again. Several servers may share one
 * PostgreSQL database and each must obey a change at once; a per-process cache would need
 * invalidation across processes (LISTEN/NOTIFY, or a window in which old values still apply).
 * The read is one primary-key lookup of at most three rows of a tiny table, done only where a
 * setting matters (a registration, an upload, a moderation decision), each of which costs far
 * more itself (argon2 hashing, image decoding, a transaction).
 */

export interface Settings {
  /** Closed: POST /auth/register answers 403. Administrators can still create accounts. */
  registrations_open: boolean;
  /** The largest file POST /images/export accepts, in bytes. */
  upload_max_bytes: number;
  /** Off: approvals and rejections queue no e-mail to the uploader. */
  moderation_emails: boolean;
}

export type SettingKey = keyof Settings;

export const SETTING_KEYS: readonly SettingKey[] = [
  'registrations_open',
  'upload_max_bytes',
  'moderation_emails',
];

/** Below this an ordinary phone photo could never be uploaded. */
export const UPLOAD_MAX_BYTES_MIN = 100 * 1024;
/** D7: the limit may be lowered, never raised above SPEC's 5 MB. */
export const UPLOAD_MAX_BYTES_MAX = DEFAULT_UPLOAD_LIMIT_BYTES;

/** What applies while a setting has never been saved. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  registrations_open: true,
  upload_max_bytes: DEFAULT_UPLOAD_LIMIT_BYTES,
  moderation_emails: true,
});

export const SETTINGS_MESSAGES = {
  registrationsClosed: 'Le registrazioni sono chiuse al momento.',
  invalid: 'Impostazioni non valide.',
  mustBeBoolean: (label: string) => `Il campo "${label}" deve essere vero o falso.`,
  uploadLimitNotInteger: 'La dimensione massima dei file deve essere un numero intero di byte.',
  uploadLimitTooSmall: `La dimensione massima dei file deve essere di almeno ${UPLOAD_MAX_BYTES_MIN / 1024} KB.`,
  uploadLimitTooLarge: `La dimensione massima dei file non può superare ${UPLOAD_MAX_BYTES_MAX / 1024 / 1024} MB.`,
} as const;

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** The rule of each setting; the schema checks the same on input, this also guards stored rows. */
const IS_VALID: { [K in SettingKey]: (value: unknown) => value is Settings[K] } = {
  registrations_open: isBoolean,
  upload_max_bytes: (value): value is number =>
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    value >= UPLOAD_MAX_BYTES_MIN &&
    value <= UPLOAD_MAX_BYTES_MAX,
  moderation_emails: isBoolean,
};

/**
 * A stored value, or the default when there is none, or when it does not parse or breaks its
 * rule (a row edited by hand, say): a bad row must not break registrations or uploads.
 */
function pick<K extends SettingKey>(stored: ReadonlyMap<string, unknown>, key: K): Settings[K] {
  const value = stored.get(key);
  return IS_VALID[key](value) ? value : DEFAULT_SETTINGS[key];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>;

export function createSettingsService(db: Kysely<Database>, clock: Clock) {
  /** The settings now in force; `executor` lets a caller read inside its own transaction. */
  async function get(executor: Executor = db): Promise<Settings> {
    const rows = await repo.findSettings(executor, SETTING_KEYS);
    const stored = new Map(rows.map((row) => [row.key, parseJson(row.value)]));
    return {
      registrations_open: pick(stored, 'registrations_open'),
      upload_max_bytes: pick(stored, 'upload_max_bytes'),
      moderation_emails: pick(stored, 'moderation_emails'),
    };
  }

  /** Saves the settings given (any subset) and answers all of them as they now are. */
  async function update(changes: Partial<Settings>): Promise<Settings> {
    const entries: repo.StoredSetting[] = [];
    for (const key of SETTING_KEYS) {
      const value = changes[key];
      if (value === undefined) continue;
      // The route's schema already refused bad values; this keeps other callers honest.
      if (!IS_VALID[key](value)) throw badRequest(SETTINGS_MESSAGES.invalid);
      entries.push({ key, value: JSON.stringify(value) });
    }
    return db.transaction().execute(async (trx) => {
      await repo.saveSettings(trx, entries, clock.now().toISOString());
      return get(trx);
    });
  }

  return { get, update };
}
