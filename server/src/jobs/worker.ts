import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { DatabaseHandle } from '../db/database.js';
import type { Executor } from '../db/executor.js';
import type { Clock } from '../lib/clock.js';
import { renewJobLocks } from './jobs.repository.js';
import {
  claimJob,
  completeJob,
  DEFAULT_KEEP_DONE_MS,
  DEFAULT_STALE_LOCK_MS,
  enqueue,
  failJob,
  pruneDoneJobs,
  retryDelayMs,
  retryFailedJobs,
  type EnqueueOptions,
  type JobRow,
} from './queue.js';

/*
 * Job definitions (habit 9, after outline's BaseTask: a name, attempts with backoff, a failure
 * hook) and the worker that runs them: a poll loop that claims due jobs from the database up
 * to a concurrency limit, renews its locks while they run, and records each outcome. Nothing a
 * handler does can crash the process: every error becomes a failed attempt.
 */

/** The logger a worker writes to: Fastify's (pino) logger fits, and so does run-worker's. */
export interface JobLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobContext {
  readonly job: {
    readonly id: number;
    readonly name: string;
    /** 1 on the first attempt. */
    readonly attempt: number;
    readonly maxAttempts: number;
  };
  readonly clock: Clock;
  readonly log: JobLogger;
}

export interface JobDefinition<Payload> {
  readonly name: string;
  /** Attempts given to jobs enqueued through this definition (enqueueJob). */
  readonly maxAttempts: number;
  run(payload: Payload, ctx: JobContext): Promise<void>;
  /**
   * Called once when the job fails for good (attempts exhausted, PermanentJobError, or its
   * worker died during the last attempt). The payload is undefined if it was not valid JSON.
   */
  onFailure?(payload: Payload, error: unknown, ctx: JobContext): Promise<void> | void;
  /** Delay before the next attempt after `attempts` failed ones; queue.retryDelayMs if absent. */
  retryDelayMs?(attempts: number): number;
}

/**
 * Any definition, whatever its payload, as the worker's registry holds them: the worker only
 * hands a handler the payload that was enqueued under the handler's name.
 */
export type AnyJobDefinition = JobDefinition<never>;

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  if (definition.name.trim() === '') throw new Error('a job needs a name');
  if (!Number.isInteger(definition.maxAttempts) || definition.maxAttempts < 1) {
    throw new RangeError(`job ${definition.name}: maxAttempts must be a positive integer`);
  }
  return definition;
}

/** Enqueues a job of a definition: its name, its attempts, and a payload of the right type. */
export function enqueueJob<Payload>(
  db: Executor,
  clock: Clock,
  definition: Pick<JobDefinition<Payload>, 'name' | 'maxAttempts'>,
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<number> {
  return enqueue(db, clock, definition.name, payload, {
    maxAttempts: definition.maxAttempts,
    ...options,
  });
}

/** Thrown by a handler when retrying cannot help (bad payload…): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export interface WorkerOptions {
  database: Pick<DatabaseHandle, 'db' | 'dialect'>;
  clock: Clock;
  log: JobLogger;
  handlers: readonly AnyJobDefinition[];
  /** Jobs run at the same time by this worker (default 2). */
  concurrency?: number;
  /**
   * Extra slots, beyond `concurrency`, that only take jobs of these names: short jobs someone
   * waits for (an upload's full size) then never wait behind long ones (seconds of OCR).
   */
  reserved?: { names: readonly string[]; slots: number };
  /** Pause between looks at the queue when it is idle (default 1 s). */
  pollIntervalMs?: number;
  /** Unique per worker: locks are taken in its name. Default: host, pid and a random tag. */
  workerId?: string;
  /** See queue.DEFAULT_STALE_LOCK_MS. */
  staleLockMs?: number;
  /** How often the worker deletes old done jobs (default hourly; 0 never). */
  pruneIntervalMs?: number;
  /** How long done jobs are kept (default 7 days). */
  keepDoneMs?: number;
  /**
   * Other upkeep on the same schedule as pruning (e.g. removing orphan files). Each task
   * must be safe to run in several processes at once; a failure is logged, never fatal.
   */
  housekeeping?: readonly { name: string; run: () => Promise<unknown> }[];
  /**
   * Jobs of these names that failed for good are queued again, with all their attempts, when
   * the worker starts: jobs whose failures come from the machine (a full disk, a database that
   * stayed busy for half an hour), which a restart usually follows the mending of. A job that
   * cannot succeed fails again after its attempts, once per start.
   */
  retryFailedOnStart?: readonly string[];
}

export interface JobWorker {
  readonly id: string;
  /** Starts the poll loop in the background; it runs until stop(). */
  start(): void;
  /**
   * Stops claiming, then waits for the running jobs, at most `timeoutMs` (default 10 s). Jobs
   * still running after that keep their lock, which goes stale, and another worker (or this
   * one after a restart) runs them again.
   */
  stop(timeoutMs?: number): Promise<void>;
  /** For tests and scripts: runs due jobs until none is due; answers how many attempts ran. */
  runUntilIdle(): Promise<number>;
  /** Looks at the queue now instead of at the next poll (e.g. right after an enqueue). */
  wake(): void;
}

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_PRUNE_INTERVAL_MS = 3_600_000;
const DEFAULT_STOP_TIMEOUT_MS = 10_000;
/** Longest pause after repeated database errors, so a restarted database is noticed soon. */
const MAX_ERROR_PAUSE_MS = 30_000;

export function createWorker(options: WorkerOptions): JobWorker {
  const { database, clock, log } = options;
  const id = options.workerId ?? defaultWorkerId();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  const pruneIntervalMs = options.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS;
  const keepDoneMs = options.keepDoneMs ?? DEFAULT_KEEP_DONE_MS;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }

  const handlers = new Map<string, AnyJobDefinition>();
  for (const handler of options.handlers) {
    if (handlers.has(handler.name)) throw new Error(`job ${handler.name} is registered twice`);
    handlers.set(handler.name, handler);
  }
  const names = [...handlers.keys()];
  const reservedNames = (options.reserved?.names ?? []).filter((name) => handlers.has(name));
  const reservedSlots = reservedNames.length === 0 ? 0 : (options.reserved?.slots ?? 0);
  if (!Number.isInteger(reservedSlots) || reservedSlots < 0) {
    throw new RangeError(`reserved slots must be a whole number, got ${reservedSlots}`);
  }
  /** Ids of the running jobs that hold a reserved slot. */
  const inReservedSlot = new Set<number>();

  /** Jobs this worker is running, by id; their promises never reject. */
  const active = new Map<number, Promise<void>>();
  let loop: Promise<void> | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let lastPruneAt = Number.NEGATIVE_INFINITY;
  // Wake-up plumbing of the poll loop: a pending sleep, or a wake that came while not asleep.
  let wakeSleeper: (() => void) | undefined;
  let wakeRequested = false;

  function wake(): void {
    if (wakeSleeper === undefined) {
      wakeRequested = true;
      return;
    }
    wakeSleeper();
  }

  function sleep(ms: number): Promise<void> {
    if (wakeRequested) {
      wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });
  }

  function claim(only: readonly string[] = names): Promise<JobRow | undefined> {
    return claimJob(database, clock, { workerId: id, names: only, staleLockMs });
  }

  function contextFor(job: JobRow): JobContext {
    return {
      job: { id: job.id_job, name: job.name, attempt: job.attempts, maxAttempts: job.max_attempts },
      clock,
      log,
    };
  }

  /** Runs one claimed job to its recorded outcome. Never rejects. */
  async function execute(job: JobRow): Promise<void> {
    const ref = { id_job: job.id_job, job: job.name, attempt: job.attempts, workerId: id };
    const definition = handlers.get(job.name);
    if (definition === undefined) {
      // Cannot happen (only known names are claimed), but must not crash the loop if it does.
      await recordFailure(job, undefined, undefined, new Error('no handler for this job'), true);
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch (error) {
      await recordFailure(job, definition, undefined, error, true);
      return;
    }
    if (job.attempts > job.max_attempts) {
      // Claimed again after its lock went stale on the last attempt: the worker died while
      // running it, perhaps because of it. Running it yet again could loop forever.
      const error = new Error('the worker running the last attempt stopped before it finished');
      await recordFailure(job, definition, payload, error, true);
      return;
    }
    const started = performance.now();
    try {
      await definition.run(payload as never, contextFor(job));
    } catch (error) {
      await recordFailure(job, definition, payload, error, error instanceof PermanentJobError);
      return;
    }
    try {
      const recorded = await completeJob(database.db, clock, job, id);
      if (recorded) {
        log.debug({ ...ref, ms: Math.round(performance.now() - started) }, 'job done');
      } else {
        log.warn(ref, 'job done, but another worker had taken it over meanwhile');
      }
    } catch (error) {
      // The job stays running under this worker's lock; once the lock is stale it runs again.
      log.error({ ...ref, err: error }, 'job done, but recording it failed');
    }
  }

  async function recordFailure(
    job: JobRow,
    definition: AnyJobDefinition | undefined,
    payload: unknown,
    error: unknown,
    permanent: boolean,
  ): Promise<void> {
    const ref = { id_job: job.id_job, job: job.name, attempt: job.attempts, workerId: id };
    let outcome;
    try {
      outcome = await failJob(database.db, clock, job, id, error, {
        permanent,
        ...(definition?.retryDelayMs === undefined
          ? {}
          : {
              retryDelayMs: (attempts: number) =>
                definition.retryDelayMs?.(attempts) ?? retryDelayMs(attempts),
            }),
      });
    } catch (dbError) {
      log.error(
        { ...ref, err: dbError, cause: describe(error) },
        'job failed, recording it failed',
      );
      return;
    }
    if (outcome === 'lost') {
      log.warn({ ...ref, err: error }, 'job failed, but another worker had taken it over');
      return;
    }
    if (outcome === 'retry') {
      log.warn({ ...ref, err: error }, 'job attempt failed, will retry');
      return;
    }
    log.error({ ...ref, err: error }, 'job failed for good');
    if (definition?.onFailure === undefined) return;
    try {
      await definition.onFailure(payload as never, error, contextFor(job));
    } catch (hookError) {
      log.error({ ...ref, err: hookError }, 'job failure hook threw');
    }
  }

  function launch(job: JobRow, reserved = false): void {
    if (reserved) inReservedSlot.add(job.id_job);
    const running = execute(job).finally(() => {
      active.delete(job.id_job);
      inReservedSlot.delete(job.id_job);
      // A slot is free: look for more work now rather than at the next poll.
      wake();
    });
    active.set(job.id_job, running);
  }

  async function pruneWhenDue(): Promise<void> {
    if (pruneIntervalMs <= 0) return;
    const now = clock.now().getTime();
    if (now - lastPruneAt < pruneIntervalMs) return;
    lastPruneAt = now;
    try {
      const deleted = await pruneDoneJobs(database.db, clock, keepDoneMs);
      if (deleted > 0) log.info({ deleted, workerId: id }, 'old done jobs deleted');
    } catch (error) {
      log.warn({ err: error, workerId: id }, 'could not delete old done jobs');
    }
    for (const task of options.housekeeping ?? []) {
      try {
        const outcome = await task.run();
        log.info({ task: task.name, outcome, workerId: id }, 'housekeeping done');
      } catch (error) {
        log.warn({ err: error, task: task.name, workerId: id }, 'housekeeping failed');
      }
    }
  }

  // Read through a function: `stopping` changes while the loop awaits, which TypeScript's
  // narrowing cannot see.
  const isStopping = (): boolean => stopping;

  async function retryFailedOnStart(): Promise<void> {
    const names = options.retryFailedOnStart ?? [];
    if (names.length === 0) return;
    try {
      const queued = await retryFailedJobs(database.db, clock, names);
      if (queued > 0) log.info({ workerId: id, queued, jobs: names }, 'failed jobs queued again');
    } catch (error) {
      log.warn({ err: error, workerId: id }, 'could not queue the failed jobs again');
    }
  }

  async function pollLoop(): Promise<void> {
    let consecutiveErrors = 0;
    while (!isStopping()) {
      try {
        await pruneWhenDue();
        while (!isStopping() && active.size - inReservedSlot.size < concurrency) {
          const job = await claim();
          if (job === undefined) break;
          launch(job);
        }
        while (!isStopping() && inReservedSlot.size < reservedSlots) {
          const job = await claim(reservedNames);
          if (job === undefined) break;
          launch(job, true);
        }
        consecutiveErrors = 0;
      } catch (error) {
        // Database unreachable, say: keep the process alive and try again, more slowly.
        consecutiveErrors += 1;
        log.error({ err: error, workerId: id }, 'job worker could not claim jobs');
      }
      if (isStopping()) break;
      const pause =
        consecutiveErrors === 0
          ? pollIntervalMs
          : Math.min(pollIntervalMs * 2 ** consecutiveErrors, MAX_ERROR_PAUSE_MS);
      await sleep(pause);
    }
  }

  function startHeartbeat(): void {
    // Several renewals fit in one stale-lock period, so a live worker's lock never goes stale.
    const every = Math.max(1_000, Math.floor(staleLockMs / 4));
    heartbeat = setInterval(() => {
      if (active.size === 0) return;
      renewJobLocks(database.db, [...active.keys()], id, clock.now().toISOString()).catch(
        (error: unknown) => {
          log.warn({ err: error, workerId: id }, 'could not renew job locks');
        },
      );
    }, every);
    // The heartbeat alone must not keep a process alive.
    heartbeat.unref();
  }

  async function stopNow(timeoutMs: number): Promise<void> {
    stopping = true;
    wake();
    await loop;
    let timer: NodeJS.Timeout | undefined;
    const finished = Promise.allSettled([...active.values()]).then(() => true);
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        resolve(false);
      }, timeoutMs);
    });
    const allFinished = await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    clearInterval(heartbeat);
    if (!allFinished) {
      log.warn(
        { workerId: id, jobs: [...active.keys()] },
        'job worker stopped with jobs still running; they will run again once their lock is stale',
      );
    }
  }

  return {
    id,
    start() {
      if (loop !== undefined) return;
      if (stopping) throw new Error('a stopped job worker cannot start again');
      startHeartbeat();
      loop = retryFailedOnStart().then(pollLoop);
      log.info({ workerId: id, jobs: names, concurrency }, 'job worker started');
    },
    stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS) {
      if (loop === undefined) return Promise.resolve();
      stopped ??= stopNow(timeoutMs);
      return stopped;
    },
    async runUntilIdle() {
      let ran = 0;
      for (;;) {
        const batch: Array<Promise<void>> = [];
        while (batch.length < concurrency) {
          const job = await claim();
          if (job === undefined) break;
          batch.push(execute(job));
        }
        if (batch.length === 0) return ran;
        await Promise.all(batch);
        ran += batch.length;
      }
    },
    wake,
  };
}

function defaultWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
