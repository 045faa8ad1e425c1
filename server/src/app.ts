import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { createJobHandlers } from './jobs/handlers.js';
import { createOcrEngine } from './jobs/image-analysis/ocr.js';
import { createWorker, type JobWorker } from './jobs/worker.js';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { systemClock, type Clock } from './lib/clock.js';
import { loadJwtSecret } from './lib/secrets.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { createAdminService } from './modules/admin/admin.service.js';
import { moderationRoutes } from './modules/admin/moderation.routes.js';
import { createErasureService } from './modules/privacy/erasure.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createFollowsService } from './modules/follows/follows.service.js';
import { createFileUrlSigner } from './modules/images/file-urls.js';
import { filesRoutes } from './modules/images/files.routes.js';
import { imagesRoutes } from './modules/images/images.routes.js';
import { createImagesService } from './modules/images/images.service.js';
import { imagesRoot } from './modules/images/images.storage.js';
import { createInteractionsService } from './modules/interactions/interactions.service.js';
import { createViewerKeys } from './modules/interactions/viewer-key.js';
import { duplicatesRoutes } from './modules/duplicates/duplicates.routes.js';
import { createDuplicatesService } from './modules/duplicates/duplicates.service.js';
import { createModerationService } from './modules/moderation/moderation.service.js';
import { createMailer } from './modules/mail/mailer.js';
import { createModerationMailHook } from './modules/mail/moderation-mail.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createSearchService } from './modules/search/search.service.js';
import { taxonomyRoutes } from './modules/taxonomy/taxonomy.routes.js';
import { createTaxonomyService } from './modules/taxonomy/taxonomy.service.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { createUploadsService } from './modules/uploads/uploads.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService, type GeneratedAdministrator } from './modules/users/users.service.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { lifecyclePlugin } from './plugins/lifecycle.js';
import { webAppPlugin } from './plugins/web-app.js';

export interface BuildOptions {
  clock?: Clock;
  /** Called once when a first administrator was generated (D12); main prints it. */
  onGeneratedAdministrator?: (admin: GeneratedAdministrator) => void;
  /** Where log lines go (standard output when absent); tests read them from here. */
  logStream?: { write(line: string): void };
}

export type App = FastifyInstance & { readonly ctx: AppContext };

function loggerOptions(config: AppConfig): pino.LoggerOptions {
  return {
    level: config.logLevel,
    // Privacy (D9): requests are logged without client addresses or credentials.
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      err: pino.stdSerializers.err,
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
): AppContext {
  const { db } = database;
  const tokens = createTokenService(secret);
  const fileUrls = createFileUrlSigner(secret);
  const users = createUsersService(db, clock);
  const taxonomy = createTaxonomyService(db, clock);
  const images = createImagesService(db, clock, fileUrls);
  const settings = createSettingsService(db, clock);
  const moderation = createModerationService(db, database.dialect, clock, {
    dataDir: config.dataDir,
    taxonomy,
    images,
    // D8: the uploader's e-mail is queued in the decision's own transaction.
    onDecision: createModerationMailHook({ clock, settings, jobs }),
  });
  const interactions = createInteractionsService(db, clock, images, createViewerKeys(secret));
  const search = createSearchService(db, database.dialect);
  const erasure = createErasureService({ users, moderation, interactions, search });
  return Object.freeze({
    config,
    database,
    clock,
    tokens,
    fileUrls,
    users,
    auth: createAuthService(users, tokens, settings),
    taxonomy,
    images,
    interactions,
    follows: createFollowsService(db, clock, users),
    uploads: createUploadsService(db, clock, config.dataDir, taxonomy, jobs),
    search,
    moderation,
    duplicates: createDuplicatesService(db, clock, { fileUrls, taxonomy }),
    admin: createAdminService(db, database.dialect, clock, { users, taxonomy, erasure }),
    settings,
    jobs,
  });
}

/** JSON request bodies stay small; uploads get their own multipart limits. */
const JSON_BODY_LIMIT = 256 * 1024;

/**
 * Builds the whole application without listening: the database is opened and migrated, the
 * first administrator ensured, every module registered. main.ts listens; tests inject.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config.database);
  const log =
    options.logStream === undefined
      ? pino(loggerOptions(config))
      : pino(loggerOptions(config), options.logStream);
  // One OCR thread for the process, started on the first job that needs it.
  const ocr = createOcrEngine();
  const jobs = createWorker({
    database,
    clock,
    log,
    handlers: createJobHandlers(database, {
      dataDir: config.dataDir,
      ocr,
      mailer: createMailer(config),
    }),
    // One job at a time: OCR is CPU-bound and requests come first.
    concurrency: 1,
  });
  let ctx: AppContext;
  try {
    await migrateToLatest(database.db);
    await fs.mkdir(imagesRoot(config.dataDir), { recursive: true });
    const secret = await loadJwtSecret(config.jwtSecret, config.dataDir);
    ctx = createContext(config, database, clock, secret, jobs);

    const generated = await ctx.users.ensureAdministrator(config.admin);
    if (generated !== undefined) options.onGeneratedAdministrator?.(generated);
  } catch (error) {
    await database.close();
    throw error;
  }

  const app = Fastify({
    loggerInstance: log,
    genReqId: () => randomUUID(),
    // Request ids are ours: a client-chosen one could forge or collide with log lines.
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    // Our lifecycle plugin answers in the error format of D2 instead.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: {
      customOptions: {
        // Validation errors carry their schema, so messages can use the field's title (D2).
        verbose: true,
        // Annotation read by lib/validation-messages.ts, not a validation keyword.
        keywords: ['errorMessage'],
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('ctx', ctx);
  // The API speaks JSON; a route that takes plain text (the rejection reason, D4) adds its own
  // parser, so everywhere else a text body is a clear 415 rather than a confusing 400.
  app.removeContentTypeParser('text/plain');
  if (config.jobsInServer) {
    app.addHook('onReady', async () => {
      jobs.start();
    });
  }
  // One hook, so the order is certain: jobs in hand finish before the database closes.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await ocr.terminate();
    await database.close();
  });

  await app.register(lifecyclePlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { auth: ctx.auth });
  // Collects every route's schemas into the OpenAPI document served at /api/docs.
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Muri Parlanti API',
        version: '1.0.0',
        description: 'The API of the Muri Parlanti gallery. Errors are JSON {detail} in Italian.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  // Decorates reply.sendFile for the image files; serves nothing by itself.
  await app.register(fastifyStatic, {
    root: imagesRoot(config.dataDir),
    serve: false,
    // Each file route sets its own caching: public and immutable, or private.
    cacheControl: false,
  });
  await app.register(
    async (api) => {
      for (const routes of [
        authRoutes,
        usersRoutes,
        taxonomyRoutes,
        imagesRoutes,
        uploadsRoutes,
        settingsRoutes,
        adminRoutes,
        moderationRoutes,
        duplicatesRoutes,
      ]) {
        await api.register(routes, { ctx });
      }
      api.get('/docs', { schema: { hide: true } }, () => app.swagger());
    },
    { prefix: '/api' },
  );
  await app.register(filesRoutes, { ctx });
  await app.register(webAppPlugin, { webDistDir: config.webDistDir });

  return app as unknown as App;
}
