import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PhotoReader, PhotoReading } from './reader.js';
import { CPU_BUDGET_ENV, isReadReply, type ReadRequest } from './reader-protocol.js';

/*
 * Photos are read in a child process at the lowest CPU priority (issue 8, goal 7: an OCR
 * backlog must not slow browsing). A worker thread would not do: the OCR's sharp work runs on
 * libuv's thread pool, which the whole process shares with the requests, and Linux keeps a
 * scheduling policy and a nice value per thread, so only a process started that way has every
 * thread of the reading (ONNX Runtime's, libuv's, libvips') below the server.
 *
 * On Linux the child runs under SCHED_IDLE (`chrt --idle 0`): it gets a core only when nothing
 * else wants it, and a request's thread that wakes up takes the core back at once. Nice 19
 * alone was not enough: measured with bench:ocr, the scheduler let a niced reading finish its
 * time slice before a woken request ran, and the gallery's p99 rose 1.55–1.72×. Nice 19 is
 * also set, for systems without chrt.
 *
 * One child reads one photo at a time; it starts with the first photo, ends after idleMs
 * without work (its OCR networks and heaps hold about 300 MB), and is replaced if it dies.
 *
 * The idle priority still left the gallery's p99 1.19–1.30× the idle one when requests kept
 * the server's event loop busy (bench:ocr at saturation): a reading scheduled into every gap
 * between requests evicts their caches and delays their wake-ups. So while a photo is read,
 * the event loop's utilisation is sampled every 100 ms, and the child is stopped (SIGSTOP)
 * while it is above 0.7 and continued (SIGCONT) once it falls under 0.5: the reading waits for
 * the server to breathe. Its CPU budget is CPU time, so a paused reading does not use it up.
 */

export interface ReaderProcessOptions {
  /**
   * CPU time (all of the child's threads) one photo may take before the child is ended and the
   * read fails (default 120 s; a photo takes 1–10 s). CPU time rather than wall-clock time: at
   * the lowest priority a reading may wait for minutes while the server is busy.
   */
  cpuBudgetMs?: number;
  /** Wall-clock limit for one photo, for a child that hangs without using CPU (default 15 min). */
  timeoutMs?: number;
  /** The child ends after this long without a photo (default 60 s). */
  idleMs?: number;
  /**
   * Whether the reading should pause and whether it may go on, asked every `pauseCheckMs`
   * (default 100 ms) while a photo is read; the default follows the server's event loop
   * (`eventLoopLoad`).
   */
  load?: LoadSignal;
  pauseCheckMs?: number;
}

/** What decides whether the reading pauses: asked at every check. */
export interface LoadSignal {
  /** 'busy': pause the reading; 'quiet': let it go on; 'same': leave it as it is. */
  sample(): 'busy' | 'quiet' | 'same';
}

/** Above this share of the last interval the event loop was busy, the reading pauses. */
const PAUSE_ABOVE = 0.7;
/** ...and it goes on once the share falls under this. */
const RESUME_BELOW = 0.5;

/** The server's event loop: busy above 70 % of the last interval, quiet under 50 %. */
export function eventLoopLoad(): LoadSignal {
  let last = performance.eventLoopUtilization();
  return {
    sample() {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      if (utilization > PAUSE_ABOVE) return 'busy';
      return utilization < RESUME_BELOW ? 'quiet' : 'same';
    },
  };
}

export interface ReaderProcess extends PhotoReader {
  /** The child's process id while one runs (for diagnostics and tests). */
  pid(): number | undefined;
}

const DEFAULTS = {
  cpuBudgetMs: 120_000,
  timeoutMs: 15 * 60_000,
  idleMs: 60_000,
  pauseCheckMs: 100,
};
/** Stopping a process is a Unix signal; elsewhere the reading is never paused. */
const CAN_PAUSE = process.platform !== 'win32';
/** The nicest priority (Unix nice 19; the "idle" class on Windows). */
const LOWEST_PRIORITY = os.constants.priority.PRIORITY_LOW;
/** How long a child may take to finish after its channel is closed before it is killed. */
const STOP_GRACE_MS = 5_000;

interface Child {
  process: ChildProcess;
  /** The photo in hand: settled by its reply, or rejected when the child ends first. */
  pending?: { id: number; resolve(reading: PhotoReading): void; reject(error: Error): void };
  exited: Promise<void>;
  /** Stopped by SIGSTOP while the server is busy. */
  paused: boolean;
}

export function createReaderProcess(options: ReaderProcessOptions = {}): ReaderProcess {
  const { cpuBudgetMs, timeoutMs, idleMs, pauseCheckMs } = { ...DEFAULTS, ...options };
  const load = options.load ?? eventLoopLoad();
  let child: Child | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  function startChild(): Child {
    const { command, args } = childCommand();
    const proc = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, [CPU_BUDGET_ENV]: String(cpuBudgetMs) },
    });
    if (command === process.execPath && proc.pid !== undefined) {
      // No `nice` to start it with (Windows): lower it now. On Linux this would only reach the
      // threads it starts from here on, hence `nice`.
      try {
        os.setPriority(proc.pid, LOWEST_PRIORITY);
      } catch {
        // Not allowed here: the reading still works, at normal priority.
      }
    }
    let markExited: () => void = () => undefined;
    const current: Child = {
      process: proc,
      exited: new Promise((resolve) => {
        markExited = resolve;
      }),
      paused: false,
    };
    const fail = (error: Error): void => {
      const pending = current.pending;
      current.pending = undefined;
      pending?.reject(error);
    };
    proc.on('message', (message: unknown) => {
      const pending = current.pending;
      if (!isReadReply(message) || pending === undefined || message.id !== pending.id) return;
      current.pending = undefined;
      if (message.ok) pending.resolve(message.reading);
      else pending.reject(new Error(message.message));
    });
    proc.on('error', (error) => {
      if (child === current) child = undefined;
      fail(error);
      markExited();
    });
    proc.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      fail(new Error(`the reading process ended (${signal ?? `exit code ${String(code)}`})`));
      markExited();
    });
    return current;
  }

  function readNow(image: Buffer): Promise<PhotoReading> {
    clearTimeout(idleTimer);
    child ??= startChild();
    const current = child;
    const id = nextId;
    nextId += 1;
    return new Promise<PhotoReading>((resolve, reject) => {
      const timer = setTimeout(() => {
        current.pending = undefined;
        if (child === current) child = undefined;
        current.process.kill('SIGKILL');
        reject(new Error(`the reading took longer than ${String(timeoutMs)} ms`));
      }, timeoutMs);
      // Paused while the server is busy, for as long as this photo is in hand. The signal is
      // sampled once first: its last sample may be minutes old, and the first check would
      // then average the server's load over all that idle time and let a starting child run.
      if (CAN_PAUSE) load.sample();
      const pacer = CAN_PAUSE
        ? setInterval(() => {
            const state = load.sample();
            if (state === 'busy' && !current.paused) setPaused(current, true);
            else if (state === 'quiet' && current.paused) setPaused(current, false);
          }, pauseCheckMs)
        : undefined;
      const settle = () => {
        clearTimeout(timer);
        clearInterval(pacer);
        setPaused(current, false);
      };
      current.pending = {
        id,
        resolve: (reading) => {
          settle();
          resolve(reading);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const request: ReadRequest = { id, image };
      current.process.send(request, (error) => {
        if (error !== null) current.pending?.reject(error);
      });
    });
  }

  async function stopChild(): Promise<void> {
    const current = child;
    child = undefined;
    if (current === undefined) return;
    // A stopped process cannot see its channel close.
    setPaused(current, false);
    if (current.process.connected) current.process.disconnect();
    const grace = setTimeout(() => current.process.kill('SIGKILL'), STOP_GRACE_MS);
    await current.exited;
    clearTimeout(grace);
  }

  return {
    read(image) {
      waiting += 1;
      const result = queue.then(() => readNow(image));
      queue = result
        .catch(() => undefined)
        .finally(() => {
          waiting -= 1;
          if (waiting === 0) {
            clearTimeout(idleTimer);
            idleTimer = setTimeout(() => void stopChild(), idleMs);
            idleTimer.unref();
          }
        });
      return result;
    },
    async terminate() {
      await queue;
      clearTimeout(idleTimer);
      await stopChild();
    },
    pid: () => child?.process.pid,
  };
}

/** Stops or continues the child; one that has already ended is left alone. */
function setPaused(child: Child, paused: boolean): void {
  if (child.paused === paused) return;
  child.paused = paused;
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  try {
    child.process.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  } catch {
    // Gone meanwhile: its exit settles the photo.
  }
}

/**
 * How to start the child: the built reader-child.js with Node, or, when the server itself runs
 * from TypeScript (tsx, vitest), reader-child.ts through tsx's loader; under `chrt --idle` and
 * `nice` where they exist.
 */
function childCommand(): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  const entry = path.join(path.dirname(here), `reader-child.${fromSource ? 'ts' : 'js'}`);
  const node = [
    process.execPath,
    ...(fromSource
      ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
      : []),
    entry,
  ];
  const nice = findCommand('nice');
  const chrt = process.platform === 'linux' ? findCommand('chrt') : undefined;
  const command = [
    ...(chrt === undefined ? [] : [chrt, '--idle', '0']),
    ...(nice === undefined ? [] : [nice, '-n', String(LOWEST_PRIORITY)]),
    ...node,
  ];
  return { command: command[0] ?? process.execPath, args: command.slice(1) };
}

const commands = new Map<string, string | undefined>();

/** The path of an executable on PATH, or undefined (never on Windows, which has neither). */
function findCommand(name: string): string | undefined {
  if (!commands.has(name)) {
    let found: string | undefined;
    if (process.platform !== 'win32') {
      for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
        const candidate = path.join(dir, name);
        try {
          fs.accessSync(candidate, fs.constants.X_OK);
          found = candidate;
          break;
        } catch {
          // Not in this directory.
        }
      }
    }
    commands.set(name, found);
  }
  return commands.get(name);
}
