import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';

/*
 * Load shedding (issue 7): when the event loop lags badly, the server answers 503 at once with
 * Retry-After instead of queueing work it cannot serve in time, and serves again once the lag
 * is over. The lag is real: this test blocks the process's own event loop, in which the app
 * runs, in slices longer than the threshold (one second), the way a CPU-bound burst would;
 * a request that arrives right after is refused, one that arrives once it has calmed is served.
 * Its own file, so the blocking slows no other suite's timers.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

/** Keeps the event loop busy in slices of `sliceMs` for `totalMs`, letting it turn in between. */
async function lag(totalMs: number, sliceMs: number): Promise<void> {
  const end = performance.now() + totalMs;
  while (performance.now() < end) {
    const sliceEnd = performance.now() + sliceMs;
    while (performance.now() < sliceEnd) {
      // Busy: no timer, no I/O callback runs.
    }
    await yieldToLoop();
  }
}

const gallery = () => t.app.inject({ method: 'GET', url: '/api/images?limit=5' });

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop lags, then serves again', async () => {
    // Shedding starts three sampling intervals after the start (see security.ts).
    await sleep(3500);
    expect((await gallery()).statusCode).toBe(200);

    // The pressure is sampled once a second: right after the lag, the last samples saw it.
    await lag(4000, 1300);
    const shed = await gallery();
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('10');
    expect(shed.json()).toEqual({
      detail: 'Servizio temporaneamente non disponibile. Riprova tra poco.',
    });

    // A couple of calm sampling intervals later, the same request is served.
    await sleep(2500);
    expect((await gallery()).statusCode).toBe(200);
  }, 30_000);
});
