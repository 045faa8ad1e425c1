import type { DatabaseHandle } from '../db/database.js';
import { createSearchService } from '../modules/search/search.service.js';
import { createImageAnalysisJob } from './image-analysis/image-analysis.job.js';
import type { OcrEngine } from './image-analysis/ocr.js';
import type { AnyJobDefinition } from './worker.js';

/*
 * Every job the application runs, in one list, so the worker inside the server and the
 * stand-alone worker process (run-worker.ts) always know the same jobs.
 */

export interface JobHandlerDeps {
  dataDir: string;
  ocr: OcrEngine;
}

export function createJobHandlers(
  database: DatabaseHandle,
  deps: JobHandlerDeps,
): AnyJobDefinition[] {
  const search = createSearchService(database.db, database.dialect);
  return [
    createImageAnalysisJob(database.db, {
      ...deps,
      // The text read on the wall becomes searchable as soon as it is known.
      afterAnalysis: (id) => search.reindexImage(id),
    }),
  ];
}
