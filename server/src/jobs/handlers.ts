import type { DatabaseHandle } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { createDuplicateIndex } from '../modules/duplicates/duplicates.index.js';
import { createSearchService } from '../modules/search/search.service.js';
import { createFullSizeJob } from './full-size/full-size.job.js';
import { createImageAnalysisJob } from './image-analysis/image-analysis.job.js';
import type { PhotoReader } from './image-analysis/reader.js';
import { createErasureJob } from './erasure/erasure.job.js';
import { createMailJob } from './mail/mail.job.js';
import { createSearchRebuildJob } from './search-rebuild/search-rebuild.job.js';
import type { Mailer } from '../modules/mail/mailer.js';
import type { AnyJobDefinition } from './worker.js';

/*
 * Every job the application runs, in one list, so the worker inside the server and the
 * stand-alone worker process (run-worker.ts) always know the same jobs.
 */

export interface JobHandlerDeps {
  dataDir: string;
  clock: Clock;
  reader: PhotoReader;
  /** SMTP, or the outbox when SMTP_URL is unset (D8). */
  mailer: Mailer;
  /** D9: erases an account with everything of theirs. */
  eraseUser: (userId: number) => Promise<void>;
}

export function createJobHandlers(
  database: DatabaseHandle,
  deps: JobHandlerDeps,
): AnyJobDefinition[] {
  const search = createSearchService(database.db, database.dialect);
  const duplicates = createDuplicateIndex(database.db);
  return [
    createFullSizeJob(database.db, { dataDir: deps.dataDir, clock: deps.clock }),
    createImageAnalysisJob(database.db, {
      dataDir: deps.dataDir,
      reader: deps.reader,
      // The text read on the wall becomes searchable as soon as it is known, and the text and
      // hash join the duplicate finder's index (D7).
      afterAnalysis: async (id) => {
        await search.reindexImage(id);
        await duplicates.indexImage(id);
      },
    }),
    createMailJob(database.db, deps.mailer),
    createErasureJob(deps.eraseUser),
    createSearchRebuildJob(database.db, deps.clock, search),
  ];
}
