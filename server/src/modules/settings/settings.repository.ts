import type { Executor } from '../../db/executor.js';

/*
 * All SQL of the settings (D7): one row per setting, its value as JSON text, so each setting
 * keeps its type on both engines and two administrators changing different settings at the
 * same time never overwrite each other.
 */

export interface StoredSetting {
  key: string;
  value: string;
}

/** The stored rows of these keys; a key never written has no row. Reads the primary key only. */
export function findSettings(db: Executor, keys: readonly string[]): Promise<StoredSetting[]> {
  return db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
}

/** Inserts or replaces each setting (ON CONFLICT works the same on SQLite and PostgreSQL). */
export async function saveSettings(
  db: Executor,
  entries: readonly StoredSetting[],
  at: string,
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('settings')
    .values(entries.map((entry) => ({ key: entry.key, value: entry.value, updated_at: at })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
