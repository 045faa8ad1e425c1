import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/database.js';
import type { BufferLog } from './view-buffer.js';
import { createViewRecorder, type ViewOutcome } from './view-recorder.js';
import type { ThreadMessage, ThreadReply, ViewThreadData } from './view-thread.js';

/*
 * The views' thread (view-thread.ts): D5's check and the batched writes of views, on a
 * connection of its own. Messages come in arrays, one per turn of the server's event loop;
 * views are checked concurrently, while a flush or a close waits for every view sent before it.
 */

if (parentPort === null) throw new Error("view-worker.ts runs only as the views' thread");
const port = parentPort;
const data = workerData as ViewThreadData;
const database = openDatabase(data.database, { secondary: true });

// Replies go back like the views came: every reply of one turn of this thread's loop together.
let replies: ThreadReply[] = [];
const sendReplies = () => {
  if (replies.length === 0) return;
  const sent = replies;
  replies = [];
  port.postMessage(sent);
};
const reply = (message: ThreadReply) => {
  replies.push(message);
  if (replies.length === 1) setImmediate(sendReplies);
};

const log: BufferLog = {
  error(details, message) {
    const err = details.err instanceof Error ? details.err : new Error(String(details.err));
    reply({ type: 'log', message, views: details.views, error: err.message });
  },
};
const recorder = createViewRecorder(database.db, log, data.flushMs);

/** The views being checked: a flush or a close waits for them. */
const checking = new Set<Promise<unknown>>();

function failure(error: unknown): { message: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

async function settle(id: number, work: () => Promise<ViewOutcome | undefined>): Promise<void> {
  try {
    const outcome = await work();
    reply({ type: 'done', id, ...(outcome === undefined ? {} : { outcome }) });
  } catch (error) {
    reply({ type: 'failed', id, error: failure(error) });
  }
}

async function handle(message: ThreadMessage): Promise<void> {
  switch (message.type) {
    case 'record': {
      const work = settle(message.id, () => recorder.record(message.view));
      checking.add(work);
      void work.finally(() => checking.delete(work));
      return;
    }
    case 'flush':
      await Promise.all(checking);
      await settle(message.id, async () => {
        await recorder.flush();
        return undefined;
      });
      return;
    case 'close':
      await Promise.all(checking);
      await settle(message.id, async () => {
        await recorder.close();
        await database.close();
        return undefined;
      });
      // The close's own reply goes now: nothing runs after the port closes.
      sendReplies();
      port.close();
      return;
  }
}

// One message at a time, so a flush or a close never overtakes the views sent before it.
let queue: Promise<void> = Promise.resolve();
port.on('message', (messages: ThreadMessage[]) => {
  queue = queue.then(async () => {
    for (const message of messages) await handle(message);
  });
});
