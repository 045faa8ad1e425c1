import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/*
 * The load side of the benchmarks: the bench server (bench-server.mjs, the built server plus a
 * reference route) as a child process on loopback, autocannon runs bounded in time, and the
 * server's resident memory sampled from /proc while they run.
 */

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(benchDir, '..');

/** The server under test is the build: rebuilt when a source file is newer than it. */
export function ensureServerBuild(): void {
  const built = path.join(root, 'server/dist/app.js');
  const newest = (dir: string): number =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .reduce(
        (max, entry) =>
          Math.max(
            max,
            entry.isDirectory()
              ? newest(path.join(dir, entry.name))
              : fs.statSync(path.join(dir, entry.name)).mtimeMs,
          ),
        0,
      );
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newest(path.join(root, 'server/src')))
    return;
  process.stdout.write('Building the server (server/dist)…\n');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], {
    cwd: path.join(root, 'server'),
    stdio: 'inherit',
  });
}

export interface ServerHandle {
  pid: number;
  origin: string;
  /** The highest RSS the kernel saw for the process so far (VmHWM), in bytes. */
  peakRss(): number;
  /** The current RSS (VmRSS), in bytes. */
  rss(): number;
  /** CPU time the process has used so far, all threads, user and system, in seconds. */
  cpuSeconds(): number;
  /** CPU time of the main thread alone (the event loop every request goes through), in seconds. */
  mainThreadCpuSeconds(): number;
  /** Time the main thread was ready to run but waited for a core, in seconds (NaN if unknown). */
  mainThreadWaitSeconds(): number;
  /** The server's process.memoryUsage(), through a bench-only route; after a full GC if asked. */
  memory(options?: { gc: boolean }): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export interface LoadResult {
  name: string;
  path: string;
  /** Successful (2xx) answers per second. */
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** The server's highest sampled RSS during this run, in bytes. */
  peakRss: number;
  /**
   * CPU the server and the load generator (this process: autocannon) used during the run, in
   * cores (1 = one core busy throughout). On two shared cores a generator busier than the
   * server is what bounds the run: autocannon decodes every answer's body into a string, which
   * for 90 KB of JSON with accented letters costs it about three times what the server spends
   * (docs/PERFORMANCE.md, "What bounds the galleries' p99 on this machine").
   */
  serverCores: number;
  generatorCores: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = fs.readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of a process (all its threads), or of one thread with `thread` (its task id):
 * utime + stime of /proc/<pid>/stat (fields 14 and 15, after the parenthesised name).
 */
function procCpuSeconds(pid: number, thread?: number): number {
  try {
    const stat = fs.readFileSync(
      thread === undefined
        ? `/proc/${String(pid)}/stat`
        : `/proc/${String(pid)}/task/${String(thread)}/stat`,
      'utf8',
    );
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // USER_HZ is 100 on every Linux this runs on.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts the bench server. `benchServer`: another checkout's bench-server.mjs (its own built
 * server/dist), for a before/after comparison in one run (`bench:pipeline -- --baseline`).
 */
export async function startServer(
  env: Record<string, string>,
  benchServer = path.join(benchDir, 'bench-server.mjs'),
): Promise<ServerHandle> {
  const port = await freePort();
  // BENCH_CPU_PROFILE=<dir>: each server writes a V8 CPU profile there when it stops (open it
  // in Chrome's DevTools or speedscope); Node refuses --cpu-prof in NODE_OPTIONS.
  const profileDir = process.env['BENCH_CPU_PROFILE'];
  const profile =
    profileDir === undefined || profileDir === ''
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`];
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', ...profile, benchServer], {
    env: {
      // As `npm start` runs the server (scripts/start.mjs), unless the caller chose.
      MALLOC_ARENA_MAX: '2',
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      // Load tests from one address would hit the per-address limits at once.
      RATE_LIMITS: '0',
      DEMO_CONTENT: '0',
      // No background work competes with requests unless a scenario asks for it.
      JOBS_IN_SERVER: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    // Kept short: only the start-up lines matter when the server fails to come up.
    if (output.length < 20_000) output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${String(port)}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 200, 'wait'))]);
    if (code !== 'wait') throw new Error(`bench server exited (${String(code)}):\n${output}`);
    try {
      const response = await fetch(`${origin}/api/bench/reference`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`bench server did not start:\n${output}`);
  }
  const pid = child.pid ?? 0;
  return {
    pid,
    origin,
    peakRss: () => procStatus(pid, 'VmHWM'),
    rss: () => procStatus(pid, 'VmRSS'),
    cpuSeconds: () => procCpuSeconds(pid),
    // The main thread's task id is the process id.
    mainThreadCpuSeconds: () => procCpuSeconds(pid, pid),
    mainThreadWaitSeconds: () => procWaitSeconds(pid, pid),
    async memory(options) {
      const query = options?.gc === true ? '?gc=1' : '';
      const response = await fetch(`${origin}/api/bench/memory${query}`);
      return (await response.json()) as NodeJS.MemoryUsage;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Seconds a thread was ready to run but waited for a core (the second field of its
 * schedstat, in ns): CPU taken by other threads or processes, not by its own work.
 */
function procWaitSeconds(pid: number, thread: number): number {
  try {
    const schedstat = fs.readFileSync(
      `/proc/${String(pid)}/task/${String(thread)}/schedstat`,
      'utf8',
    );
    return Number(schedstat.split(' ')[1]) / 1e9;
  } catch {
    return Number.NaN;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/**
 * What a request sends besides a GET of `urlPath`: a method, headers and a body, or a
 * `setupRequest` that builds each request afresh (another image, another user); and, for a
 * steady stream rather than as fast as possible, an `overallRate` in requests per second.
 */
export type RequestShape = Pick<
  autocannon.Options,
  'method' | 'headers' | 'body' | 'requests' | 'overallRate'
>;

/** One autocannon run against `urlPath`, with latencies recorded per response. */
export async function load(
  server: ServerHandle,
  name: string,
  urlPath: string,
  options: { seconds: number; connections: number; request?: RequestShape },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let peakRss = server.rss();
  const serverCpuBefore = server.cpuSeconds();
  const generatorCpuBefore = process.cpuUsage();
  const started = performance.now();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.rss());
  }, 100);
  try {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `${server.origin}${urlPath}`,
          connections: options.connections,
          duration: options.seconds,
          // Each request waits for its answer: latency is the server's, not a queue in the client.
          pipelining: 1,
          ...options.request,
        },
        (error, done) => {
          if (error !== null) reject(error instanceof Error ? error : new Error(String(error)));
          else resolve(done);
        },
      );
      // autocannon's own histogram has no p95 (goal 3 asks for it), so every response time is
      // kept; at most a few hundred thousand numbers per run.
      instance.on('response', (_client, _status, _bytes, responseTime) => {
        latencies.push(responseTime);
      });
    });
    latencies.sort((a, b) => a - b);
    return {
      name,
      path: urlPath,
      // Only answers that succeeded count: a 503 from the overload guard is cheap and fast, and
      // would otherwise make a struggling scenario look quick.
      requestsPerSecond: result['2xx'] / (result.duration || options.seconds),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      requests: result.requests.total,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      peakRss: Math.max(peakRss, server.rss()),
      ...coresUsed(server, serverCpuBefore, generatorCpuBefore, started),
    };
  } finally {
    clearInterval(sampler);
  }
}

function coresUsed(
  server: ServerHandle,
  serverCpuBefore: number,
  generatorCpuBefore: NodeJS.CpuUsage,
  started: number,
): { serverCores: number; generatorCores: number } {
  const seconds = (performance.now() - started) / 1000;
  const generator = process.cpuUsage(generatorCpuBefore);
  return {
    serverCores: (server.cpuSeconds() - serverCpuBefore) / seconds,
    generatorCores: (generator.user + generator.system) / 1e6 / seconds,
  };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

export function printTable(results: LoadResult[]): void {
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'errors',
    'non-2xx',
    'peak RSS',
    'server CPU',
    'load gen CPU',
  ];
  const rows = results.map((r) => [
    r.name,
    r.requestsPerSecond.toFixed(0),
    ms(r.p50),
    ms(r.p95),
    ms(r.p99),
    String(r.errors),
    String(r.non2xx),
    mb(r.peakRss),
    `${(r.serverCores * 100).toFixed(0)} %`,
    `${(r.generatorCores * 100).toFixed(0)} %`,
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  process.stdout.write(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

/**
 * Waits until the server answers the reference route quickly again: autocannon stops sending
 * at the end of a run, but requests already queued in a slow server still run, and would
 * otherwise be billed to the next scenario.
 */
export async function drain(server: ServerHandle, maxSeconds = 120): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await fetch(`${server.origin}/api/bench/reference`).then((response) => response.arrayBuffer());
    if (performance.now() - started < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
