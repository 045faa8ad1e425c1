import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import { defineJob, enqueueJob, PermanentJobError, type JobDefinition } from '../worker.js';

/*
 * D9: 'Elimina account' deactivates the account at once and this job erases it, with its
 * images, files, interactions and follows, within the promised 5 days (by default within the
 * hour). Being a job row, the promise survives restarts and crashes.
 */
export const ERASURE_JOB = 'user.erase';
export const ERASURE_MAX_ATTEMPTS = 10;

export interface ErasurePayload {
  id_utente: number;
}

export function enqueueErasure(
  db: Executor,
  clock: Clock,
  userId: number,
  runAt: Date,
): Promise<number> {
  return enqueueJob<ErasurePayload>(
    db,
    clock,
    { name: ERASURE_JOB, maxAttempts: ERASURE_MAX_ATTEMPTS },
    { id_utente: userId },
    { runAt },
  );
}

export function createErasureJob(
  eraseUser: (userId: number) => Promise<void>,
): JobDefinition<ErasurePayload> {
  return defineJob<ErasurePayload>({
    name: ERASURE_JOB,
    maxAttempts: ERASURE_MAX_ATTEMPTS,
    async run(payload) {
      if (!Number.isSafeInteger(payload.id_utente) || payload.id_utente < 1) {
        throw new PermanentJobError('bad erasure payload');
      }
      await eraseUser(payload.id_utente);
    },
  });
}
