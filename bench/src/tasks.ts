import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { buildWeb, goalPages, startDemoSite, type DemoSite } from './demo-site.js';
import { ensureServerBuild } from './load.js';
import { callerPath } from './options.js';

/*
 * `npm run bench:tasks -- [--web <dir>]... [--loads 4] [--pages home,image,profile] [--detail]
 *   [--unminified] [--save <dir>]`
 *
 * Goal 8's total blocking time, measured so that other processes on the same cores do not
 * count. Lighthouse's mobile preset records an ordinary load and multiplies each task's time
 * by 4 (its simulated CPU slowdown); a task counts by what it lasts beyond 50 ms. Its figure
 * is wall-clock, so an OCR run on the same two cores can multiply it by 6. Here each load is
 * traced in Chromium (a phone's viewport, unthrottled, fresh cache, as Lighthouse records) and
 * the main thread's tasks after the first contentful paint are summed both ways:
 *
 * - `cpu`: Σ max(0, 4 × the task's own CPU time − 50 ms), which other processes barely move;
 * - `wall`: Σ max(0, 4 × the task's wall time − 50 ms), closer to what Lighthouse reads.
 *
 * Several `--web` folders (builds made before, e.g. `npx vite build --outDir /tmp/before` in
 * each tree) are served by servers of their own and loaded in turn, load after load, so a
 * before/after comparison shares the same minutes of the machine. Without `--web`, the working
 * tree is built. `--detail` lists each long task with where its CPU time went (the V8 CPU
 * profile's samples by function: build with `--unminified` for readable names).
 */

const { values } = parseArgs({
  options: {
    web: { type: 'string', multiple: true },
    loads: { type: 'string', default: '4' },
    pages: { type: 'string', default: 'home,image' },
    'demo-images': { type: 'string', default: '60' },
    detail: { type: 'boolean', default: false },
    unminified: { type: 'boolean', default: false },
    /** A folder for the traces (JSON), one per build, page and load. */
    save: { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
const say = (text: string) => process.stdout.write(`${text}\n`);

/** Lighthouse's mobile preset: its CPU slowdown and the device it emulates (Moto G Power). */
const CPU_SLOWDOWN = 4;
const BLOCKING_FROM_MS = 50;
const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 ' +
    '(KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36',
};
/** How long a load is recorded after the load event: the app starts after the first paint. */
const SETTLE_MS = 4000;

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'loading',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
];
/** The names Chromium gives a main-thread task (Lighthouse's list). */
const TASK_NAMES = new Set([
  'RunTask',
  'ThreadControllerImpl::RunTask',
  'ThreadControllerImpl::DoWork',
  'TaskQueueManager::ProcessTaskFromWorkQueue',
]);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown>;
}

interface Task {
  /** Milliseconds after the first contentful paint. */
  at: number;
  wallMs: number;
  cpuMs: number;
  /** Where its CPU time went, by function (`--detail`). */
  functions: Array<{ name: string; ms: number }>;
  /** Its largest kinds of work (trace events directly inside it). */
  work: Array<{ name: string; ms: number }>;
}

interface Load {
  cpuBlockingMs: number;
  wallBlockingMs: number;
  tasks: Task[];
}

async function readTrace(session: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => {
    session.once('Tracing.tracingComplete', (event) => {
      resolve(event.stream ?? '');
    });
  });
  await session.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = await session.send('IO.read', { handle: stream });
    text +=
      chunk.base64Encoded === true ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await session.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Self time by function, from the V8 CPU profile's samples inside [start, end) (µs). */
function profileFunctions(
  events: TraceEvent[],
  pid: number,
): (start: number, end: number) => Array<{ name: string; ms: number }> {
  const nodes = new Map<number, string>();
  const samples: Array<{ ts: number; node: number }> = [];
  const profiles = new Map<string, number>();
  for (const event of events) {
    if (event.pid !== pid) continue;
    const data = event.args?.['data'] as
      | {
          startTime?: number;
          cpuProfile?: {
            nodes?: Array<{
              id: number;
              callFrame: { functionName?: string; url?: string; lineNumber?: number };
            }>;
            samples?: number[];
          };
          timeDeltas?: number[];
        }
      | undefined;
    if (event.name === 'Profile' && event.id !== undefined) {
      profiles.set(event.id, data?.startTime ?? event.ts);
    }
    if (event.name !== 'ProfileChunk' || event.id === undefined || data === undefined) continue;
    for (const node of data.cpuProfile?.nodes ?? []) {
      const frame = node.callFrame;
      const file = (frame.url ?? '').split('/').pop() ?? '';
      const line = file === '' ? '' : `:${String((frame.lineNumber ?? 0) + 1)}`;
      nodes.set(node.id, `${frame.functionName || '(anonymous)'} ${file}${line}`);
    }
    let ts = profiles.get(event.id) ?? 0;
    const deltas = data.timeDeltas ?? [];
    (data.cpuProfile?.samples ?? []).forEach((node, index) => {
      ts += deltas[index] ?? 0;
      samples.push({ ts, node });
    });
    profiles.set(event.id, ts);
  }
  samples.sort((a, b) => a.ts - b.ts);
  return (start, end) => {
    const byName = new Map<string, number>();
    for (let i = 0; i < samples.length - 1; i += 1) {
      const sample = samples[i];
      const next = samples[i + 1];
      if (sample === undefined || next === undefined) continue;
      if (sample.ts < start || sample.ts >= end) continue;
      const name = nodes.get(sample.node) ?? '?';
      if (name.startsWith('(idle)')) continue;
      byName.set(name, (byName.get(name) ?? 0) + (Math.min(next.ts, end) - sample.ts) / 1000);
    }
    return [...byName]
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
  };
}

/** The main thread's tasks after the first contentful paint, and their blocking times. */
function analyse(events: TraceEvent[]): Load {
  const fcp = events
    .filter((event) => event.name === 'firstContentfulPaint')
    .sort((a, b) => a.ts - b.ts)[0];
  if (fcp === undefined) throw new Error('no first contentful paint in the trace');
  const onMain = (event: TraceEvent) => event.pid === fcp.pid && event.tid === fcp.tid;
  const all = events
    .filter((event) => onMain(event) && event.ph === 'X' && TASK_NAMES.has(event.name))
    .sort((a, b) => a.ts - b.ts);
  // Top-level tasks only: some names nest inside others.
  const tops: TraceEvent[] = [];
  for (const event of all) {
    const last = tops.at(-1);
    if (last !== undefined && event.ts < last.ts + (last.dur ?? 0)) continue;
    tops.push(event);
  }
  const functions = values.detail ? profileFunctions(events, fcp.pid) : () => [];
  const children = events.filter(
    (event) => onMain(event) && event.ph === 'X' && !TASK_NAMES.has(event.name),
  );
  let cpuBlockingMs = 0;
  let wallBlockingMs = 0;
  const tasks: Task[] = [];
  for (const task of tops) {
    if (task.ts + (task.dur ?? 0) <= fcp.ts) continue;
    const wallMs = (task.dur ?? 0) / 1000;
    const cpuMs = (task.tdur ?? task.dur ?? 0) / 1000;
    cpuBlockingMs += Math.max(0, CPU_SLOWDOWN * cpuMs - BLOCKING_FROM_MS);
    wallBlockingMs += Math.max(0, CPU_SLOWDOWN * wallMs - BLOCKING_FROM_MS);
    if (CPU_SLOWDOWN * cpuMs <= BLOCKING_FROM_MS) continue;
    const end = task.ts + (task.dur ?? 0);
    const work = new Map<string, number>();
    for (const child of children) {
      if (child.ts < task.ts || child.ts >= end) continue;
      // Directly inside the task: not inside another child (an approximation by depth 1).
      const inside = children.some(
        (other) =>
          other !== child &&
          other.ts >= task.ts &&
          other.ts <= child.ts &&
          other.ts + (other.dur ?? 0) >= child.ts + (child.dur ?? 0) &&
          (other.dur ?? 0) > (child.dur ?? 0),
      );
      if (inside) continue;
      const url = (child.args?.['data'] as { url?: string } | undefined)?.url ?? '';
      const name =
        child.name === 'FunctionCall' || child.name === 'EvaluateScript'
          ? `${child.name} ${url.split('/').pop() ?? ''}`
          : child.name;
      work.set(name, (work.get(name) ?? 0) + (child.tdur ?? child.dur ?? 0) / 1000);
    }
    tasks.push({
      at: (task.ts - fcp.ts) / 1000,
      wallMs,
      cpuMs,
      functions: functions(task.ts, end),
      work: [...work]
        .map(([name, ms]) => ({ name, ms }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 6),
    });
  }
  return { cpuBlockingMs, wallBlockingMs, tasks };
}

async function traceLoad(browser: Browser, url: string): Promise<{ load: Load; trace: string }> {
  const context = await browser.newContext(MOBILE);
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Tracing.start', {
      transferMode: 'ReturnAsStream',
      traceConfig: { includedCategories: CATEGORIES },
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);
    const events = await readTrace(session);
    return { load: analyse(events), trace: JSON.stringify(events) };
  } finally {
    await context.close();
  }
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  ensureServerBuild();
  const built = values.web === undefined;
  const webDirs = values.web?.map(callerPath) ?? [buildWeb({ minify: !values.unminified })];
  const sites: DemoSite[] = [];
  const browser = await chromium.launch({
    executablePath: values.chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    for (const dir of webDirs) sites.push(await startDemoSite(dir, values['demo-images']));
    const wanted = values.pages.split(',');
    const pagesOf = await Promise.all(
      sites.map(async (site) =>
        (await goalPages(site.origin)).filter((page) => wanted.includes(page.name)),
      ),
    );
    const results = new Map<string, Load[]>();
    // A load of each page first, not counted: the server's caches and the disk warm up.
    for (const pages of pagesOf) for (const page of pages) await traceLoad(browser, page.url);
    const loads = Number(values.loads);
    for (let run = 1; run <= loads; run += 1) {
      for (const [index, pages] of pagesOf.entries()) {
        for (const page of pages) {
          const key = `${page.name} ${String(index + 1)}`;
          const { load, trace } = await traceLoad(browser, page.url);
          (results.get(key) ?? results.set(key, []).get(key))?.push(load);
          say(
            `${new Date().toISOString().slice(11, 19)} ${page.name} build ${String(index + 1)} ` +
              `load ${String(run)}: cpu ${load.cpuBlockingMs.toFixed(0)} ms, ` +
              `wall ${load.wallBlockingMs.toFixed(0)} ms, ${String(load.tasks.length)} long`,
          );
          if (values.detail) {
            for (const task of load.tasks) {
              say(
                `  task at FCP+${task.at.toFixed(0)} ms: cpu ${task.cpuMs.toFixed(1)} ms, ` +
                  `wall ${task.wallMs.toFixed(1)} ms; ` +
                  task.work.map((w) => `${w.name} ${w.ms.toFixed(1)}`).join(', '),
              );
              for (const fn of task.functions)
                say(`      ${fn.ms.toFixed(1).padStart(6)} ${fn.name}`);
            }
          }
          if (values.save !== undefined) {
            fs.mkdirSync(values.save, { recursive: true });
            const file = `${page.name}-build${String(index + 1)}-${String(run)}.json`;
            fs.writeFileSync(path.join(values.save, file), trace);
          }
        }
      }
    }
    say(
      `\n${String(os.availableParallelism())} cores, load average ` +
        `${os.loadavg()[0]?.toFixed(1) ?? '?'}; blocking time as 4× each task's time over 50 ms`,
    );
    say('page   build  cpu ms (each load)                 median  wall ms median');
    for (const [key, list] of results) {
      const cpu = list.map((load) => load.cpuBlockingMs);
      say(
        [
          key.padEnd(13),
          cpu
            .map((ms) => ms.toFixed(0))
            .join(', ')
            .padEnd(34),
          median(cpu).toFixed(0).padStart(6),
          median(list.map((load) => load.wallBlockingMs))
            .toFixed(0)
            .padStart(15),
        ].join(' '),
      );
    }
  } finally {
    await browser.close();
    for (const site of sites) site.stop();
    if (built) for (const dir of webDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
