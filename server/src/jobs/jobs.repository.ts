import type { ExpressionBuilder, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Executor } from '../db/executor.js';
import type { Database, JobsTable } from '../db/tables.js';

/*
 * All SQL of the job queue (habit 3). Timestamps are ISO strings from the application clock;
 * on SQLite they compare as text, which orders them by time because every one has the same
 * toISOString() shape.
 */

export type JobRow = Selectable<JobsTable>;
export type NewJob = Insertable<JobsTable>;

export function insertJob(db: Executor, job: NewJob): Promise<JobRow> {
  return db.insertInto('jobs').values(job).returningAll().executeTakeFirstOrThrow();
}

export function findJobById(db: Executor, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id_job', '=', id).executeTakeFirst();
}

export interface ClaimCriteria {
  /** Only jobs with these names: a worker never takes a job it has no handler for. */
  names: readonly string[];
  workerId: string;
  now: string;
  /** A running job locked before this instant belongs to a worker that died. */
  staleBefore: string;
}

/** Due jobs: queued and not before their time, or running under a lock that went stale. */
function isClaimable(eb: ExpressionBuilder<Database, 'jobs'>, criteria: ClaimCriteria) {
  return eb.and([
    eb('name', 'in', criteria.names),
    eb.or([
      eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', criteria.now)]),
      eb.and([eb('status', '=', 'running'), eb('locked_at', '<', criteria.staleBefore)]),
    ]),
  ]);
}

/**
 * Atomically takes the oldest claimable job for this worker: it becomes `running`, locked by
 * the worker, and its attempt is counted now (so a job that kills its worker every time still
 * runs out of attempts). Undefined when nothing is due.
 *
 * PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED inside a transaction, so concurrent workers in
 * any number of processes each lock a different row and never wait on each other.
 * SQLite: one UPDATE ... WHERE id = (SELECT ...) RETURNING statement; a writing statement takes
 * the database's single write lock before it reads, so it is atomic across connections and
 * processes, and the outer condition is checked again anyway.
 */
export async function claimJob(
  db: Kysely<Database>,
  dialect: Dialect,
  criteria: ClaimCriteria,
): Promise<JobRow | undefined> {
  if (criteria.names.length === 0) return undefined;
  const lock = {
    status: 'running' as const,
    locked_at: criteria.now,
    locked_by: criteria.workerId,
    updated_at: criteria.now,
  };
  if (dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('jobs')
        .select('id_job')
        .where((eb) => isClaimable(eb, criteria))
        .orderBy('run_at')
        .orderBy('id_job')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (due === undefined) return undefined;
      return trx
        .updateTable('jobs')
        .set((eb) => ({ ...lock, attempts: eb('attempts', '+', 1) }))
        .where('id_job', '=', due.id_job)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }
  return db
    .updateTable('jobs')
    .set((eb) => ({ ...lock, attempts: eb('attempts', '+', 1) }))
    .where('id_job', '=', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id_job')
        .where((inner) => isClaimable(inner, criteria))
        .orderBy('run_at')
        .orderBy('id_job')
        .limit(1),
    )
    .where((eb) => isClaimable(eb, criteria))
    .returningAll()
    .executeTakeFirst();
}

type AttemptEnd = Pick<Updateable<JobsTable>, 'status' | 'run_at' | 'last_error' | 'updated_at'>;

/**
 * The writes that end an attempt only apply while this worker still holds the lock: if its
 * lock went stale and another worker took the job over, the late result is dropped (false).
 */
async function endAttempt(
  db: Executor,
  id: number,
  workerId: string,
  change: AttemptEnd,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ ...change, locked_at: null, locked_by: null })
    .where('id_job', '=', id)
    .where('status', '=', 'running')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function markJobDone(
  db: Executor,
  id: number,
  workerId: string,
  now: string,
): Promise<boolean> {
  return endAttempt(db, id, workerId, { status: 'done', last_error: null, updated_at: now });
}

/** Puts the job back in the queue for a later attempt. */
export function markJobForRetry(
  db: Executor,
  id: number,
  workerId: string,
  change: { runAt: string; error: string; now: string },
): Promise<boolean> {
  return endAttempt(db, id, workerId, {
    status: 'queued',
    run_at: change.runAt,
    last_error: change.error,
    updated_at: change.now,
  });
}

export function markJobFailed(
  db: Executor,
  id: number,
  workerId: string,
  change: { error: string; now: string },
): Promise<boolean> {
  return endAttempt(db, id, workerId, {
    status: 'failed',
    last_error: change.error,
    updated_at: change.now,
  });
}

/** Heartbeat: renews the locks of the jobs this worker is still running. */
export async function renewJobLocks(
  db: Executor,
  ids: readonly number[],
  workerId: string,
  now: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ locked_at: now })
    .where('id_job', 'in', ids)
    .where('status', '=', 'running')
    .where('locked_by', '=', workerId)
    .execute();
}

/** Failed jobs of these names queued again from the start, due at `now`; how many. */
export async function requeueFailedJobs(
  db: Executor,
  names: readonly string[],
  now: string,
): Promise<number> {
  if (names.length === 0) return 0;
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      attempts: 0,
      run_at: now,
      locked_at: null,
      locked_by: null,
      updated_at: now,
    })
    .where('status', '=', 'failed')
    .where('name', 'in', names)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes finished jobs last touched before the given instant; answers how many went. */
export async function deleteDoneJobsBefore(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('status', '=', 'done')
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Jobs of these names still to finish: queued (a retry included) or running. Failed ones are
 * not counted: nothing will run them again. Reads the `jobs_due` index (status first).
 */
export async function countUnfinishedJobs(db: Executor, names: readonly string[]): Promise<number> {
  if (names.length === 0) return 0;
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['queued', 'running'])
    .where('name', 'in', names)
    .executeTakeFirstOrThrow();
  return row.n;
}
