import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import * as repo from './interactions.repository.js';

/*
 * Issue 8, goal 5: views are the busiest write (every image page opened) and each used to be a
 * transaction of its own: on SQLite's single writer, 1,000 of them a second took the reads'
 * CPU. A counted view is now answered at once and kept here; every `flushMs` (VIEW_FLUSH_MS, 250 ms) the views that
 * arrived are written together, in one transaction: one multi-row INSERT and one UPDATE that
 * moves each image's counter by its number of new views. Counters lag by at most `flushMs`
 * (plus the public lists' second), never by a recount.
 *
 * The once-per-24-hours rule (D5) still holds while a view waits: `has` answers for the views
 * waiting and for those being written, and the database answers for the rest. A check reads
 * the database before it looks here, and a batch may be written in between (its views no
 * longer waiting, and not in what the check read): each check therefore starts with
 * `beginCheck`, and the batches written since then answer too, kept until no check that
 * began before them is still running. Images deleted
 * and users erased while their views wait are left out when the batch is written; a batch that
 * fails (the database is down) goes back to wait for the next flush, up to MAX_WAITING views.
 */

export interface PendingView {
  id_image: number;
  id_utente: number | null;
  viewer_key: string;
  created_at: string;
}

/** After a failed write, the next try waits longer: an outage should not flood the log. */
const RETRY_MS = 2_000;
/** A batch this large is written at once rather than at the next tick. */
const FLUSH_AT = 2_000;
/** Views kept through a database outage; beyond this, new views are not counted. */
const MAX_WAITING = 100_000;

export type ViewBuffer = ReturnType<typeof createViewBuffer>;

/** What the buffer logs: pino's logger, or the views' thread's messages to it (view-worker.ts). */
export interface BufferLog {
  error(details: { err: unknown; views: number }, message: string): void;
}

/** A check in progress: how many batches had been written when it began. */
export interface ViewCheck {
  readonly since: number;
}

export function createViewBuffer(db: Kysely<Database>, log: BufferLog, flushMs: number) {
  let waiting = new Map<string, PendingView>();
  let writing = new Map<string, PendingView>();
  // Batches written, numbered from 1, kept while a check that began before them runs.
  let written = 0;
  let recent: Array<{ number: number; views: Map<string, PendingView> }> = [];
  const checks = new Set<ViewCheck>();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let inFlight = false;
  let failing = false;

  const keyOf = (imageId: number, viewerKey: string) => `${imageId}\u0000${viewerKey}`;

  function schedule(): void {
    if (waiting.size >= FLUSH_AT && !inFlight && !failing) {
      void flush();
      return;
    }
    // One timer while views wait, none while idle: an idle server does not wake up.
    timer ??= setTimeout(() => void flush(), failing ? RETRY_MS : flushMs).unref();
  }

  async function write(batch: PendingView[]): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const kept = await repo.viewsStillValid(trx, batch);
      await repo.insertViews(trx, kept);
      await repo.addViewCounts(trx, countByImage(kept));
    });
  }

  /** Writes what waits now; resolves when it is in the database (or put back after a failure). */
  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    current = current.then(async () => {
      if (waiting.size === 0) return;
      writing = waiting;
      waiting = new Map();
      inFlight = true;
      try {
        await write([...writing.values()]);
        failing = false;
        written += 1;
        if (checks.size > 0) recent.push({ number: written, views: writing });
      } catch (error) {
        failing = true;
        // A timer set by views that arrived during the write would retry at once: wait instead.
        clearTimeout(timer);
        timer = undefined;
        log.error({ err: error, views: writing.size }, 'views not written; kept for the next try');
        for (const [key, view] of writing) {
          if (waiting.size >= MAX_WAITING) break;
          if (!waiting.has(key)) waiting.set(key, view);
        }
      } finally {
        writing = new Map();
        inFlight = false;
      }
      if (waiting.size > 0) schedule();
    });
    return current;
  }

  return {
    /** Call before reading the database for a view; `endCheck` when done with its answer. */
    beginCheck(): ViewCheck {
      const check = { since: written };
      checks.add(check);
      return check;
    },

    endCheck(check: ViewCheck): void {
      checks.delete(check);
      let oldest = written;
      for (const running of checks) oldest = Math.min(oldest, running.since);
      if (recent.length > 0) recent = recent.filter((batch) => batch.number > oldest);
    },

    /**
     * Whether this viewer's view of the image waits to be written, is being written, or was
     * written after `check` began (so the database read for it may not have seen it).
     */
    has(imageId: number, viewerKey: string, check: ViewCheck): boolean {
      const key = keyOf(imageId, viewerKey);
      return (
        waiting.has(key) ||
        writing.has(key) ||
        recent.some((batch) => batch.number > check.since && batch.views.has(key))
      );
    },

    /** Keeps a view to be written; false when too many wait (the database is unreachable). */
    add(view: PendingView): boolean {
      if (waiting.size >= MAX_WAITING) return false;
      waiting.set(keyOf(view.id_image, view.viewer_key), view);
      schedule();
      return true;
    },

    flush,

    /** Writes what waits and stops the timer: called before the database closes. */
    async close(): Promise<void> {
      await flush();
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

function countByImage(views: readonly PendingView[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const view of views) counts.set(view.id_image, (counts.get(view.id_image) ?? 0) + 1);
  return counts;
}
