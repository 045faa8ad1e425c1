/** What a batch action did: the ids it changed and those it could not, in order. */
export interface BatchResult {
  succeeded: number[];
  failed: number[];
}

/**
 * Runs one action per selected id, one after another: the server decides each on its own
 * (the last administrator, a row someone else already deleted), so one refusal must not stop
 * the rest, and sequential calls keep the rate limits and the database calm.
 */
export async function runBatch(
  ids: readonly number[],
  action: (id: number) => Promise<unknown>,
): Promise<BatchResult> {
  const result: BatchResult = { succeeded: [], failed: [] };
  for (const id of ids) {
    try {
      await action(id);
      result.succeeded.push(id);
    } catch {
      result.failed.push(id);
    }
  }
  return result;
}

/** 'Eliminati: 3 di 4. Non riusciti: 1.' — the summary a batch ends with. */
export function batchSummary(done: string, result: BatchResult): string {
  const total = result.succeeded.length + result.failed.length;
  const head = `${done}: ${result.succeeded.length} di ${total}.`;
  return result.failed.length === 0 ? head : `${head} Non riusciti: ${result.failed.length}.`;
}
