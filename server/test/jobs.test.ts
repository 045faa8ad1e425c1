import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { JobRow } from '../src/jobs/jobs.repository.js';
import {
  claimJob,
  completeJob,
  enqueue,
  failJob,
  pruneDoneJobs,
  retryDelayMs,
} from '../src/jobs/queue.js';
import {
  createWorker,
  defineJob,
  enqueueJob,
  PermanentJobError,
  type AnyJobDefinition,
  type JobLogger,
  type WorkerOptions,
} from '../src/jobs/worker.js';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from './helpers/database.js';

/*
 * The queue and the worker on a real database of the engine under test. The database is
 * opened directly rather than through buildTestApp: these tests drive their own workers and a
 * clock they move, and must not share the queue with a worker the application may run.
 */

let dataDir: string;
let testDatabase: TestDatabase;
let database: DatabaseHandle;
const otherHandles: DatabaseHandle[] = [];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-jobs-'));
  testDatabase = await createTestDatabase(dataDir);
  database = openDatabase(testDatabase.config);
  await migrateToLatest(database.db);
});

afterAll(async () => {
  for (const handle of otherHandles) await handle.close();
  await database.close();
  await testDatabase.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.db.deleteFrom('jobs').execute();
});

/** A clock the test moves by hand. */
function testClock(start = '2026-12-01T10:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

interface LogLine {
  level: string;
  fields: object;
  msg: string;
}

function testLogger(): JobLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (fields: object, msg: string) => {
    lines.push({ level, fields, msg });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function worker(handlers: AnyJobDefinition[], options: Partial<WorkerOptions> = {}) {
  return createWorker({
    database,
    clock: testClock(),
    log: testLogger(),
    handlers,
    pollIntervalMs: 20,
    pruneIntervalMs: 0,
    ...options,
  });
}

function job(id: number): Promise<JobRow> {
  return database.db
    .selectFrom('jobs')
    .selectAll()
    .where('id_job', '=', id)
    .executeTakeFirstOrThrow();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('job queue', () => {
  it('runs an enqueued job once and marks it done', async () => {
    const clock = testClock();
    const seen: unknown[] = [];
    const echo = defineJob<{ text: string; n: number }>({
      name: 'test.echo',
      maxAttempts: 3,
      async run(payload, ctx) {
        seen.push({ payload, attempt: ctx.job.attempt, maxAttempts: ctx.job.maxAttempts });
      },
    });
    const id = await enqueueJob(database.db, clock, echo, { text: 'ciao', n: 1 });
    expect(await job(id)).toMatchObject({
      name: 'test.echo',
      status: 'queued',
      attempts: 0,
      max_attempts: 3,
      payload: JSON.stringify({ text: 'ciao', n: 1 }),
      run_at: '2026-12-01T10:00:00.000Z',
      created_at: '2026-12-01T10:00:00.000Z',
    });

    const w = worker([echo], { clock });
    expect(await w.runUntilIdle()).toBe(1);
    expect(seen).toEqual([{ payload: { text: 'ciao', n: 1 }, attempt: 1, maxAttempts: 3 }]);
    expect(await job(id)).toMatchObject({
      status: 'done',
      attempts: 1,
      locked_at: null,
      locked_by: null,
      last_error: null,
    });
    expect(await w.runUntilIdle()).toBe(0);
  });

  it('enqueues inside a transaction: a rollback leaves no job', async () => {
    const clock = testClock();
    await database.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, clock, 'test.tx', { a: 1 });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await database.db.transaction().execute(async (trx) => {
      await enqueue(trx, clock, 'test.tx', { a: 2 });
    });
    const rows = await database.db.selectFrom('jobs').select('payload').execute();
    expect(rows).toEqual([{ payload: '{"a":2}' }]);
  });

  it('does not run a job before its run_at, nor jobs it has no handler for', async () => {
    const clock = testClock();
    let runs = 0;
    const later = defineJob<null>({
      name: 'test.later',
      maxAttempts: 1,
      async run() {
        runs += 1;
      },
    });
    const id = await enqueue(database.db, clock, 'test.later', null, {
      runAt: new Date(clock.now().getTime() + 60_000),
    });
    const unknown = await enqueue(database.db, clock, 'test.nobody-handles-this', {});
    const w = worker([later], { clock });
    expect(await w.runUntilIdle()).toBe(0);
    clock.advance(59_999);
    expect(await w.runUntilIdle()).toBe(0);
    clock.advance(1);
    expect(await w.runUntilIdle()).toBe(1);
    expect(runs).toBe(1);
    expect((await job(id)).status).toBe('done');
    expect((await job(unknown)).status).toBe('queued');
  });

  it('retries a failing job with exponential backoff, then fails it and calls onFailure', async () => {
    const clock = testClock();
    const attempts: number[] = [];
    const failures: Array<{ payload: unknown; message: string; attempt: number }> = [];
    const flaky = defineJob<{ id: number }>({
      name: 'test.flaky',
      maxAttempts: 3,
      async run(_payload, ctx) {
        attempts.push(ctx.job.attempt);
        throw new Error(`boom ${ctx.job.attempt}`);
      },
      async onFailure(payload, error, ctx) {
        failures.push({ payload, message: (error as Error).message, attempt: ctx.job.attempt });
      },
    });
    const id = await enqueueJob(database.db, clock, flaky, { id: 7 });
    const w = worker([flaky], { clock });
    const start = clock.now().getTime();

    expect(await w.runUntilIdle()).toBe(1);
    let row = await job(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, locked_by: null });
    expect(row.last_error).toContain('boom 1');
    expect(row.run_at).toBe(new Date(start + 5_000).toISOString());

    // Not due yet: nothing runs until the clock reaches the backoff.
    clock.advance(4_999);
    expect(await w.runUntilIdle()).toBe(0);
    clock.advance(1);
    expect(await w.runUntilIdle()).toBe(1);
    row = await job(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row.run_at).toBe(new Date(start + 5_000 + 20_000).toISOString());

    clock.advance(20_000);
    expect(await w.runUntilIdle()).toBe(1);
    row = await job(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, locked_at: null });
    expect(row.last_error).toContain('boom 3');
    expect(attempts).toEqual([1, 2, 3]);
    expect(failures).toEqual([{ payload: { id: 7 }, message: 'boom 3', attempt: 3 }]);

    clock.advance(24 * 3_600_000);
    expect(await w.runUntilIdle()).toBe(0);
  });

  it('grows the backoff by four each time, up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([
      5_000, 20_000, 80_000, 320_000, 1_280_000, 3_600_000, 3_600_000,
    ]);
  });

  it('honours a definition’s own backoff and fails at once on PermanentJobError', async () => {
    const clock = testClock();
    let failed = 0;
    const custom = defineJob<null>({
      name: 'test.custom-backoff',
      maxAttempts: 5,
      retryDelayMs: () => 1_000,
      async run() {
        throw new Error('again');
      },
    });
    const permanent = defineJob<null>({
      name: 'test.permanent',
      maxAttempts: 5,
      async run() {
        throw new PermanentJobError('cannot ever work');
      },
      onFailure() {
        failed += 1;
      },
    });
    const a = await enqueueJob(database.db, clock, custom, null);
    const b = await enqueueJob(database.db, clock, permanent, null);
    await worker([custom, permanent], { clock }).runUntilIdle();
    expect((await job(a)).run_at).toBe(new Date(clock.now().getTime() + 1_000).toISOString());
    expect(await job(b)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed).toBe(1);
  });

  it('runs again a job left running by a worker that died, once its lock is stale', async () => {
    const clock = testClock();
    let runs = 0;
    const task = defineJob<null>({
      name: 'test.crash',
      maxAttempts: 3,
      async run() {
        runs += 1;
      },
    });
    const id = await enqueueJob(database.db, clock, task, null);
    // A worker claims it and is killed (kill -9) before finishing: the row stays running.
    const claimed = await claimJob(database, clock, { workerId: 'dead', names: ['test.crash'] });
    expect(claimed).toMatchObject({ id_job: id, status: 'running', locked_by: 'dead' });

    const w = worker([task], { clock, workerId: 'fresh', staleLockMs: 60_000 });
    // The lock is still fresh: maybe its worker is alive and busy.
    expect(await w.runUntilIdle()).toBe(0);
    clock.advance(60_001);
    expect(await w.runUntilIdle()).toBe(1);
    expect(runs).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });

    // Had the dead worker come back and finished late, its result is dropped.
    expect(await completeJob(database.db, clock, claimed!, 'dead')).toBe(false);
    expect(await failJob(database.db, clock, claimed!, 'dead', new Error('late'))).toBe('lost');
    expect((await job(id)).status).toBe('done');
  });

  it('fails instead of rerunning a job whose worker died during its last attempt', async () => {
    const clock = testClock();
    let runs = 0;
    const failures: string[] = [];
    const poison = defineJob<null>({
      name: 'test.poison',
      maxAttempts: 1,
      async run() {
        runs += 1;
      },
      onFailure(_payload, error) {
        failures.push((error as Error).message);
      },
    });
    const id = await enqueueJob(database.db, clock, poison, null);
    await claimJob(database, clock, { workerId: 'dead', names: ['test.poison'] });
    clock.advance(10 * 60_000);
    expect(await worker([poison], { clock }).runUntilIdle()).toBe(1);
    expect(runs).toBe(0);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(failures).toEqual(['the worker running the last attempt stopped before it finished']);
  });

  it('survives throwing handlers, failure hooks and bad payloads while polling', async () => {
    const clock = testClock();
    const log = testLogger();
    let good = 0;
    const handlers = [
      defineJob<null>({
        name: 'test.sync-throw',
        maxAttempts: 1,
        // Not async: throws synchronously instead of rejecting.
        run() {
          throw new Error('sync');
        },
        onFailure() {
          throw new Error('the hook too');
        },
      }),
      defineJob<null>({
        name: 'test.reject',
        maxAttempts: 1,
        run: () => Promise.reject(new Error('rejected')),
      }),
      defineJob<null>({
        name: 'test.good',
        maxAttempts: 1,
        async run() {
          good += 1;
        },
      }),
    ];
    const ids = [
      await enqueue(database.db, clock, 'test.sync-throw', null, { maxAttempts: 1 }),
      await enqueue(database.db, clock, 'test.reject', null, { maxAttempts: 1 }),
    ];
    // A payload that is not JSON (written by hand, or by an older version).
    const bad = await database.db
      .insertInto('jobs')
      .values({
        name: 'test.good',
        payload: '{not json',
        status: 'queued',
        max_attempts: 3,
        run_at: clock.now().toISOString(),
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      })
      .returning('id_job')
      .executeTakeFirstOrThrow();
    const last = await enqueue(database.db, clock, 'test.good', null);

    const w = worker(handlers, { clock, log, concurrency: 1 });
    w.start();
    await waitFor(async () => (await job(last)).status === 'done');
    await w.stop();

    expect(good).toBe(1);
    for (const id of ids) expect((await job(id)).status).toBe('failed');
    expect(await job(bad.id_job)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(log.lines.some((line) => line.msg === 'job failure hook threw')).toBe(true);
  });

  it('queues the failed jobs of the names it is given again when it starts', async () => {
    const clock = testClock();
    let diskFull = true;
    const ran: string[] = [];
    const make = (name: string) =>
      defineJob<{ n: number }>({
        name,
        maxAttempts: 2,
        retryDelayMs: () => 0,
        run() {
          ran.push(name);
          if (diskFull) throw new Error('ENOSPC: no space left on device');
          return Promise.resolve();
        },
      });
    const pipeline = make('test.pipeline');
    const other = make('test.other');
    const mended = await enqueueJob(database.db, clock, pipeline, { n: 1 });
    const left = await enqueueJob(database.db, clock, other, { n: 2 });
    const first = worker([pipeline, other], { clock });
    for (let i = 0; i < 4; i += 1) await first.runUntilIdle();
    expect((await job(mended)).status).toBe('failed');
    expect((await job(left)).status).toBe('failed');

    // The disk is freed and the server restarted.
    diskFull = false;
    ran.length = 0;
    const log = testLogger();
    const second = worker([pipeline, other], {
      clock,
      log,
      retryFailedOnStart: ['test.pipeline'],
    });
    second.start();
    await waitFor(async () => (await job(mended)).status === 'done');
    await second.stop();
    expect(await job(mended)).toMatchObject({ status: 'done', attempts: 1 });
    // Only the names given: another job that failed stays failed, for inspection.
    expect((await job(left)).status).toBe('failed');
    expect(ran).toEqual(['test.pipeline']);
    expect(log.lines.some((line) => line.msg === 'failed jobs queued again')).toBe(true);
  });

  it('stop() waits for the running job, and gives up on it after the timeout', async () => {
    const clock = testClock();
    let release: () => void = () => undefined;
    const slow = defineJob<{ wait: number }>({
      name: 'test.slow',
      maxAttempts: 1,
      async run({ wait }) {
        if (wait > 0) await sleep(wait);
        else await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const finishing = await enqueueJob(database.db, clock, slow, { wait: 300 });
    const w = worker([slow], { clock });
    w.start();
    await waitFor(async () => (await job(finishing)).status === 'running');
    await w.stop();
    expect((await job(finishing)).status).toBe('done');

    const hanging = await enqueueJob(database.db, clock, slow, { wait: 0 });
    const log = testLogger();
    const w2 = worker([slow], { clock, log });
    w2.start();
    await waitFor(async () => (await job(hanging)).status === 'running');
    const before = Date.now();
    await w2.stop(200);
    expect(Date.now() - before).toBeLessThan(2_000);
    // Left locked: once the lock is stale another worker takes it over.
    expect((await job(hanging)).status).toBe('running');
    expect(log.lines.some((line) => line.msg.startsWith('job worker stopped with jobs'))).toBe(
      true,
    );
    release();
  });

  it('runs a job of a reserved name in its own slot while the other slots are busy', async () => {
    const clock = testClock();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const long = defineJob<object>({
      name: 'test.long',
      maxAttempts: 1,
      run: () => held,
    });
    const quickRuns: number[] = [];
    const quick = defineJob<{ n: number }>({
      name: 'test.quick',
      maxAttempts: 1,
      async run({ n }) {
        quickRuns.push(n);
      },
    });
    const longIds = [
      await enqueueJob(database.db, clock, long, {}),
      await enqueueJob(database.db, clock, long, {}),
    ];
    const w = worker([long, quick], {
      clock,
      concurrency: 1,
      reserved: { names: ['test.quick'], slots: 1 },
    });
    w.start();
    await waitFor(async () => (await job(longIds[0] ?? 0)).status === 'running');
    await enqueueJob(database.db, clock, quick, { n: 1 });
    await enqueueJob(database.db, clock, quick, { n: 2 });
    w.wake();
    // Both quick jobs ran while the one general slot was held by the first long job, and the
    // reserved slot never took the second long one.
    await waitFor(async () => quickRuns.length === 2);
    expect((await job(longIds[0] ?? 0)).status).toBe('running');
    expect((await job(longIds[1] ?? 0)).status).toBe('queued');
    release();
    await waitFor(async () => (await job(longIds[1] ?? 0)).status === 'done');
    await w.stop();
  });

  it('runs each job exactly once with two workers on two connections claiming at once', async () => {
    const clock = testClock();
    // A second handle: another pool on PostgreSQL, another connection on SQLite, as a second
    // process would have.
    const second = openDatabase(testDatabase.config);
    otherHandles.push(second);
    const runs = new Map<number, number>();
    let inFlight = 0;
    let maxInFlight = 0;
    const counted = defineJob<{ n: number }>({
      name: 'test.count',
      maxAttempts: 1,
      async run(_payload, ctx) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
        await sleep(5 + Math.random() * 25);
        inFlight -= 1;
      },
    });
    const ids: number[] = [];
    for (let n = 0; n < 20; n += 1) ids.push(await enqueueJob(database.db, clock, counted, { n }));

    const workers = [
      worker([counted], { clock, workerId: 'w1', concurrency: 4, pollIntervalMs: 10 }),
      worker([counted], {
        database: second,
        clock,
        workerId: 'w2',
        concurrency: 4,
        pollIntervalMs: 10,
      }),
    ];
    for (const w of workers) w.start();
    await waitFor(async () => {
      const rows = await database.db
        .selectFrom('jobs')
        .select(['status'])
        .where('name', '=', 'test.count')
        .execute();
      return rows.every((row) => row.status === 'done');
    });
    await Promise.all(workers.map((w) => w.stop()));

    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    const rows = await database.db.selectFrom('jobs').select(['attempts']).execute();
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
  });

  it('runs each job exactly once when two workers drain the queue concurrently', async () => {
    const clock = testClock();
    const second = openDatabase(testDatabase.config);
    otherHandles.push(second);
    const runs = new Map<number, number>();
    const counted = defineJob<null>({
      name: 'test.drain',
      maxAttempts: 1,
      async run(_payload, ctx) {
        runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
        await sleep(Math.random() * 10);
      },
    });
    for (let n = 0; n < 20; n += 1) await enqueueJob(database.db, clock, counted, null);
    const [a, b] = await Promise.all([
      worker([counted], { clock, workerId: 'a', concurrency: 4 }).runUntilIdle(),
      worker([counted], { database: second, clock, workerId: 'b', concurrency: 4 }).runUntilIdle(),
    ]);
    expect(a + b).toBe(20);
    expect(runs.size).toBe(20);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('prunes done jobs older than seven days and keeps the rest', async () => {
    const clock = testClock();
    const task = defineJob<null>({ name: 'test.prune', maxAttempts: 1, async run() {} });
    const old = await enqueueJob(database.db, clock, task, null);
    await worker([task], { clock }).runUntilIdle();
    const failed = await enqueue(database.db, clock, 'test.prune-failed', null);
    await database.db
      .updateTable('jobs')
      .set({ status: 'failed' })
      .where('id_job', '=', failed)
      .execute();
    clock.advance(6 * 24 * 3_600_000);
    const recent = await enqueueJob(database.db, clock, task, null);
    await worker([task], { clock }).runUntilIdle();
    const queued = await enqueueJob(database.db, clock, task, null, {
      runAt: new Date(clock.now().getTime() + 3_600_000),
    });
    clock.advance(24 * 3_600_000 + 1);

    expect(await pruneDoneJobs(database.db, clock)).toBe(1);
    const left = await database.db.selectFrom('jobs').select('id_job').orderBy('id_job').execute();
    expect(left.map((row) => row.id_job)).toEqual([failed, recent, queued]);
    expect(left.map((row) => row.id_job)).not.toContain(old);
  });

  it('runs housekeeping on the prune schedule; a failing task neither stops the others nor the worker', async () => {
    const clock = testClock();
    const log = testLogger();
    const ran: string[] = [];
    const housekeeping = [
      {
        name: 'broken',
        run: () => Promise.reject(new Error('disk unavailable')),
      },
      {
        name: 'sweep',
        run: () => {
          ran.push('sweep');
          return Promise.resolve({ removed: 2 });
        },
      },
    ];
    const w = worker([], { clock, log, housekeeping, pruneIntervalMs: 3_600_000 });
    w.start();
    try {
      await waitFor(() => Promise.resolve(ran.length === 1));
      // Many polls later, still not due within the hour...
      await sleep(200);
      expect(ran).toEqual(['sweep']);
      // ...and due again after it.
      clock.advance(3_600_000);
      await waitFor(() => Promise.resolve(ran.length === 2));
    } finally {
      await w.stop();
    }
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'housekeeping failed' }),
    );
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'housekeeping done',
        fields: expect.objectContaining({ task: 'sweep', outcome: { removed: 2 } }),
      }),
    );
  });

  it(`claims nothing from an empty queue or without handlers (${TEST_ENGINE})`, async () => {
    const clock = testClock();
    expect(await claimJob(database, clock, { workerId: 'x', names: [] })).toBeUndefined();
    expect(
      await claimJob(database, clock, { workerId: 'x', names: ['test.none'] }),
    ).toBeUndefined();
  });
});
