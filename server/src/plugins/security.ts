import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { HttpError, MESSAGES } from '../lib/errors.js';

/*
 * Security headers, per-route rate limits and load shedding (issue 7), configured here so
 * every protection sits in one place.
 */

export interface RateLimitRule {
  max: number;
  timeWindow: number;
}

/** The limits of the routes people could abuse; keys are per client address (and user). */
export const RATE_LIMITS = {
  login: { max: 10, timeWindow: 60_000 },
  register: { max: 5, timeWindow: 10 * 60_000 },
  upload: { max: 30, timeWindow: 60 * 60_000 },
  interactions: { max: 120, timeWindow: 60_000 },
  search: { max: 60, timeWindow: 60_000 },
} satisfies Record<string, RateLimitRule>;

/** How often the event loop's lag is sampled for load shedding. */
const LOAD_SAMPLE_INTERVAL_MS = 1000;

export const RATE_LIMIT_MESSAGE =
  'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.';

/** Per user when logged in (a shared office address is many people), else per address. */
export function rateLimitKey(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  return auth === undefined ? `ip:${request.ip}` : `auth:${auth.slice(-32)}:${request.ip}`;
}

export const securityPlugin = fp(
  async (app: FastifyInstance, options: { rateLimits: boolean }) => {
    // helmet's middleware, built once and applied to every response. @fastify/helmet, used
    // before, built it anew for every request, parsing these directives each time: 3.7 % of the
    // server's CPU under bench:writes (issue 8).
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // No inline script anywhere: the web app is built into files.
          scriptSrc: ["'self'"],
          // MUI (emotion) writes its styles at run time into <style> elements.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // data: and blob: for the ThumbHash placeholders and downloads made in the page.
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The API serves images to the same origin only; no embedding elsewhere.
      crossOriginResourcePolicy: { policy: 'same-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      securityHeaders(request.raw, reply.raw, (error?: unknown) => {
        done(error instanceof Error ? error : undefined);
      });
    });

    await app.register(rateLimit, {
      global: false,
      // Tests of other features turn limits off; production always has them.
      ...(options.rateLimits ? {} : { allowList: () => true }),
      keyGenerator: rateLimitKey,
      errorResponseBuilder: () => new HttpError(429, RATE_LIMIT_MESSAGE),
    });

    // Load shedding: when the event loop lags badly the server answers 503 at once instead of
    // queueing requests it cannot serve in time.
    // The first samples after the start measure the start itself (compiling every route's
    // schemas, starting the job worker), not load: on a busy machine they read over a second,
    // and the first requests after a restart were refused (found by test-faults/). Shedding
    // begins three intervals after the start, once samples of the running server replace them.
    let shedFrom = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      shedFrom = performance.now() + 3 * LOAD_SAMPLE_INTERVAL_MS;
    });
    await app.register(underPressure, {
      maxEventLoopDelay: 1000,
      sampleInterval: LOAD_SAMPLE_INTERVAL_MS,
      retryAfter: 10,
      pressureHandler: (_request, reply) => {
        // Nothing sent: the request goes on as usual.
        if (performance.now() < shedFrom) return;
        void reply.status(503).header('retry-after', '10').send({ detail: MESSAGES.unavailable });
      },
    });
  },
  { name: 'security' },
);
