import { describe, expect, it } from 'vitest';
import { batchSummary, runBatch } from './batch.js';

describe('batch actions', () => {
  it('runs every id in order and keeps going after a failure', async () => {
    const seen: number[] = [];
    const result = await runBatch([1, 2, 3, 4], async (id) => {
      seen.push(id);
      if (id % 2 === 0) throw new Error('rifiutato');
    });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(result).toEqual({ succeeded: [1, 3], failed: [2, 4] });
  });

  it('waits for each call before the next', async () => {
    let running = 0;
    let most = 0;
    await runBatch([1, 2, 3], async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
    });
    expect(most).toBe(1);
  });

  it('summarises in Italian', () => {
    expect(batchSummary('Eliminati', { succeeded: [1, 2], failed: [] })).toBe('Eliminati: 2 di 2.');
    expect(batchSummary('Approvate', { succeeded: [1], failed: [2, 3] })).toBe(
      'Approvate: 1 di 3. Non riusciti: 2.',
    );
  });
});
