import { adminErrorMessage } from './shape.js';

/** What a batch action did: the ids it changed and those it could not, in order. */
export interface BatchResult {
  succeeded: number[];
  failed: number[];
  /** Why the failed ones failed, each reason once, in the order first met. */
  reasons: string[];
}

/**
 * Runs one action per selected id, one after another: the server decides each on its own
 * (the last administrator, a row someone else already deleted), so one refusal must not stop
 * the rest, and sequential calls keep the rate limits and the database calm. `reasonOf` turns
 * a refusal into the sentence the summary gives for it (the server's Italian detail).
 */
export async function runBatch(
  ids: readonly number[],
  action: (id: number) => Promise<unknown>,
  reasonOf?: (error: unknown) => string,
): Promise<BatchResult> {
  const result: BatchResult = { succeeded: [], failed: [], reasons: [] };
  for (const id of ids) {
    try {
      await action(id);
      result.succeeded.push(id);
    } catch (error) {
      result.failed.push(id);
      const reason = reasonOf?.(error);
      if (reason !== undefined && !result.reasons.includes(reason)) result.reasons.push(reason);
    }
  }
  return result;
}

/**
 * 'Eliminati: 3 di 4. Non riusciti: 1. Deve restare almeno un amministratore attivo.' — the
 * summary a batch ends with: a count alone would leave the administrator guessing why the rows
 * still selected were refused.
 */
export function batchSummary(done: string, result: BatchResult): string {
  const total = result.succeeded.length + result.failed.length;
  const head = `${done}: ${result.succeeded.length} di ${total}.`;
  if (result.failed.length === 0) return head;
  return [`${head} Non riusciti: ${result.failed.length}.`, ...result.reasons].join(' ');
}

/**
 * A bulk action's run and the summary it ends with, a refusal without a reason of its own said
 * with the screen's `failureMessage`: what every bulk action of the back-office does, whatever
 * its dialogs.
 */
export async function runSummarisedBatch(
  ids: readonly number[],
  action: (id: number) => Promise<unknown>,
  doneLabel: string,
  failureMessage: string,
): Promise<{ result: BatchResult; summary: string }> {
  const result = await runBatch(ids, action, (error) => adminErrorMessage(error, failureMessage));
  return { result, summary: batchSummary(doneLabel, result) };
}
