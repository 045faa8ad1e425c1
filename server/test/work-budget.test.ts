import { describe, expect, it } from 'vitest';
import { createWorkBudget } from '../src/lib/work-budget.js';

/*
 * The limiter image work runs through (lib/imaging.ts): by count and by estimated memory. Each
 * task here is held open until the test lets it finish, so what runs at once is observable.
 */

function held() {
  let finish: (value: string) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { done, finish, fail };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createWorkBudget', () => {
  it('runs tasks side by side while they fit, and queues the one that does not', async () => {
    const budget = createWorkBudget({ slots: 2, bytes: 100 });
    const started: string[] = [];
    const tasks = { a: held(), b: held(), c: held() };
    const run = (name: keyof typeof tasks, cost: number) =>
      budget.run(cost, () => {
        started.push(name);
        return tasks[name].done;
      });

    const a = run('a', 60);
    const b = run('b', 50); // 60 + 50 > 100: waits although a slot is free
    const c = run('c', 10); // behind b: never passes it
    await settle();
    expect(started).toEqual(['a']);
    expect(budget.state()).toEqual({ running: 1, usedBytes: 60, queued: 2 });

    tasks.a.finish('a done');
    await expect(a).resolves.toBe('a done');
    await settle();
    // b and c together fit (60) in two slots.
    expect(started).toEqual(['a', 'b', 'c']);
    expect(budget.state()).toEqual({ running: 2, usedBytes: 60, queued: 0 });
    tasks.b.finish('b done');
    tasks.c.finish('c done');
    await expect(Promise.all([b, c])).resolves.toEqual(['b done', 'c done']);
    expect(budget.state()).toEqual({ running: 0, usedBytes: 0, queued: 0 });
  });

  it('holds to the number of slots even when the memory would allow more', async () => {
    const budget = createWorkBudget({ slots: 2, bytes: 1000 });
    const tasks = [held(), held(), held()];
    let running = 0;
    let most = 0;
    const results = tasks.map((task) =>
      budget.run(1, async () => {
        running += 1;
        most = Math.max(most, running);
        try {
          return await task.done;
        } finally {
          running -= 1;
        }
      }),
    );
    await settle();
    expect(budget.state()).toMatchObject({ running: 2, queued: 1 });
    for (const task of tasks) task.finish('ok');
    await Promise.all(results);
    expect(most).toBe(2);
  });

  it('runs a task larger than the whole budget alone, once nothing else runs', async () => {
    const budget = createWorkBudget({ slots: 2, bytes: 100 });
    const small = held();
    const large = held();
    const started: string[] = [];
    const first = budget.run(10, () => {
      started.push('small');
      return small.done;
    });
    const second = budget.run(500, () => {
      started.push('large');
      return large.done;
    });
    await settle();
    expect(started).toEqual(['small']);
    small.finish('small');
    await first;
    await settle();
    expect(started).toEqual(['small', 'large']);
    expect(budget.state()).toEqual({ running: 1, usedBytes: 500, queued: 0 });
    large.finish('large');
    await expect(second).resolves.toBe('large');
  });

  it('gives the room back when a task fails or throws', async () => {
    const budget = createWorkBudget({ slots: 1, bytes: 100 });
    const failing = held();
    const failed = budget.run(100, () => failing.done);
    const thrown = budget.run(100, () => {
      throw new Error('at once');
    });
    const after = budget.run(100, () => Promise.resolve('after'));
    failing.fail(new Error('later'));
    await expect(failed).rejects.toThrow('later');
    await expect(thrown).rejects.toThrow('at once');
    await expect(after).resolves.toBe('after');
    expect(budget.state()).toEqual({ running: 0, usedBytes: 0, queued: 0 });
  });
});
