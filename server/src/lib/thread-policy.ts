import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { findCommand } from './commands.js';

/*
 * Issue 8, goal 5 (docs/PERFORMANCE.md, "Goal 5: the views' thread out of the way"): a thread
 * that sleeps and is woken often, such as the views' thread, woken by each message of views,
 * is favoured by Linux's scheduler when it wakes, and pre-empts the thread that woke it, here
 * the server's event loop, which then waits for a core with requests in hand. SCHED_BATCH
 * tells the scheduler the thread's work is not urgent: it keeps its fair share of the CPU and
 * its nice value, but does not pre-empt others on waking. Unlike SCHED_IDLE (the reading
 * process, jobs/image-analysis/reader-process.ts) it is never starved, which matters for a
 * thread that holds SQLite's write lock while it writes a batch.
 *
 * Linux keeps a policy per thread, and Node gives no call for it: `chrt --batch -p 0 <tid>`
 * sets it (lowering a policy needs no privilege), the calling thread's id read from
 * /proc/thread-self. Elsewhere, or without chrt, nothing changes.
 */

/** Puts the calling thread under SCHED_BATCH; whether it could. Synchronous: a few ms, once. */
export function runThisThreadAsBatch(): boolean {
  if (process.platform !== 'linux') return false;
  const chrt = findCommand('chrt');
  if (chrt === undefined) return false;
  try {
    // '<pid>/task/<tid>'
    const tid = fs.readlinkSync('/proc/thread-self').split('/').at(-1) ?? '';
    if (!/^\d+$/.test(tid)) return false;
    execFileSync(chrt, ['--batch', '-p', '0', tid], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}
