import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Executor } from '../db/executor.js';
import type { Database } from '../db/tables.js';
import type { Clock } from '../lib/clock.js';
import {
  claimJob as claimJobRow,
  countUnfinishedJobs,
  deleteDoneJobsBefore,
  insertJob,
  markJobDone,
  markJobFailed,
  markJobForRetry,
  requeueFailedJobs,
  type JobRow,
} from './jobs.repository.js';

/*
 * The durable job queue (D10): jobs are rows of the `jobs` table, so none is lost on a crash or
 * a restart, and any number of workers in any number of processes can share them.
 *
 * Life of a job: queued → running (claimed, attempt counted) → done; or, on failure, back to
 * queued with a later run_at (exponential backoff) until max_attempts, then failed. A running
 * job whose lock is older than the stale-lock timeout belonged to a worker that died (kill -9,
 * power cut) and is claimed again by another one.
 */

export type { JobRow } from './jobs.repository.js';

/** Attempts a job gets when neither the caller nor the job definition says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * After this long without a heartbeat a running job is taken to be orphaned. Workers renew
 * their locks several times within it, so only a dead worker's jobs ever go stale.
 */
export const DEFAULT_STALE_LOCK_MS = 2 * 60_000;

/** How long finished jobs are kept, for looking back at what ran. */
export const DEFAULT_KEEP_DONE_MS = 7 * 24 * 3_600_000;

const BACKOFF_BASE_MS = 5_000;
const BACKOFF_FACTOR = 4;
const BACKOFF_CAP_MS = 3_600_000;

/** Longest error text kept in `last_error`: enough for a message and the top of a stack. */
const MAX_ERROR_LENGTH = 4_000;

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a job. Takes an Executor so a service can enqueue inside its own transaction: the job
 * then exists exactly when the change that asked for it was committed.
 */
export async function enqueue(
  db: Executor,
  clock: Clock,
  name: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<number> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  }
  const serialised = JSON.stringify(payload) as string | undefined;
  if (serialised === undefined) throw new TypeError(`job ${name}: payload is not serialisable`);
  const now = clock.now().toISOString();
  const row = await insertJob(db, {
    name,
    payload: serialised,
    status: 'queued',
    attempts: 0,
    max_attempts: maxAttempts,
    run_at: options.runAt?.toISOString() ?? now,
    created_at: now,
    updated_at: now,
  });
  return row.id_job;
}

/** Delay before the next attempt after `attempts` failed ones: 5 s, 20 s, 80 s … at most 1 h. */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * BACKOFF_FACTOR ** exponent);
}

export interface ClaimOptions {
  workerId: string;
  /** Names of the jobs the worker can run. */
  names: readonly string[];
  staleLockMs?: number;
}

/** Claims the oldest due job for the worker (see jobs.repository claimJob for the locking). */
export function claimJob(
  database: { db: Kysely<Database>; dialect: Dialect },
  clock: Clock,
  options: ClaimOptions,
): Promise<JobRow | undefined> {
  const now = clock.now();
  const staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  return claimJobRow(database.db, database.dialect, {
    names: options.names,
    workerId: options.workerId,
    now: now.toISOString(),
    staleBefore: new Date(now.getTime() - staleLockMs).toISOString(),
  });
}

/** Marks a claimed job done. False when the worker had lost the job to another one. */
export function completeJob(
  db: Executor,
  clock: Clock,
  job: Pick<JobRow, 'id_job'>,
  workerId: string,
): Promise<boolean> {
  return markJobDone(db, job.id_job, workerId, clock.now().toISOString());
}

export type FailureOutcome = 'retry' | 'failed' | 'lost';

export interface FailOptions {
  /** Fail for good regardless of attempts left (the job can never succeed). */
  permanent?: boolean;
  /** Backoff of the job definition, when it has its own. */
  retryDelayMs?: (attempts: number) => number;
}

/**
 * Records a failed attempt (already counted when the job was claimed): back to the queue after
 * the backoff while attempts remain, else `failed`. 'lost' when another worker owns the job now.
 */
export async function failJob(
  db: Executor,
  clock: Clock,
  job: Pick<JobRow, 'id_job' | 'attempts' | 'max_attempts'>,
  workerId: string,
  error: unknown,
  options: FailOptions = {},
): Promise<FailureOutcome> {
  const now = clock.now();
  const message = describeError(error);
  if (options.permanent === true || job.attempts >= job.max_attempts) {
    const marked = await markJobFailed(db, job.id_job, workerId, {
      error: message,
      now: now.toISOString(),
    });
    return marked ? 'failed' : 'lost';
  }
  const delay = (options.retryDelayMs ?? retryDelayMs)(job.attempts);
  const marked = await markJobForRetry(db, job.id_job, workerId, {
    runAt: new Date(now.getTime() + delay).toISOString(),
    error: message,
    now: now.toISOString(),
  });
  return marked ? 'retry' : 'lost';
}

/** How many jobs of these names are queued or running (failed ones never run again). */
export function unfinishedJobs(db: Executor, names: readonly string[]): Promise<number> {
  return countUnfinishedJobs(db, names);
}

/**
 * Failed jobs of these names, queued again with all their attempts: what a worker's start does
 * for the jobs whose failures come from the machine (WorkerOptions.retryFailedOnStart).
 */
export function retryFailedJobs(
  db: Executor,
  clock: Clock,
  names: readonly string[],
): Promise<number> {
  return requeueFailedJobs(db, names, clock.now().toISOString());
}

/** Deletes done jobs older than `keepMs` (default 7 days); failed ones stay for inspection. */
export function pruneDoneJobs(
  db: Executor,
  clock: Clock,
  keepMs: number = DEFAULT_KEEP_DONE_MS,
): Promise<number> {
  return deleteDoneJobsBefore(db, new Date(clock.now().getTime() - keepMs).toISOString());
}

/** The error as stored in last_error: the stack when there is one (it starts with the message). */
export function describeError(error: unknown): string {
  const text =
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
