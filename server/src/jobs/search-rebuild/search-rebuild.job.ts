import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import type { createSearchService } from '../../modules/search/search.service.js';
import { SEARCH_TERMS_VERSION } from '../../modules/search/search.text.js';
import { findSettings, saveSettings } from '../../modules/settings/settings.repository.js';
import { defineJob, enqueueJob, type JobDefinition } from '../worker.js';

/*
 * Search documents are made of terms (search.text.ts termOf), and queries are turned into
 * terms by the same code. When a release changes the terms (SEARCH_TERMS_VERSION), the stored
 * documents of an existing database must be made again, or a word's new term would miss the
 * old documents. A server that starts on such a database enqueues this job, once; the worker
 * rebuilds every document in bounded batches (the search service's reindexAll), then records
 * the version. Searches meanwhile still find every word whose term did not change. A new
 * database records the version at once: its documents will all be made by the current code.
 *
 * Limits, known: the rebuild holds the worker's job slot while it runs (about 0.4 ms an image
 * on SQLite, minutes at a million), and an attempt cut short starts again from the first
 * image; two servers starting at the same moment may enqueue two rebuilds, the second then
 * finding the work done or doing it again (never wrong, at worst twice the work); every
 * process must run the new release before the rebuild, or an old one may write documents with
 * the old terms after the rebuild passed them.
 */

export const SEARCH_REBUILD_JOB = 'search.rebuild';
/** A rebuild interrupted by a restart starts over; a few attempts cover that. */
export const SEARCH_REBUILD_MAX_ATTEMPTS = 5;
/** Where the version of the stored documents' terms is kept (the settings table, as JSON). */
export const SEARCH_TERMS_SETTING = 'search.terms_version';

export interface SearchRebuildPayload {
  version: number;
}

type SearchService = Pick<ReturnType<typeof createSearchService>, 'reindexAll'>;

/** The recorded version; null when none is, or the row is not a number (then: rebuild). */
async function storedVersion(db: Executor): Promise<number | null> {
  const [row] = await findSettings(db, [SEARCH_TERMS_SETTING]);
  if (row === undefined) return null;
  try {
    const value: unknown = JSON.parse(row.value);
    return typeof value === 'number' ? value : null;
  } catch {
    return null;
  }
}

/** Records that every stored document is made of the current terms. */
export function markSearchTermsCurrent(db: Executor, clock: Clock): Promise<void> {
  return saveSettings(
    db,
    [{ key: SEARCH_TERMS_SETTING, value: JSON.stringify(SEARCH_TERMS_VERSION) }],
    clock.now().toISOString(),
  );
}

/**
 * At start: nothing when the documents are current; on a database without approved images
 * (new, or nothing to rebuild) the version is recorded; otherwise the rebuild is enqueued,
 * unless one is already waiting or running. Returns what it did.
 */
export async function ensureSearchTermsCurrent(
  db: Executor,
  clock: Clock,
): Promise<'current' | 'recorded' | 'enqueued' | 'pending'> {
  if ((await storedVersion(db)) === SEARCH_TERMS_VERSION) return 'current';
  const approved = await db
    .selectFrom('images')
    .select('id_image')
    .where('status', '=', 'approved')
    .limit(1)
    .executeTakeFirst();
  if (approved === undefined) {
    await markSearchTermsCurrent(db, clock);
    return 'recorded';
  }
  const waiting = await db
    .selectFrom('jobs')
    .select('id_job')
    .where('name', '=', SEARCH_REBUILD_JOB)
    // A job an older release left waiting rebuilds to its own version, not to this one.
    .where('payload', '=', JSON.stringify({ version: SEARCH_TERMS_VERSION }))
    .where('status', 'in', ['queued', 'running'])
    .limit(1)
    .executeTakeFirst();
  if (waiting !== undefined) return 'pending';
  await enqueueJob<SearchRebuildPayload>(
    db,
    clock,
    { name: SEARCH_REBUILD_JOB, maxAttempts: SEARCH_REBUILD_MAX_ATTEMPTS },
    { version: SEARCH_TERMS_VERSION },
  );
  return 'enqueued';
}

export function createSearchRebuildJob(
  db: Executor,
  clock: Clock,
  search: SearchService,
): JobDefinition<SearchRebuildPayload> {
  return defineJob<SearchRebuildPayload>({
    name: SEARCH_REBUILD_JOB,
    maxAttempts: SEARCH_REBUILD_MAX_ATTEMPTS,
    async run(payload, ctx) {
      // A newer release's job, claimed by a worker not yet upgraded: leave it to a newer one.
      if (payload.version > SEARCH_TERMS_VERSION) {
        throw new Error(
          `search terms version ${String(payload.version)} is newer than this code's`,
        );
      }
      // A job left by an older release, or a rebuild another worker finished: nothing to do.
      if (payload.version !== SEARCH_TERMS_VERSION) return;
      if ((await storedVersion(db)) === SEARCH_TERMS_VERSION) return;
      const started = performance.now();
      const images = await search.reindexAll();
      await markSearchTermsCurrent(db, clock);
      ctx.log.info(
        { images, version: SEARCH_TERMS_VERSION, ms: Math.round(performance.now() - started) },
        'search documents rebuilt',
      );
    },
  });
}
