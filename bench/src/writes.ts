import os from 'node:os';
import { parseArgs } from 'node:util';
import { dropCatalogue, generateCatalogue } from './generate.js';
import { drain, ensureServerBuild, load, mb, printTable, startServer } from './load.js';
import type { LoadResult, ServerHandle } from './load.js';
import { prepareMixed, viewKind, type Kind } from './mixed.js';
import { failer, parseEngine, parseSize, POSTGRES_URL_OPTION } from './options.js';

/*
 * `npm run bench:writes -- [--size 100k] [--engine sqlite|postgres] [--seconds 10]
 *   [--connections 40] [--views 1000] [--likes 100] [--rounds 1]`
 *
 * Issue 8, goal 5: writes don't starve reads. Reads (anonymous gallery pages and image details,
 * as fast as `--connections` allow) run alone, then together with a steady stream of
 * `--views` anonymous views and `--likes` like toggles a second, alone, with as many no-op
 * POSTs a second (the control: what any such stream of requests costs here, the load
 * generator's work included, since it shares the machine), and alone again. Each loaded run
 * is compared with the mean of the two runs without load on either side of it (the machine
 * drifts), and with `--rounds` over 1 the writes and the control take turns going first, so
 * neither always meets the later, often slower, minutes. Goal: the writes cost the reads at
 * most 15 %. Prints every run's table, the CPU each side used and
 * how long the server's main thread waited for a core (ready to run while other
 * threads or processes had both cores). `--views 0` or `--likes 0` leaves that write out, to see
 * each one's share.
 *
 * Then why: each kind of request alone, as fast as it goes, with the server's CPU time (all
 * its threads, and its main thread alone, from /proc) divided by the answers, next to the bench
 * server's no-op POST (the same hooks and headers, no work: the floor of any request on this
 * machine). While the reads keep the server's event loop busy, a write takes its main-thread
 * time from them, so the views' and likes' main-thread cost per request times their rates
 * predicts the share the reads lose.
 */

const fail = failer('bench:writes');

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    engine: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '40' },
    views: { type: 'string', default: '1000' },
    likes: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
    'postgres-url': POSTGRES_URL_OPTION,
  },
});

const MAX_READ_LOSS = 0.15;
const say = (text: string) => process.stdout.write(`${text}\n`);

const images = parseSize(values.size, fail);
const engine = parseEngine(values.engine, fail);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rateOf = (option: 'views' | 'likes') => {
  const rate = Number(values[option]);
  return Number.isFinite(rate) && rate >= 0
    ? rate
    : fail(`--${option} takes a number of requests a second, 0 or more`);
};
const viewRate = rateOf('views');
const likeRate = rateOf('likes');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) fail('--rounds takes a whole number, 1 or more');

/** The reads, sharing `connections`: gallery pages and image details, half and half. */
function runReads(server: ServerHandle, reads: Kind[]): Promise<LoadResult[]> {
  return Promise.all(
    reads.map((kind) =>
      load(server, kind.name, kind.path, {
        seconds,
        connections: Math.max(1, Math.round(connections / reads.length)),
        request: kind.request,
      }),
    ),
  );
}

/**
 * A steady stream of one write at `rate` a second. Each connection waits for its answer before
 * the next request, so it sends at most 1/latency a second: while the reads keep the server
 * busy, answers take tens of milliseconds, and one connection per 100 writes a second (the
 * first version) let the views reach only a third of their rate. One per 10 a second holds
 * the rate up to 100 ms answers.
 */
function runWrites(server: ServerHandle, kind: Kind, rate: number): Promise<LoadResult> {
  return load(server, kind.name, kind.path, {
    seconds,
    connections: Math.max(2, Math.ceil(rate / 10)),
    request: { ...kind.request, overallRate: rate },
  });
}

/** A no-op POST through the bench server's hooks (bench-server.mjs): the floor of a request. */
const NOOP: Kind = {
  name: 'no-op POST',
  weight: 1,
  path: '/api/bench/noop',
  request: {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"id_tipo_interazione":7}',
  },
};

/** Server CPU time per 2xx answer, in µs: all threads, and the main thread alone. */
interface Cost {
  all: number;
  main: number;
}

/** `kind` alone, as fast as 10 connections go. */
async function cpuPerRequest(server: ServerHandle, kind: Kind): Promise<Cost> {
  const before = { all: server.cpuSeconds(), main: server.mainThreadCpuSeconds() };
  const result = await load(server, kind.name, kind.path, {
    seconds: Math.max(3, seconds / 2),
    connections: 10,
    request: kind.request,
  });
  const used = {
    all: server.cpuSeconds() - before.all,
    main: server.mainThreadCpuSeconds() - before.main,
  };
  await drain(server);
  const answers = Math.max(1, result.requests - result.errors - result.non2xx);
  return { all: (used.all * 1e6) / answers, main: (used.main * 1e6) / answers };
}

/**
 * A run's results with the CPU each side used, in cores (CPU seconds per second): the reads can
 * only be the server's measure while the load generator, one event loop, is not the busier.
 */
async function busy(
  server: ServerHandle,
  run: () => Promise<LoadResult[]>,
): Promise<{
  results: LoadResult[];
  generator: number;
  main: number;
  all: number;
  waiting: number;
}> {
  const started = performance.now();
  const generator = process.cpuUsage();
  const main = server.mainThreadCpuSeconds();
  const all = server.cpuSeconds();
  const waiting = server.mainThreadWaitSeconds();
  const results = await run();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(generator);
  return {
    results,
    generator: (used.user + used.system) / 1e6 / seconds,
    main: (server.mainThreadCpuSeconds() - main) / seconds,
    all: (server.cpuSeconds() - all) / seconds,
    waiting: (server.mainThreadWaitSeconds() - waiting) / seconds,
  };
}

type Run = Awaited<ReturnType<typeof busy>>;

const readRate = (results: LoadResult[]) =>
  results
    .filter((r) => r.name === 'gallery' || r.name === 'detail')
    .reduce((sum, r) => sum + r.requestsPerSecond, 0);

/** The reads' rate without load, as the mean of the runs on either side of a loaded one. */
const meanReads = (before: Run, after: Run) =>
  (readRate(before.results) + readRate(after.results)) / 2;

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** A round's waits for the write lock: how many, and their spread. */
function describeWaits(waits: readonly number[]): string {
  if (waits.length === 0) return 'no statement of the server waited for the write lock';
  return (
    `${String(waits.length)} statements of the server waited for the views' write lock: ` +
    describeTimes(waits)
  );
}

/** Times in ms: p50, p99 and the longest. */
function describeTimes(times: readonly number[]): string {
  if (times.length === 0) return 'none';
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0).toFixed(1);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, the longest ${at(1)} ms`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

async function main(): Promise<void> {
  ensureServerBuild();
  say(`Generating ${String(images)} images on ${engine}…`);
  const catalogue = await generateCatalogue({
    engine,
    images,
    postgresUrl: values['postgres-url'],
  });
  try {
    const setup = await prepareMixed(catalogue);
    const byName = (name: string) =>
      setup.kinds.find((kind) => kind.name === name) ?? fail(`no '${name}' traffic`);
    const reads = [byName('gallery'), byName('detail')];
    const like = byName('like');
    const view = viewKind(catalogue);
    say(
      `Machine: ${String(os.availableParallelism())} cores, ${mb(os.totalmem())}, Node ${process.version}; ` +
        `${String(seconds)} s per run; reads on ${String(connections)} connections; ` +
        `writes: ${String(viewRate)} views/s and ${String(likeRate)} likes/s`,
    );
    const server = await startServer({
      DATA_DIR: catalogue.dataDir,
      LOG_LEVEL: 'warn',
      ...(catalogue.databaseUrl === undefined ? {} : { DATABASE_URL: catalogue.databaseUrl }),
      ...setup.env,
    });
    try {
      await runReads(server, reads); // warm-up, not counted
      await drain(server);
      const measured = async (run: () => Promise<LoadResult[]>) => {
        const result = await busy(server, run);
        await drain(server);
        return result;
      };
      const readsAlone = () => measured(() => runReads(server, reads));
      const withStream = (streams: ReadonlyArray<readonly [Kind, number]>) =>
        measured(() =>
          Promise.all([
            runReads(server, reads),
            // A rate of 0 leaves that write out: each kind's share of the loss, measured alone.
            ...streams.flatMap(([kind, rate]) => (rate > 0 ? [runWrites(server, kind, rate)] : [])),
          ]).then(([r, ...writes]) => [...r, ...writes]),
        );
      const lockWaits = async (): Promise<number[]> => {
        const answer = await fetch(`${server.origin}/api/bench/lock-waits`);
        return ((await answer.json()) as { waits: number[] }).waits;
      };
      interface AnswerTimes {
        like: number[];
        view: number[];
        loop: { p99: number; max: number };
      }
      const answerTimes = async (): Promise<AnswerTimes> => {
        const answer = await fetch(`${server.origin}/api/bench/answer-times`);
        return (await answer.json()) as AnswerTimes;
      };
      const waitsOfRounds: number[][] = [];
      const timesOfRounds: AnswerTimes[] = [];
      // The writes' run, and the waits of the server's connection for the views' thread's write
      // lock meanwhile: on SQLite the likes are its only writes, so these are the likes' waits.
      const withWrites = async () => {
        await lockWaits();
        await answerTimes();
        const run = await withStream([
          [view, viewRate],
          [like, likeRate],
        ]);
        waitsOfRounds.push(await lockWaits());
        timesOfRounds.push(await answerTimes());
        return run;
      };
      // The control: as many requests a second that do nothing (the no-op POST), so the share
      // of the loss any such stream costs on this machine (the load generator making the
      // requests, HTTP around them) is told from the share of the writes' own work.
      const withControl = () => withStream([[NOOP, viewRate + likeRate]]);

      const report = (label: string, run: Run) => {
        say(`\n${label}:`);
        printTable([...run.results]);
        say(
          `CPU, in cores: the load generator (this process) ${run.generator.toFixed(2)}, ` +
            `the server's main thread ${run.main.toFixed(2)}, all its threads ${run.all.toFixed(2)}; ` +
            `the main thread waited for a core ${(run.waiting * 1000).toFixed(0)} ms a second`,
        );
      };
      const losses: Array<{ writes: number; control: number }> = [];
      const writesRuns: Run[] = [];
      for (let round = 1; round <= rounds; round += 1) {
        const writesFirst = round % 2 === 1;
        say(
          `\nround ${String(round)} of ${String(rounds)}: ${writesFirst ? 'writes' : 'control'} first`,
        );
        const first = await readsAlone();
        const one = writesFirst ? await withWrites() : await withControl();
        const middle = await readsAlone();
        const two = writesFirst ? await withControl() : await withWrites();
        const last = await readsAlone();
        const [writesRun, controlRun] = writesFirst ? [one, two] : [two, one];
        writesRuns.push(writesRun);
        const [writesAlone, controlAlone] = writesFirst
          ? [meanReads(first, middle), meanReads(middle, last)]
          : [meanReads(middle, last), meanReads(first, middle)];
        report('reads alone', first);
        report(writesFirst ? 'reads with the writes' : 'reads with the control', one);
        report('reads alone', middle);
        report(writesFirst ? 'reads with the control' : 'reads with the writes', two);
        report('reads alone', last);
        const loss = {
          writes: 1 - readRate(writesRun.results) / writesAlone,
          control: 1 - readRate(controlRun.results) / controlAlone,
        };
        losses.push(loss);
        say(
          `\nround ${String(round)}: the writes cost the reads ${percent(loss.writes)} ` +
            `(against ${writesAlone.toFixed(0)} req/s alone on either side; goal ≤ ` +
            `${String(MAX_READ_LOSS * 100)} %), the control ${percent(loss.control)} ` +
            `(${String(viewRate + likeRate)} no-op POSTs a second); the writes' own work ` +
            `${((loss.writes - loss.control) * 100).toFixed(1)} points`,
        );
      }
      if (rounds > 1) {
        say(
          `\nover ${String(rounds)} rounds, medians: the writes ${percent(median(losses.map((l) => l.writes)))}, ` +
            `the control ${percent(median(losses.map((l) => l.control)))}, the writes' own work ` +
            `${(median(losses.map((l) => l.writes - l.control)) * 100).toFixed(1)} points`,
        );
      }
      if (engine === 'sqlite') {
        for (const [index, waits] of waitsOfRounds.entries()) {
          say(`round ${String(index + 1)}: ${describeWaits(waits)}`);
        }
      }
      // The server's own time over each write (from its hooks to its answer's last byte) next to
      // the load generator's: what the generator's p99 has more happened before the server read
      // the request (the event loop busy, the socket's queue) or in the generator itself.
      for (const [index, times] of timesOfRounds.entries()) {
        say(
          `round ${String(index + 1)}, the server's own time: likes ${describeTimes(times.like)}; ` +
            `views ${describeTimes(times.view)}; the event loop ran late by ` +
            `p99 ${times.loop.p99.toFixed(1)} ms, at most ${times.loop.max.toFixed(1)} ms`,
        );
      }
      const writes = writesRuns.flatMap((run) =>
        run.results.filter((r) => r.name === 'view' || r.name === 'like'),
      );
      for (const write of writes) {
        const asked = write.name === 'view' ? viewRate : likeRate;
        say(
          `${write.name}s: ${write.requestsPerSecond.toFixed(0)}/s done of ${String(asked)}/s asked, ` +
            `p99 ${write.p99.toFixed(1)} ms, ${String(write.errors + write.non2xx)} errors`,
        );
        if (write.requestsPerSecond < asked * 0.95) {
          say(
            `warning: the ${write.name}s fell short of their rate; the loss above understates them`,
          );
        }
      }
      say(`server peak RSS (VmHWM): ${mb(server.peakRss())}`);

      // The reads wait for the main thread (the event loop); the views' thread and the
      // checkpointer run beside it, on the other core.
      say('\nserver CPU per answer, each kind alone (10 connections): all threads, main thread');
      const costs = new Map<string, Cost>();
      for (const kind of [NOOP, view, like, ...reads]) {
        const cost = await cpuPerRequest(server, kind);
        costs.set(kind.name, cost);
        say(
          `  ${kind.name.padEnd(11)} ${cost.all.toFixed(0).padStart(5)} µs ` +
            `${cost.main.toFixed(0).padStart(5)} µs`,
        );
      }
      const share = (which: keyof Cost) =>
        (viewRate * (costs.get('view')?.[which] ?? Number.NaN) +
          likeRate * (costs.get('like')?.[which] ?? Number.NaN)) /
        1e6;
      say(
        `the writes at their rates: ${(share('all') * 1000).toFixed(0)} ms of server CPU a second, ` +
          `${(share('main') * 100).toFixed(1)} % of the main thread; at the no-op's cost they ` +
          `would take ${(((viewRate + likeRate) * (costs.get(NOOP.name)?.main ?? Number.NaN)) / 1e4).toFixed(1)} %`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await dropCatalogue(catalogue, values['postgres-url']);
  }
}

await main();
