import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import { canSee, type Onlooker } from '../images/visibility.js';
import * as repo from './interactions.repository.js';
import { createViewBuffer, type BufferLog } from './view-buffer.js';

/** One view as the route hands it over: everything the rule needs, already worked out. */
export interface ViewRequest {
  imageId: number;
  /** The viewer's key (viewer-key.ts): the user, or the salted hash of the address. */
  viewerKey: string;
  /**
   * The key the same viewer had the day before, for an address (its salt changes at UTC
   * midnight); a user's own key again. A view under either counts (D5).
   */
  earlierKey: string;
  viewer: Onlooker;
  /** The start of the 24 hours in which a view counts once (D5), ISO. */
  since: string;
  /** When the view happened, ISO. */
  at: string;
}

/**
 * 'hidden': the image does not exist for this viewer (the route answers 404); 'unpublished':
 * its uploader or an administrator looks at it before it is public, which counts nothing (D4).
 */
export type ViewOutcome = 'added' | 'exists' | 'hidden' | 'unpublished';

export interface ViewRecorder {
  record(view: ViewRequest): Promise<ViewOutcome>;
  /** Writes the views waiting; resolves once they are in the database. */
  flush(): Promise<void>;
  /** Writes what waits and stops: called before the database closes. */
  close(): Promise<void>;
}

/**
 * D5 on one connection: a view counts once per viewer and image every 24 hours, answered from
 * the database's record plus the views still waiting to be written (view-buffer.ts); a new
 * view waits in the buffer, so recording a view never writes by itself. The server runs this
 * in its views' thread (view-thread.ts), and on its own connection should that thread fail.
 */
export function createViewRecorder(
  db: Kysely<Database>,
  log: BufferLog,
  flushMs: number,
): ViewRecorder {
  const buffer = createViewBuffer(db, log, flushMs);
  return {
    async record(view) {
      const check = buffer.beginCheck();
      try {
        const target = await repo.viewTarget(
          db,
          view.imageId,
          [view.viewerKey, view.earlierKey],
          view.since,
        );
        if (target === undefined || !canSee(target, view.viewer)) return 'hidden';
        if (target.status !== 'approved') return 'unpublished';
        // After the query: the same viewer's other request may have added it meanwhile, or a
        // batch holding it may have been written since the query read the database.
        const waiting = [view.viewerKey, view.earlierKey].some((key) =>
          buffer.has(view.imageId, key, check),
        );
        if (target.seen || waiting) return 'exists';
        const kept = buffer.add({
          id_image: view.imageId,
          id_utente: view.viewer?.id_utente ?? null,
          viewer_key: view.viewerKey,
          created_at: view.at,
        });
        return kept ? 'added' : 'exists';
      } finally {
        buffer.endCheck(check);
      }
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
  };
}
