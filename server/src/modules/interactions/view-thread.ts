import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../../config.js';
import type { ViewOutcome, ViewRecorder, ViewRequest } from './view-recorder.js';

/*
 * Issue 8, goal 5: views are the busiest write, and each used to cost the event loop that
 * answers every read about 100 µs beyond the request itself: D5's check (a query) and its share
 * of the batched writes. Measured on views alone (100k images, SQLite, CPU per answer): 147 µs
 * in all, 96 µs without the check, 36 µs without the check and the writes. So a thread of the
 * server's own, with a connection of its own, checks and writes the views (view-worker.ts); the
 * event loop only works out the viewer's key and passes the view on, in one message per turn
 * of the loop for all the views that arrived in it.
 *
 * The thread starts with the first view, so a process that records none (the stand-alone job
 * worker) never starts it. Should it fail (it never should), the views waiting in it are lost,
 * as in a crash, and the server records views on its own connection from then on, the way it
 * did before the thread: the views in flight are checked again there.
 */

export interface ViewThreadData {
  database: DatabaseConfig;
  flushMs: number;
}

export type ThreadMessage =
  | { type: 'record'; id: number; view: ViewRequest }
  | { type: 'flush'; id: number }
  | { type: 'close'; id: number };

export type ThreadReply =
  | { type: 'done'; id: number; outcome?: ViewOutcome }
  | { type: 'failed'; id: number; error: { message: string; code?: string } }
  | { type: 'log'; message: string; views: number; error: string };

interface ThreadLog {
  error(details: object, message: string): void;
}

interface Call {
  message: ThreadMessage;
  resolve: (reply: ViewOutcome | undefined) => void;
  reject: (error: Error) => void;
}

export interface ViewThreadOptions extends ViewThreadData {
  log: ThreadLog;
  /** The recorder on the server's own connection, made only if the thread fails. */
  fallback: () => ViewRecorder;
}

export function startViewThread(options: ViewThreadOptions): ViewRecorder {
  const { log } = options;
  let worker: Worker | undefined;
  let fallback: ViewRecorder | undefined;
  let closed = false;
  let nextId = 1;
  const calls = new Map<number, Call>();
  let outbox: ThreadMessage[] = [];

  function start(): Worker {
    const started = spawn({ database: options.database, flushMs: options.flushMs });
    started.on('message', (replies: ThreadReply[]) => {
      for (const reply of replies) answer(started, reply);
    });
    started.on('error', (error) => fail(started, error));
    started.on('exit', (code) => {
      if (!closed) {
        fail(started, new Error(`the views' thread stopped (exit code ${String(code)})`));
        return;
      }
      // Stopped while closing: nothing more will answer.
      for (const call of calls.values()) call.reject(new Error("the views' thread stopped"));
      calls.clear();
    });
    started.unref();
    return started;
  }

  function answer(from: Worker, reply: ThreadReply): void {
    if (reply.type === 'log') {
      log.error({ err: new Error(reply.error), views: reply.views }, reply.message);
      return;
    }
    const call = calls.get(reply.id);
    if (call === undefined) return;
    calls.delete(reply.id);
    if (calls.size === 0) from.unref();
    if (reply.type === 'done') call.resolve(reply.outcome);
    else call.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
  }

  /** From now on the server's own connection records the views; those in flight go there. */
  function fail(failed: Worker, error: Error): void {
    if (worker !== failed) return;
    worker = undefined;
    log.error(
      { err: error },
      "the views' thread failed; views are recorded on the server's connection",
    );
    fallback ??= options.fallback();
    const orphans = [...calls.values()];
    calls.clear();
    outbox = [];
    for (const call of orphans) runOnFallback(call);
  }

  function runOnFallback(call: Call): void {
    const recorder = fallback ?? (fallback = options.fallback());
    const { message } = call;
    const work =
      message.type === 'record'
        ? recorder.record(message.view)
        : (message.type === 'flush' ? recorder.flush() : recorder.close()).then(() => undefined);
    work.then(
      (outcome) => call.resolve(outcome),
      (error: unknown) => call.reject(error instanceof Error ? error : new Error(String(error))),
    );
  }

  function post(): void {
    const messages = outbox;
    outbox = [];
    if (messages.length > 0) worker?.postMessage(messages);
  }

  function send(message: ThreadMessage): Promise<ViewOutcome | undefined> {
    return new Promise((resolve, reject) => {
      const call: Call = { message, resolve, reject };
      if (fallback !== undefined) {
        runOnFallback(call);
        return;
      }
      worker ??= start();
      calls.set(message.id, call);
      worker.ref();
      outbox.push(message);
      // Every view of this turn of the event loop in one message.
      if (outbox.length === 1) setImmediate(post);
    });
  }

  return {
    async record(view) {
      if (closed) throw new Error("the views' thread is closed");
      const outcome = await send({ type: 'record', id: nextId++, view });
      if (outcome === undefined) throw new Error("the views' thread answered no outcome");
      return outcome;
    },
    async flush() {
      if (worker === undefined && fallback === undefined) return;
      await send({ type: 'flush', id: nextId++ });
    },
    async close() {
      if (closed) return;
      if (worker === undefined) {
        closed = true;
        await fallback?.close();
        return;
      }
      const running = worker;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      closed = true;
      await send({ type: 'close', id: nextId++ });
      await exited;
      // The thread failed while closing: the fallback took the close over.
      await fallback?.close();
    },
  };
}

/**
 * The built view-worker.js, or, when the server itself runs from TypeScript (tsx, vitest),
 * view-worker.ts through tsx's own import: a worker thread does not inherit the loader.
 */
function spawn(data: ViewThreadData): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./view-worker.js', import.meta.url), { workerData: data });
  }
  // tsx's ESM entry sits next to the CommonJS one that require resolves.
  const api = pathToFileURL(
    path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs'),
  ).href;
  const entry = new URL('./view-worker.ts', import.meta.url).href;
  const source = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return new Worker(source, { eval: true, workerData: data });
}
