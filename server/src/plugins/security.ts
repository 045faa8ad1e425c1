import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { badRequest, HttpError, MESSAGES } from '../lib/errors.js';
import { isIPv6Client, networkOf } from '../lib/ip-network.js';

/*
 * Security headers, per-route rate limits and load shedding (issue 7), configured here so
 * every protection sits in one place.
 */

export interface RateLimitRule {
  max: number;
  timeWindow: number;
  /**
   * A second limit in the same window for the anonymous requests of each IPv6 /48: the first
   * counts an IPv6 client by its /64 (rateLimitKey), and a provider may hand one customer a
   * /56 or a /48 (a tunnel broker gives anyone a /48), 256 or 65,536 /64s.
   */
  ipv6NetworkMax?: number;
}

/** The limits of the routes people could abuse; keys are per client address (and user). */
export const RATE_LIMITS = {
  login: { max: 10, timeWindow: 60_000, ipv6NetworkMax: 100 },
  register: { max: 5, timeWindow: 10 * 60_000, ipv6NetworkMax: 50 },
  upload: { max: 30, timeWindow: 60 * 60_000 },
  interactions: { max: 120, timeWindow: 60_000 },
  search: { max: 60, timeWindow: 60_000 },
  // Changing the own e-mail, password or account asks for the current password: guessing it
  // with a stolen session is held to the pace of guessing it at login.
  account: { max: 10, timeWindow: 60_000 },
  // A forgotten password's e-mail: a few a quarter of an hour per address, so nobody fills an
  // inbox, or our mail server's standing, through the form.
  passwordReset: { max: 5, timeWindow: 15 * 60_000, ipv6NetworkMax: 50 },
} satisfies Record<string, RateLimitRule>;

/** How often the event loop's lag is sampled for load shedding. */
const LOAD_SAMPLE_INTERVAL_MS = 1000;

export const RATE_LIMIT_MESSAGE =
  'Troppe richieste in poco tempo. Attendi qualche minuto e riprova.';

/**
 * Per user when logged in (a shared office address is many people), else per address. The
 * user is the one the route's guard checked (its onRequest hook runs before the limit's): a
 * header the server did not check, or a second token of the same user, is no fresh limit.
 * An IPv6 address counts by its /64: a provider hands each client at least a whole /64, in
 * which it may pick any address, so a limit per IPv6 address would be a fresh limit per guess.
 */
export function rateLimitKey(request: FastifyRequest): string {
  if (request.user !== null) return `user:${String(request.user.id_utente)}`;
  return `ip:${networkOf(request.ip, { v4: 32, v6: 64 }) ?? request.ip}`;
}

/**
 * The rules' `ipv6NetworkMax`: a hook on each route under such a rule counts by /48 the
 * anonymous IPv6 requests its own limit let through (the user is the guard's, which has run).
 * IPv4 requests keep their per-address limit only: a /24 is often many unrelated people.
 */
function addIpv6NetworkLimits(app: FastifyInstance): void {
  const limiters = new Map<RateLimitRule, ReturnType<FastifyInstance['createRateLimit']>>();
  app.addHook('onRoute', (route) => {
    // The routes pass RATE_LIMITS' rules; the library's options type does not know the field.
    const rule = route.config?.rateLimit as RateLimitRule | false | undefined;
    if (typeof rule !== 'object' || rule.ipv6NetworkMax === undefined) return;
    let limiter = limiters.get(rule);
    if (limiter === undefined) {
      limiter = app.createRateLimit({
        max: rule.ipv6NetworkMax,
        timeWindow: rule.timeWindow,
        keyGenerator: (request) => `net:${networkOf(request.ip, { v4: 32, v6: 48 }) ?? ''}`,
        allowList: (request) => request.user !== null || !isIPv6Client(request.ip),
      });
      limiters.set(rule, limiter);
    }
    const limit = limiter;
    const hook = async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await limit(request);
      if (result.isAllowed || !result.isExceeded) return;
      void reply.header('retry-after', String(result.ttlInSeconds));
      throw new HttpError(429, RATE_LIMIT_MESSAGE);
    };
    // After the route's guard and its own limit: a request the /64's limit refused is not
    // counted against the others of the /48, or one client could lock its neighbours out.
    const own = route.onRequest;
    route.onRequest = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), hook];
  });
}

/** A NUL character anywhere in a request's JSON body, query or path (D2: a clear 400). */
export const UNSUPPORTED_ENCODING =
  'La richiesta non può essere compressa: invia il contenuto così com’è.';

export const FORBIDDEN_CHARACTER_MESSAGE = 'La richiesta contiene un carattere non ammesso.';

/**
 * Half of a surrogate pair: a lone surrogate is no character at all, and the two engines
 * stored it apart (SQLite its raw bytes, read back as three U+FFFD, PostgreSQL one). With the
 * u flag a whole pair is one code point, outside the range.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** U+0000, which PostgreSQL cannot store in text, or a lone surrogate. */
function isForbidden(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** Whether a string, or any string within an object or array, holds a forbidden character. */
export function holdsForbiddenCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isForbidden(value);
  // Deeper than any schema goes: such a body fails its validation anyway.
  if (typeof value !== 'object' || value === null || depth > 16) return false;
  return Object.values(value).some((item) => holdsForbiddenCharacter(item, depth + 1));
}

export const securityPlugin = fp(
  async (app: FastifyInstance, options: { rateLimits: boolean }) => {
    // PostgreSQL's text cannot hold U+0000: a string carrying one failed its query with a
    // 500 there, and SQLite stored it; a lone surrogate was stored differently by each. No
    // form can type either; a client that sends one is told so, on both engines, before any
    // route reads the request.
    app.addHook('preValidation', (request, _reply, done) => {
      if (
        holdsForbiddenCharacter(request.body) ||
        holdsForbiddenCharacter(request.query) ||
        holdsForbiddenCharacter(request.params)
      ) {
        done(badRequest(FORBIDDEN_CHARACTER_MESSAGE));
        return;
      }
      done();
    });

    // helmet's headers, worked out once and given to every response. @fastify/helmet, used
    // before, built helmet's middleware anew for every request, parsing these directives each
    // time (3.7 % of the server's CPU under bench:writes, issue 8); running the middleware built
    // once still set each header on the raw response one by one, about 20 µs a request (7.6 %
    // of a like's main-thread time). The headers are all constant (no nonce in this policy).
    const securityHeaders = helmetHeaders({
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
      // As frame-ancestors 'none' says, for browsers that read only the older header: helmet's
      // SAMEORIGIN would let a page of this origin frame another, which nothing here does.
      xFrameOptions: { action: 'deny' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      // Fastify keeps them with the reply's own headers and writes them all at once.
      reply.headers(securityHeaders);
      // An answer to a request that carried a token is that user's (their e-mail, their own
      // reactions, the back-office's lists): no cache may keep it, neither a shared one that
      // ignores RFC 9111's rule for Authorization nor the browser's on a shared computer. A
      // route with a policy of its own sets it later, over this one (a file under review is
      // 'private, max-age=3600').
      if (request.headers.authorization !== undefined) {
        void reply.header('cache-control', 'private, no-store');
      }
      // No route decodes a compressed body: one sent gzipped was read as it came (a confusing
      // 'non è un JSON valido'), one labelled so but plain was taken as it was.
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        done(new HttpError(415, UNSUPPORTED_ENCODING));
        return;
      }
      done();
    });

    await app.register(rateLimit, {
      global: false,
      // Tests of other features turn limits off; production always has them.
      ...(options.rateLimits ? {} : { allowList: () => true }),
      keyGenerator: rateLimitKey,
      errorResponseBuilder: () => new HttpError(429, RATE_LIMIT_MESSAGE),
    });
    if (options.rateLimits) addIpv6NetworkLimits(app);

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

/**
 * The headers helmet's middleware sets with these options, collected from one run of it on a
 * response that is never sent. It must set them without looking at the request and finish at
 * once, which holds for constant headers; anything else fails the start loudly.
 */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  const run = { finished: false };
  helmet(options)(request, response, (error?: unknown) => {
    if (error instanceof Error) throw error;
    run.finished = true;
  });
  if (!run.finished) throw new Error('helmet did not set its headers at once');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return Object.freeze(headers);
}
