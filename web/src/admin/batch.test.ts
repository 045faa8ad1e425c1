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
    expect(result).toEqual({ succeeded: [1, 3], failed: [2, 4], reasons: [] });
  });

  it('keeps each reason of the refusals once, in the order met', async () => {
    const result = await runBatch(
      [1, 2, 3, 4],
      async (id) => {
        if (id > 1) throw new Error(id === 3 ? 'Non puoi eliminare te stesso.' : 'Già eliminato.');
      },
      (error) => (error instanceof Error ? error.message : 'Errore'),
    );
    expect(result).toEqual({
      succeeded: [1],
      failed: [2, 3, 4],
      reasons: ['Già eliminato.', 'Non puoi eliminare te stesso.'],
    });
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
    expect(batchSummary('Eliminati', { succeeded: [1, 2], failed: [], reasons: [] })).toBe(
      'Eliminati: 2 di 2.',
    );
    expect(batchSummary('Approvate', { succeeded: [1], failed: [2, 3], reasons: [] })).toBe(
      'Approvate: 1 di 3. Non riusciti: 2.',
    );
  });

  it('says why the refused ones were refused', () => {
    expect(
      batchSummary('Eliminate', {
        succeeded: [17],
        failed: [1],
        reasons: [
          'La categoria che accoglie le immagini senza categoria non può essere eliminata.',
        ],
      }),
    ).toBe(
      'Eliminate: 1 di 2. Non riusciti: 1. La categoria che accoglie le immagini senza categoria non può essere eliminata.',
    );
  });
});
