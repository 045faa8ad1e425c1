import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import type { DatabaseHandle } from './db/database.js';
import { forgetMailOf, MAIL_JOB } from './jobs/mail/mail.job.js';
import { FULL_SIZE_JOB } from './jobs/full-size/full-size.job.js';
import { IMAGE_ANALYSIS_JOB } from './jobs/image-analysis/image-analysis.job.js';
import { createJobHandlers } from './jobs/handlers.js';
import { createReaderProcess } from './jobs/image-analysis/reader-process.js';
import { createWorker, type JobWorker } from './jobs/worker.js';
import type { Clock } from './lib/clock.js';
import { loadJwtSecret } from './lib/secrets.js';
import { createAdminService } from './modules/admin/admin.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createPasswordResetService } from './modules/auth/password-reset.service.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createDuplicatesService } from './modules/duplicates/duplicates.service.js';
import { createFollowsService } from './modules/follows/follows.service.js';
import { createFileUrlSigner } from './modules/images/file-urls.js';
import { createImagesService } from './modules/images/images.service.js';
import { sweepOrphanFiles } from './modules/images/images.sweeper.js';
import { createInteractionsService } from './modules/interactions/interactions.service.js';
import { createViewRecorder } from './modules/interactions/view-recorder.js';
import { startViewThread } from './modules/interactions/view-thread.js';
import { createViewerKeys } from './modules/interactions/viewer-key.js';
import { createMailer, forgetOutboxMailTo } from './modules/mail/mailer.js';
import { createModerationMailHook } from './modules/mail/moderation-mail.js';
import { createModerationService } from './modules/moderation/moderation.service.js';
import { createErasureService } from './modules/privacy/erasure.service.js';
import { createPrivacyService } from './modules/privacy/privacy.service.js';
import { createSearchService } from './modules/search/search.service.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createTaxonomyService } from './modules/taxonomy/taxonomy.service.js';
import { createUploadsService } from './modules/uploads/uploads.service.js';
import { createUsersService } from './modules/users/users.service.js';

/*
 * The services of one process and its job worker, built the same way by the server (app.ts)
 * and by the stand-alone worker (jobs/run-worker.ts), so a job runs the same code wherever it
 * runs.
 */

export interface Runtime {
  ctx: AppContext;
  /** Stops the worker (jobs in hand finish) and the reading process; the database stays open. */
  stop(): Promise<void>;
}

export async function createRuntime(
  config: AppConfig,
  database: DatabaseHandle,
  clock: Clock,
  log: Logger,
  options: { jobConcurrency: number },
): Promise<Runtime> {
  // Photos are read in a child process at the lowest CPU priority, started by the first job
  // that needs it and ended when idle (reader-process.ts).
  const reader = createReaderProcess();
  // Jobs need services and services enqueue jobs: the erasure job and the search's upkeep look
  // their service up when they run, by which time the context exists (the worker starts after).
  const built: { ctx?: AppContext } = {};
  const context = (): AppContext => {
    if (built.ctx === undefined) throw new Error('services are not ready yet');
    return built.ctx;
  };
  const jobs = createWorker({
    database,
    clock,
    log,
    handlers: createJobHandlers(database, {
      dataDir: config.dataDir,
      clock,
      reader,
      mailer: createMailer(config),
      eraseUser: (id) => context().erasure.eraseUser(id),
    }),
    concurrency: options.jobConcurrency,
    // An uploader waits for the full size of an image (its URL serves the display size until
    // then), and for the e-mail that says it was approved or rejected: neither waits behind
    // the OCR backlog (a minute and more behind a few dozen photos), whatever the concurrency.
    reserved: { names: [FULL_SIZE_JOB, MAIL_JOB], slots: 1 },
    // An image's full size and analysis fail for good only when the machine failed them (a
    // full disk, a database busy for half an hour): left so, the image kept its display size
    // and stayed out of search and of the duplicate finder for good.
    retryFailedOnStart: [FULL_SIZE_JOB, IMAGE_ANALYSIS_JOB],
    housekeeping: [
      {
        name: 'orphan-files',
        run: () => sweepOrphanFiles(database.db, clock, config.dataDir),
      },
      {
        // Two common words that seldom meet are found through the bitmaps of the commoner.
        name: 'search-dense-terms',
        run: () => context().search.makeCommonWordsDense(),
      },
    ],
  });
  const secret = await loadJwtSecret(config.jwtSecret, config.dataDir);
  const ctx = createContext(config, database, clock, secret, jobs, log);
  built.ctx = ctx;
  return {
    ctx,
    async stop() {
      await ctx.interactions.close();
      await jobs.stop();
      await reader.terminate();
    },
  };
}

/** Wires the services together; each gets only what it needs. */
function createContext(
  config: AppConfig,
  database: DatabaseHandle,
  clock: Clock,
  secret: string,
  jobs: JobWorker,
  log: Logger,
): AppContext {
  const { db } = database;
  const tokens = createTokenService(secret);
  const fileUrls = createFileUrlSigner(secret);
  const search = createSearchService(db, database.dialect);
  const users = createUsersService(db, database.dialect, clock, {
    onRenamed: (id) => search.reindexByUser(id),
  });
  const taxonomy = createTaxonomyService(db, database.dialect, clock);
  const images = createImagesService(db, clock, fileUrls);
  const settings = createSettingsService(db, clock);
  const moderation = createModerationService(db, database.dialect, clock, {
    dataDir: config.dataDir,
    taxonomy,
    images,
    // D8: the uploader's e-mail is queued in the decision's own transaction.
    onDecision: createModerationMailHook({ clock, settings, jobs, siteUrl: config.publicUrl }),
  });
  const interactions = createInteractionsService(
    db,
    clock,
    images,
    createViewerKeys(secret),
    startViewThread({
      database: config.database,
      flushMs: config.viewFlushMs,
      log,
      fallback: () => createViewRecorder(db, log, config.viewFlushMs),
    }),
  );
  const erasure = createErasureService({
    users,
    moderation,
    interactions,
    search,
    forgetMail: async (recipient) => {
      await forgetOutboxMailTo(config.dataDir, await forgetMailOf(db, recipient));
    },
  });
  const follows = createFollowsService(db, clock, users);
  return Object.freeze({
    config,
    database,
    clock,
    tokens,
    fileUrls,
    users,
    auth: createAuthService(users, tokens, settings),
    passwordReset: createPasswordResetService(db, clock, {
      users,
      siteUrl: config.publicUrl,
      jobs,
    }),
    taxonomy,
    images,
    interactions,
    follows,
    uploads: createUploadsService(
      db,
      database.dialect,
      clock,
      config.dataDir,
      taxonomy,
      jobs,
      config.maxPendingUploads,
    ),
    search,
    moderation,
    duplicates: createDuplicatesService(db, clock, { fileUrls, taxonomy }),
    admin: createAdminService(db, database.dialect, clock, { users, taxonomy, erasure }),
    settings,
    erasure,
    privacy: createPrivacyService(db, clock, {
      users,
      images,
      follows,
      erasureDelayMs: config.erasureDelayMs,
    }),
    jobs,
  });
}
