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
 * thread of the reading (Tesseract's, libuv's, libvips') below the server.
 *
 * On Linux the child runs under SCHED_IDLE (`chrt --idle 0`): it gets a core only when nothing
 * else wants it, and a request's thread that wakes up takes the core back at once. Nice 19
 * alone was not enough: measured with bench:ocr, the scheduler let a niced reading finish its
 * time slice before a woken request ran, and the gallery's p99 rose 1.55–1.72×. Nice 19 is
 * also set, for systems without chrt.
 *
 * One child reads one photo at a time; it starts with the first photo, ends after idleMs
 * without work (its OCR model and heaps hold 210–235 MB), and is replaced if it dies.
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
}

export interface ReaderProcess extends PhotoReader {
  /** The child's process id while one runs (for diagnostics and tests). */
  pid(): number | undefined;
}

const DEFAULTS = { cpuBudgetMs: 120_000, timeoutMs: 15 * 60_000, idleMs: 60_000 };
/** The nicest priority (Unix nice 19; the "idle" class on Windows). */
const LOWEST_PRIORITY = os.constants.priority.PRIORITY_LOW;
/** How long a child may take to finish after its channel is closed before it is killed. */
const STOP_GRACE_MS = 5_000;

interface Child {
  process: ChildProcess;
  /** The photo in hand: settled by its reply, or rejected when the child ends first. */
  pending?: { id: number; resolve(reading: PhotoReading): void; reject(error: Error): void };
  exited: Promise<void>;
}

export function createReaderProcess(options: ReaderProcessOptions = {}): ReaderProcess {
  const { cpuBudgetMs, timeoutMs, idleMs } = { ...DEFAULTS, ...options };
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
      const settle = () => {
        clearTimeout(timer);
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
