import { sql } from 'kysely';
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
