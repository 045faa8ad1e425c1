import { PostgresAdapter, sql } from 'kysely';
import type { Dialect } from './database.js';
import type { Executor } from './executor.js';

/*
 * The writers of an image's search document (moderation's decisions, edits and deletions, and
 * every reindex) take this lock on the image first, held to the end of their transaction, so
 * a reindex never reads an image before a decision commits and writes after it. On PostgreSQL
 * it is an advisory lock keyed by the image's id in a namespace of its own, not a row lock:
 * one on the image's row would hold up the counters (likes, downloads, the views' batches)
 * that update that row meanwhile. SQLite's write transaction already excludes every other
 * writer.
 *
 * A rule for every writer of search terms on PostgreSQL: the first write of a dense word's
 * terms, or of a publication time beyond its block's bounds (nearly every approval), takes one
 * advisory lock shared by all such writers (migrations 2026-11-29T0900-search-term-blocks and
 * 2026-12-01T2100-search-published-bounds), held to the commit. Nothing another writer holds may
 * be locked after that in the same transaction: take the images' document locks and rows, the
 * categories', tags' and vocabulary's rows first, and write the documents last, as the search
 * service and moderation do. A lock taken after the documents' writes can wait in a circle.
 */
export const IMAGE_DOCUMENT_LOCK = 0x6d70;

/** Takes the lock of each image, in id order (two writers of several never wait in a circle). */
export async function holdImageDocuments(
  trx: Executor,
  dialect: Dialect,
  ids: readonly number[],
): Promise<void> {
  if (dialect !== 'postgres' || ids.length === 0) return;
  await sql`
    SELECT pg_advisory_xact_lock(${IMAGE_DOCUMENT_LOCK}::int, id)
    FROM (SELECT DISTINCT unnest(${[...ids]}::int[]) AS id ORDER BY id) AS wanted
  `.execute(trx);
}

/**
 * Locks images' rows before their counters are recomputed or added to, in id order: two writers
 * of several counters (a batch of views, an erasure's batch) never wait for each other in a
 * circle, which `UPDATE … WHERE id_image IN (…)` alone does not promise on PostgreSQL (it locks
 * in the order its plan reads). Taken first, before the transaction deletes any interaction, so
 * an image's deletion (which locks the image, then its interactions by cascade) waits for it or
 * it for the deletion, never both. And a statement after it sees every reaction committed before
 * it got the lock: a recount made under it does not overwrite a concurrent toggle's +1, as one
 * UPDATE would that waited for the row and then wrote a count from its older snapshot.
 * FOR NO KEY UPDATE, as an UPDATE of the counters takes: it lets views and reactions that refer
 * to the images be inserted meanwhile. SQLite's write transaction already excludes every other
 * writer.
 */
export async function holdImageRows(trx: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    SELECT id_image FROM images WHERE id_image = ANY(${[...ids]}::int[])
    ORDER BY id_image FOR NO KEY UPDATE
  `.execute(trx);
}

/**
 * Locks a user's row before the account is deleted with everything it did (an erasure's last
 * transaction), and before that is read. A reaction or a download of the account's own that was
 * authenticated before the account was marked may still be writing: its row refers to the user
 * (a KEY SHARE lock on PostgreSQL), so this waits for it to commit, and what is read next
 * includes it. Read first and locked only by the DELETE, that write was taken away by the
 * cascade while its counter's +1 stayed (found by privacy.test.ts). Writes that begin after this
 * wait for the deletion, then fail on their foreign key. SQLite's write transaction already
 * excludes every other writer.
 */
export async function holdUserRow(trx: Executor, userId: number): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`SELECT id_utente FROM users WHERE id_utente = ${userId} FOR UPDATE`.execute(trx);
}

/**
 * Held by a category's creation or rename from its check of the names on screen to its write:
 * two names with different stored keys may read alike ('messaggi_molo' and 'Molo'), which no
 * constraint can refuse, so the second writer must read after the first one commits. Taken
 * first in its transaction, before any row. SQLite's write transaction already excludes every
 * other writer.
 */
export const CATEGORY_NAMES_LOCK = 0x6d72;

export async function holdCategoryNames(trx: Executor, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(${CATEGORY_NAMES_LOCK}::int, 0)`.execute(trx);
}
