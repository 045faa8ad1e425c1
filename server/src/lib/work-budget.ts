/**
 * A limiter that admits tasks by their number and by the memory they are expected to take:
 * at most `slots` tasks at once, and together at most `bytes` (estimated by the caller). A
 * task that alone costs more than `bytes` runs alone, when nothing else runs, rather than never.
 * Tasks are admitted in the order they came (a large one at the head waits for room and the
 * small ones behind it wait with it), so a large task is never passed over for ever.
 */
export interface WorkBudget {
  run<T>(cost: number, task: () => Promise<T>): Promise<T>;
  /** What runs and waits now, for tests and measurements. */
  state(): { running: number; usedBytes: number; queued: number };
}

export function createWorkBudget(limits: { slots: number; bytes: number }): WorkBudget {
  const queue: Array<{ cost: number; start: () => void }> = [];
  let running = 0;
  let usedBytes = 0;

  const admit = () => {
    for (;;) {
      const next = queue[0];
      if (next === undefined || running >= limits.slots) return;
      if (running > 0 && usedBytes + next.cost > limits.bytes) return;
      queue.shift();
      running += 1;
      usedBytes += next.cost;
      next.start();
    }
  };

  return {
    run<T>(cost: number, task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          cost,
          start: () => {
            // A task that throws before its first await is settled like one that rejects.
            Promise.resolve()
              .then(task)
              .then(resolve, reject)
              .finally(() => {
                running -= 1;
                usedBytes -= cost;
                admit();
              });
          },
        });
        admit();
      });
    },
    state: () => ({ running, usedBytes, queued: queue.length }),
  };
}
