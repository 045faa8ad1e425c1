// @ts-check
/*
 * The server the benchmarks load (bench only: never used in production). It is the built
 * server (server/dist) started as main.js starts it, plus one reference route,
 * GET /api/bench/reference, which answers the bytes of a `GET /api/images?limit=120` captured
 * at start, from memory, in the encoding the gallery would send (plain, brotli or gzip, as
 * the request accepts), and GET /api/bench/memory for the soak. Both go through the same
 * Fastify instance, hooks, security headers and socket, so their ratio is what the database and
 * the serialisation of a gallery cost (issue 8: "the limit for an API answer of that size on
 * this machine").
 * Plain JavaScript so it runs on node alone: a TypeScript loader would add its own memory to
 * the peak RSS the benchmarks report.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../server/dist/app.js';
import { loadConfig } from '../server/dist/config.js';
import { acceptedEncoding } from '../server/dist/lib/content-encoding.js';

const config = loadConfig();
const app = await buildApp(config);
/** @type {Map<string, Buffer>} the captured answer's bytes by content encoding ('' plain) */
const captured = new Map();
app.get('/api/bench/reference', { schema: { hide: true } }, (request, reply) => {
  const encoding = acceptedEncoding(request.headers['accept-encoding']) ?? '';
  const body = captured.get(encoding);
  if (body === undefined) return reply.code(503).send({ detail: 'Non ancora pronto' });
  void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding !== '') void reply.header('content-encoding', encoding);
  return reply.send(body);
});
// The cheapest answer a POST can have through the same hooks and headers: the floor under which
// no write route can go on this machine (bench:writes compares a view with it, and streams it
// beside the reads as a control). It keeps the public lists, as a view does: any other POST
// empties them (plugins/public-cache.ts).
app.post('/api/bench/noop', { schema: { hide: true }, config: { keepsPublicCache: true } }, () => ({
  action: 'exists',
}));
// The server's own view of its memory, so a soak can tell the JavaScript heap from native
// memory (libvips, SQLite, the allocator) when RSS grows.
// With ?gc=1 a full collection runs first (the bench starts this server with --expose-gc), so
// the heap figure is what is alive, without the collector's sawtooth.
app.get('/api/bench/memory', { schema: { hide: true } }, (request) => {
  if (/** @type {{ gc?: string }} */ (request.query).gc === '1') globalThis.gc?.();
  return process.memoryUsage();
});
// How long the server connection's statements waited for another connection's write lock
// since the last call (SQLite; none on PostgreSQL): bench:writes times the likes' waits for the
// views' batches with it.
app.get('/api/bench/lock-waits', { schema: { hide: true } }, () => ({
  waits: app.ctx.database.lockWaits?.() ?? [],
}));
// How long the server itself took over each like and view (Fastify's elapsedTime: from the
// request's arrival at its hooks to its answer's last byte written), and how late the event loop
// ran meanwhile: bench:writes tells the time a write spends in the server from the time it
// spends before the server reads it (or in the load generator), which the client's p99 mixes.
const INTERACTIONS = '/api/images/:id/interactions';
const KEPT_TIMES = 50_000;
/** @type {Record<string, number[]>} ms by interaction type's name */
const answerTimes = { like: [], view: [] };
app.addHook('onResponse', (request, reply, done) => {
  if (request.method === 'POST' && request.routeOptions.url === INTERACTIONS) {
    const type = /** @type {{ id_tipo_interazione?: number } | undefined} */ (request.body)
      ?.id_tipo_interazione;
    const times = type === 1 ? answerTimes.like : type === 7 ? answerTimes.view : undefined;
    if (times !== undefined && times.length < KEPT_TIMES) times.push(reply.elapsedTime);
  }
  done();
});
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
// Taken and cleared by each call.
app.get('/api/bench/answer-times', { schema: { hide: true } }, () => {
  const answer = {
    like: answerTimes.like.splice(0),
    view: answerTimes.view.splice(0),
    loop: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  };
  loopDelay.reset();
  return answer;
});
await app.ready();
for (const encoding of ['', 'br', 'gzip']) {
  const answer = await app.inject({
    method: 'GET',
    url: '/api/images?limit=120',
    headers: encoding === '' ? {} : { 'accept-encoding': encoding },
  });
  if (answer.statusCode !== 200) throw new Error(`capture failed: ${String(answer.statusCode)}`);
  if ((answer.headers['content-encoding'] ?? '') !== encoding) {
    throw new Error(
      `capture in '${encoding}' came as '${String(answer.headers['content-encoding'])}'`,
    );
  }
  captured.set(encoding, answer.rawPayload);
}

const shutdown = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
await app.listen({ port: config.port, host: config.host });
process.stdout.write(`bench server listening on ${config.host}:${String(config.port)}\n`);
