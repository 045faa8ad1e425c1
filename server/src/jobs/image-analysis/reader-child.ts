import { createOcrEngine } from './ocr.js';
import { readerOf } from './reader.js';
import {
  CPU_BUDGET_ENV,
  isReadRequest,
  type ReadReply,
  type ReadRequest,
} from './reader-protocol.js';

/*
 * The process that reads photos for the server (reader-process.ts starts it, at the lowest CPU
 * priority, with an IPC channel). It reads one photo at a time, the order they come in, and
 * ends when the server closes the channel.
 */

const send = process.send?.bind(process);
if (send === undefined) {
  process.stderr.write('reader-child: start me through reader-process.ts (no IPC channel)\n');
  process.exit(2);
}

/** Exit code when a photo took more CPU time than its budget. */
const OVER_BUDGET_EXIT = 3;
const budgetMs = Number(process.env[CPU_BUDGET_ENV]);
/** How often the budget is checked: every second, or more often for a budget of seconds. */
const checkMs = Math.min(1000, Math.max(10, budgetMs / 10));
// At the lowest priority a reading may wait minutes for a busy server, which is the point: there
// is no wall-clock limit here. The CPU budget below catches a reading that runs away.
const reader = readerOf(createOcrEngine());
let queue: Promise<void> = Promise.resolve();

process.on('message', (message: unknown) => {
  if (!isReadRequest(message)) {
    process.stderr.write('reader-child: ignored a message that is not a read request\n');
    return;
  }
  queue = queue.then(() => readOne(message));
});

process.on('disconnect', () => {
  void queue
    .then(() => reader.terminate())
    .finally(() => {
      process.exit(0);
    });
});

async function readOne(request: ReadRequest): Promise<void> {
  const started = process.cpuUsage();
  // process.cpuUsage counts every thread of this process, ONNX Runtime's and sharp's included.
  const watchdog = Number.isFinite(budgetMs)
    ? setInterval(() => {
        const used = process.cpuUsage(started);
        if ((used.user + used.system) / 1000 <= budgetMs) return;
        clearInterval(watchdog);
        // Ending the process is the one sure way to stop an inference mid-run.
        void reply({
          id: request.id,
          ok: false,
          message: `reading took over ${String(budgetMs)} ms of CPU`,
        }).finally(() => process.exit(OVER_BUDGET_EXIT));
      }, checkMs)
    : undefined;
  try {
    const image = Buffer.from(request.image.buffer, request.image.byteOffset, request.image.length);
    await reply({ id: request.id, ok: true, reading: await reader.read(image) });
  } catch (error) {
    await reply({
      id: request.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    clearInterval(watchdog);
  }
}

function reply(message: ReadReply): Promise<void> {
  return new Promise((resolve) => {
    // A failed send means the server is gone; 'disconnect' then ends this process.
    send?.(message, undefined, undefined, () => {
      resolve();
    });
  });
}
