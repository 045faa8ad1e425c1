import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../lib/clock.js';
import {
  acceptedEncoding,
  COMPRESS_FROM_BYTES,
  compressed,
  type ContentEncoding,
} from '../lib/content-encoding.js';
import type { UserRow } from '../db/tables.js';

/*
 * The lists of approved images that every anonymous visitor gets alike (the galleries,
 * trending, search, related images), and an approved image's own page, are kept for a moment
 * as ready JSON and sent as they are.
 * Why: a gallery page of 120 images costs about a millisecond of database work and as much
 * again to shape and serialise, while the busiest pages (the home page's, a popular
 * category's) are the same bytes for everybody; sending kept bytes costs what the bench's
 * reference route costs (issue 8, goal 1). Logged-in viewers get the kept answer with their own
 * reactions added (kept in memory per user, modules/images/own-toggles.ts), or a fresh one
 * where a route's answer depends on who asks.
 *
 * Freshness: every successful change made through the API (an upload, a moderation decision, an
 * edit, a deletion, an account change) empties the cache before its answer leaves, so whoever
 * made a change sees it at once. Reactions, views and downloads do not (at a thousand views a
 * second they would empty it all the time; the counts in a kept answer may therefore be up to
 * PUBLIC_CACHE_TTL_MS old, while a viewer's own reactions never are), nor do logins and new
 * accounts, which change no public list. Changes made outside this process (a job
 * worker of its own) show within the same bound.
 *
 * Compression: a client that accepts brotli or gzip gets the kept answer compressed, made once
 * per answer and encoding on libuv's threads and kept with it (a 120-image page: 90 KB, 12 KB
 * in brotli), so a busy page costs one compression a TTL, not one a request. A logged-in
 * viewer's answer with their own reactions written in is different bytes for each of them,
 * and compressing it per request would cost more CPU than the whole rest of the answer
 * (docs/PERFORMANCE.md, "Public lists sent compressed"): it goes as it is. Kept answers are
 * public, the same for everybody, so compressing them reveals nothing (BREACH needs a secret
 * and the attacker's input in one compressed answer; docs/SECURITY.md).
 */
export const PUBLIC_CACHE_TTL_MS = 1000;
// PUBLIC_CACHE_MS sets another time; 0 keeps nothing (requests arriving together still share
// one computation), which is how bench/ measures the queries themselves.
/**
 * A 120-image page is about 90 KB of JSON: this keeps the few hundred busiest pages at most
 * (counted in bytes).
 */
const MAX_BYTES = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    publicCache: PublicCache;
  }
  interface FastifyContextConfig {
    /** A change that leaves the kept lists valid within the TTL (reactions, views). */
    keepsPublicCache?: boolean;
  }
}

/** The viewer's own reactions on these images, by image (only images with some). */
export type OwnReactions = (
  imageIds: readonly number[],
  viewer: UserRow,
) => Promise<ReadonlyMap<number, readonly object[]>>;

export interface PublicCache {
  /**
   * Sends the answer of `compute`, kept for anonymous visitors by the request's URL; concurrent
   * misses for one URL share one computation. A logged-in viewer of a list of images gets the
   * kept anonymous answer with their own reactions (`ownReactions`) written into it, when the
   * route gives that; else a fresh `compute` for them.
   */
  send<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    compute: (viewer: UserRow | null) => Promise<T>,
    ownReactions?: OwnReactions,
  ): Promise<void>;
  /** Forgets every kept answer. */
  clear(): void;
}

/**
 * Where a viewer's own reactions go in a kept list: every image of an anonymous answer says
 * `"interactions":[]`, in the order of `ids`; `cuts` are the byte offsets of those `]`. The
 * JSON is spliced, not rebuilt: serialising a 120-image page again for every logged-in
 * request cost as much as computing it (issue 8, goal 1). The sequence cannot occur inside a
 * JSON string, whose quotes are escaped.
 */
interface Slots {
  ids: number[];
  cuts: number[];
}

/**
 * An anonymous answer: its JSON, sent as it is, and where a viewer's reactions would go. Kept
 * as UTF-8 bytes, not as a string: a string is encoded again for every request, which for a
 * 90 KB page was half the CPU of the whole answer (issue 8, goal 1).
 */
interface Answer {
  body: Buffer;
  /** Null for an answer that is not a list of images (or does not look as expected). */
  slots: Slots | null;
  /**
   * The body compressed, once asked for in each encoding. Not counted in MAX_BYTES: each is
   * about a seventh of the body.
   */
  encoded: Map<ContentEncoding, Promise<Buffer>>;
}

const EMPTY_OWN = Buffer.from('"interactions":[]');

function findSlots(value: unknown, body: Buffer): Slots | null {
  const images = (value as { images?: unknown } | null)?.images;
  if (!Array.isArray(images)) return null;
  const ids = images.map((image) => (image as { id_image?: unknown }).id_image);
  if (!ids.every((id): id is number => typeof id === 'number')) return null;
  const cuts: number[] = [];
  for (let at = body.indexOf(EMPTY_OWN); at >= 0; at = body.indexOf(EMPTY_OWN, at + 1)) {
    cuts.push(at + EMPTY_OWN.length - 1);
  }
  return cuts.length === ids.length ? { ids, cuts } : null;
}

/** The kept body with each image's own reactions written between its brackets. */
function spliceOwn(
  body: Buffer,
  slots: Slots,
  own: ReadonlyMap<number, readonly object[]>,
): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  slots.ids.forEach((id, index) => {
    const mine = own.get(id);
    const cut = slots.cuts[index];
    if (mine === undefined || mine.length === 0 || cut === undefined) return;
    parts.push(body.subarray(from, cut), Buffer.from(JSON.stringify(mine).slice(1, -1)));
    from = cut;
  });
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}

interface Entry extends Answer {
  expires: number;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json; charset=utf-8';

export function createPublicCache(clock: Clock, ttlMs = PUBLIC_CACHE_TTL_MS): PublicCache {
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<Answer>>();
  let bytes = 0;
  // Bumped by every clear: an answer computed across a change is not kept.
  let generation = 0;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    bytes -= entry.body.length;
    entries.delete(key);
  }

  function keep(key: string, answer: Answer): void {
    drop(key);
    if (ttlMs === 0) return;
    entries.set(key, { ...answer, expires: clock.now().getTime() + ttlMs });
    bytes += answer.body.length;
    // Oldest first: a Map iterates in insertion order.
    for (const oldest of entries.keys()) {
      if (bytes <= MAX_BYTES) break;
      drop(oldest);
    }
  }

  /** The anonymous answer of a URL: kept, being computed, or computed now. */
  function anonymous(key: string, reply: FastifyReply, compute: () => Promise<unknown>) {
    const entry = entries.get(key);
    if (entry !== undefined && entry.expires > clock.now().getTime()) return entry;
    const running = pending.get(key);
    if (running !== undefined) return running;
    const started = generation;
    const computed = compute()
      .then((value) => {
        const serialised = reply.serialize(value);
        const body = Buffer.isBuffer(serialised)
          ? serialised
          : Buffer.from(typeof serialised === 'string' ? serialised : new Uint8Array(serialised));
        const answer: Answer = { body, slots: findSlots(value, body), encoded: new Map() };
        if (generation === started) keep(key, answer);
        return answer;
      })
      .finally(() => {
        if (pending.get(key) === computed) pending.delete(key);
      });
    pending.set(key, computed);
    return computed;
  }

  /** The kept body, compressed when the client accepts it and the body is worth it. */
  async function sendKept(request: FastifyRequest, reply: FastifyReply, answer: Answer) {
    void reply.type(JSON_TYPE).header('vary', 'accept-encoding');
    const encoding =
      answer.body.length >= COMPRESS_FROM_BYTES
        ? acceptedEncoding(request.headers['accept-encoding'])
        : undefined;
    if (encoding === undefined) {
      void reply.send(answer.body);
      return;
    }
    let body = answer.encoded.get(encoding);
    if (body === undefined) {
      body = compressed(answer.body, encoding);
      answer.encoded.set(encoding, body);
    }
    let bytes: Buffer;
    try {
      bytes = await body;
    } catch (error) {
      // zlib refusing a buffer would be a bug of its own; the answer still goes, uncompressed.
      answer.encoded.delete(encoding);
      request.log.error({ err: error }, 'compressing a kept answer failed');
      void reply.send(answer.body);
      return;
    }
    void reply.header('content-encoding', encoding).send(bytes);
  }

  return {
    async send(request, reply, compute, ownReactions) {
      const viewer = request.user;
      if (viewer !== null && ownReactions === undefined) {
        void reply.send(await compute(viewer));
        return;
      }
      const shared = await anonymous(request.url, reply, () => compute(null));
      if (viewer === null || ownReactions === undefined) {
        await sendKept(request, reply, shared);
        return;
      }
      if (shared.slots === null) {
        void reply.send(await compute(viewer));
        return;
      }
      const own = await ownReactions(shared.slots.ids, viewer);
      if (own.size === 0) {
        await sendKept(request, reply, shared);
        return;
      }
      void reply
        .type(JSON_TYPE)
        .header('vary', 'accept-encoding')
        .send(spliceOwn(shared.body, shared.slots, own));
    },
    clear() {
      generation += 1;
      entries.clear();
      pending.clear();
      bytes = 0;
    },
  };
}

export const publicCachePlugin = fp<{ clock: Clock; ttlMs: number }>(
  async (app, { clock, ttlMs }) => {
    const cache = createPublicCache(clock, ttlMs);
    app.decorate('publicCache', cache);
    // onSend, not onResponse: the cache is empty before the client learns of its change.
    app.addHook('onSend', async (request, reply) => {
      if (!CHANGES.has(request.method) || reply.statusCode >= 400) return;
      if (request.routeOptions.config.keepsPublicCache === true) return;
      cache.clear();
    });
  },
  { name: 'public-cache' },
);
