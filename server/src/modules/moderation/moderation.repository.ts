import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { holdImageDocuments } from '../../db/locks.js';
import type { ImageStatus } from '../../db/tables.js';

export interface ModerationTarget {
  id_image: number;
  filename: string;
  status: ImageStatus;
  id_categoria: number;
  id_utente: number;
  /** Raised by each change of title, category or tags (migration 2026-12-04T0300). */
  revision: number;
}

export function findTargetByFilename(
  db: Executor,
  filename: string,
): Promise<ModerationTarget | undefined> {
  return db
    .selectFrom('images')
    .select(['id_image', 'filename', 'status', 'id_categoria', 'id_utente', 'revision'])
    .where('filename', '=', filename)
    .executeTakeFirst();
}

/**
 * The image as it is now, inside the transaction that changes it, and kept from other writers
 * until it ends: the counts of its category and tags follow its status and category, and a
 * decision, an edit or a deletion committed between an earlier read and this transaction
 * would otherwise be counted twice or not at all. SQLite's transactions hold the write lock
 * from their start (BEGIN IMMEDIATE, db/database.ts); PostgreSQL locks the row: for a
 * deletion as a deletion does (FOR UPDATE), otherwise FOR NO KEY UPDATE, which lets the
 * views and reactions that refer to the image be written meanwhile. The lock of its search
 * document is taken first (db/locks.ts).
 */
export async function lockTarget(
  trx: Executor,
  dialect: Dialect,
  id: number,
  purpose: 'change' | 'deletion',
): Promise<ModerationTarget | undefined> {
  // First, as every writer of its search document does (db/locks.ts).
  await holdImageDocuments(trx, dialect, [id]);
  return trx
    .selectFrom('images')
    .select(['id_image', 'filename', 'status', 'id_categoria', 'id_utente', 'revision'])
    .where('id_image', '=', id)
    .$if(dialect === 'postgres', (query) =>
      purpose === 'deletion' ? query.forUpdate() : query.forNoKeyUpdate(),
    )
    .executeTakeFirst();
}

/**
 * Moves a pending image to its decision; the `status = 'pending'` condition makes two
 * concurrent decisions on one image end with exactly one winner.
 */
export async function decide(
  db: Executor,
  id: number,
  decision: {
    status: 'approved' | 'rejected';
    rejection_reason: string | null;
    reviewed_by: number;
    at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({
      status: decision.status,
      rejection_reason: decision.rejection_reason,
      reviewed_by: decision.reviewed_by,
      reviewed_at: decision.at,
      published_at: decision.status === 'approved' ? decision.at : null,
    })
    .where('id_image', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteImageRow(db: Executor, id: number): Promise<void> {
  // image_tags and interactions go with it (ON DELETE CASCADE).
  await db.deleteFrom('images').where('id_image', '=', id).execute();
}

/** Marks a change of what the edit form shows: a form filled before it is now stale. */
export async function bumpRevision(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('images')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id_image', '=', id)
    .execute();
}

export async function setTitle(db: Executor, id: number, title: string | null): Promise<void> {
  await db.updateTable('images').set({ titolo_img: title }).where('id_image', '=', id).execute();
}

/**
 * Whether the uploader asked for their account's erasure (D9), which will take the image too.
 * On PostgreSQL the row is held (FOR SHARE) until the decision commits: a request to erase
 * the account arriving at the same moment waits for it, or is waited for and seen.
 */
export async function uploaderLeaving(
  trx: Executor,
  dialect: Dialect,
  userId: number,
): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('deletion_requested_at')
    .where('id_utente', '=', userId)
    .$if(dialect === 'postgres', (query) => query.forShare())
    .executeTakeFirst();
  return row?.deletion_requested_at !== null && row?.deletion_requested_at !== undefined;
}
