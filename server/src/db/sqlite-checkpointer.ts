import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/*
 * In WAL mode SQLite copies the log back into the database file ("checkpoint") from inside
 * whichever commit pushes the log past 1,000 pages, fsyncs included. With better-sqlite3 that
 * commit runs on the event loop: measured under 1,000 views a second (issue 8, goal 5), one
 * commit in four took 15–25 ms, every request waiting behind it. So the server's connection
 * never checkpoints (wal_autocheckpoint = 0) and a worker thread with a connection of its own
 * runs PASSIVE checkpoints every second: they copy what no reader still needs and never block
 * readers or the writer. The last connection to close checkpoints whatever is left, as SQLite
 * always does, so a clean stop leaves no log behind.
 */

const require = createRequire(import.meta.url);
const EVERY_MS = 1_000;

/** Runs in the worker: plain CommonJS, so it needs no build step under any runner. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, result });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error) });
  }
});
`;

export interface CheckpointResult {
  /** 1 when another connection held a lock the checkpoint needed (it did what it could). */
  busy: number;
  /** Frames in the log. */
  log: number;
  /** Frames copied into the database file. */
  checkpointed: number;
}

export interface Checkpointer {
  /** Asks for a checkpoint now and resolves with what it did. */
  checkpoint(): Promise<CheckpointResult>;
  stop(): Promise<void>;
}

type Reply = { ok: true; result: CheckpointResult } | { ok: false; error: string };

export function startCheckpointer(sqlite: SQLite.Database, file: string): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: require.resolve('better-sqlite3'), file },
  });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');

  const waiting: Array<(reply: Reply) => void> = [];
  let alive = true;
  const stopped = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (reply: Reply) => waiting.shift()?.(reply));
  worker.on('error', () => {
    // The thread could not run (it never should): the server's connection checkpoints again.
    alive = false;
    sqlite.pragma('wal_autocheckpoint = 1000');
    for (const answer of waiting.splice(0)) answer({ ok: false, error: 'checkpointer stopped' });
  });

  function checkpoint(): Promise<CheckpointResult> {
    if (!alive) return Promise.reject(new Error('checkpointer stopped'));
    return new Promise((resolve, reject) => {
      waiting.push((reply) => {
        if (reply.ok) resolve(reply.result);
        else reject(new Error(reply.error));
      });
      worker.postMessage('checkpoint');
    });
  }

  const timer = setInterval(() => {
    // One at a time: a slow disk must not pile requests up in the worker's queue.
    if (alive && waiting.length === 0) checkpoint().catch(() => undefined);
  }, EVERY_MS).unref();

  return {
    checkpoint,
    async stop() {
      clearInterval(timer);
      if (!alive) return;
      alive = false;
      // Held while it closes: an unreferenced thread would let a process with nothing else to
      // do exit before the connection is closed.
      worker.ref();
      worker.postMessage('close');
      await stopped;
    },
  };
}
