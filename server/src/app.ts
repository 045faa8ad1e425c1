import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { ensureSearchTermsCurrent } from './jobs/search-rebuild/search-rebuild.job.js';
import { systemClock, type Clock } from './lib/clock.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { moderationRoutes } from './modules/admin/moderation.routes.js';
import { filesRoutes } from './modules/images/files.routes.js';
import { imagesRoutes } from './modules/images/images.routes.js';
import { imagesRoot } from './modules/images/images.storage.js';
import { duplicatesRoutes } from './modules/duplicates/duplicates.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { taxonomyRoutes } from './modules/taxonomy/taxonomy.routes.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import type { GeneratedAdministrator } from './modules/users/users.service.js';
import { privacyRoutes } from './modules/privacy/privacy.routes.js';
import { createRuntime, type Runtime } from './services.js';
import { authPlugin } from './plugins/auth.js';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors.js';
import { errorsPlugin } from './plugins/errors.js';
import { validatorCompiler } from './plugins/validators.js';
import { lifecyclePlugin } from './plugins/lifecycle.js';
import { plainNumbersPlugin } from './plugins/plain-numbers.js';
import { publicCachePlugin } from './plugins/public-cache.js';
import { securityPlugin } from './plugins/security.js';
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
    // Privacy (D9): requests are logged without client addresses or credentials; a signed
    // file URL's signature opens a file under review to whoever reads it (file-urls.ts).
    serializers: {
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        url: withoutSignature(req.url),
      }),
      err: pino.stdSerializers.err,
    },
  };
}

/** The address with the value of its `sig` parameter, if any, left out. */
function withoutSignature(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return url.slice(0, query) + url.slice(query).replace(/([?&]sig=)[^&#]*/g, '$1[redacted]');
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
  let runtime: Runtime;
  let ctx: AppContext;
  try {
    await migrateToLatest(database.db);
    // After a release that changed search's terms, the stored documents are rebuilt by a job.
    await ensureSearchTermsCurrent(database.db, clock);
    await fs.mkdir(imagesRoot(config.dataDir), { recursive: true });
    // One job at a time in the server: OCR is CPU-bound and requests come first.
    runtime = await createRuntime(config, database, clock, log, { jobConcurrency: 1 });
    ctx = runtime.ctx;

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
    trustProxy: config.trustProxy,
    // A request must arrive whole within this time, and idle keep-alive sockets close:
    // slow-loris clients cannot hold connections open for ever.
    requestTimeout: 120_000,
    connectionTimeout: 130_000,
    // Our lifecycle plugin answers in the error format of D2 instead.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Refusals made before any route runs, in D2's format (plugins/framework-errors.ts).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Bodies are checked as sent, without Fastify's type coercion (plugins/validators.ts).
  app.setValidatorCompiler(validatorCompiler());

  app.decorate('ctx', ctx);
  // The API speaks JSON; a route that takes plain text (the rejection reason, D4) adds its own
  // parser, so everywhere else a text body is a clear 415 rather than a confusing 400.
  app.removeContentTypeParser('text/plain');
  // Many API clients label every request JSON, bodiless DELETEs and follows included. Fastify
  // refuses an empty JSON body outright (FST_ERR_CTP_EMPTY_JSON_BODY); here it counts as no
  // body, so a route that takes none works and one that needs one says what is missing.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body.length === 0) {
        done(null, undefined);
        return;
      }
      // Fastify's own parser, synchronous: the same JSON and prototype-poisoning checks.
      return parseJson(request, body, done);
    },
  );
  if (config.jobsInServer) {
    app.addHook('onReady', async () => {
      ctx.jobs.start();
    });
  }
  // One hook, so the order is certain: jobs in hand finish before the database closes.
  app.addHook('onClose', async () => {
    await runtime.stop();
    await database.close();
  });

  await app.register(lifecyclePlugin);
  // Before any route, so that its hook sees every route registered after it.
  await app.register(plainNumbersPlugin);
  await app.register(securityPlugin, { rateLimits: config.rateLimits });
  await app.register(errorsPlugin);
  await app.register(authPlugin, { auth: ctx.auth });
  await app.register(publicCachePlugin, { clock, ttlMs: config.publicCacheMs });
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
        privacyRoutes,
      ]) {
        await api.register(routes, { ctx });
      }
      api.get('/docs', { schema: { hide: true } }, () => app.swagger());
    },
    { prefix: '/api' },
  );
  await app.register(filesRoutes, { ctx });
  await app.register(webAppPlugin, {
    webDistDir: config.webDistDir,
    // What an anonymous visitor would see first, byte for byte what the API answers them
    // (same schema, same kept public lists): index.html draws it and hands it to the web app.
    firstScreen: {
      trending: () => anonymousGet(app, '/api/trending-images'),
      image: (id) => anonymousGet(app, `/api/images/${String(id)}`),
      siteUrl: config.publicUrl,
    },
  });

  return app as unknown as App;
}

/** An API answer as an anonymous visitor gets it (no token, no cookie); throws unless 200. */
async function anonymousGet(app: Pick<FastifyInstance, 'inject'>, url: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { accept: 'application/json' },
  });
  if (response.statusCode !== 200) throw new Error(`${url}: ${String(response.statusCode)}`);
  return response.body;
}
