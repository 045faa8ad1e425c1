import { defineConfig } from 'vitest/config';

/*
 * The fault-injection suite (issue 7): the built server as real processes, killed, starved of
 * its database and of disk. `npm run test:faults` builds the server first.
 */
export default defineConfig({
  test: {
    include: ['test-faults/**/*.test.ts'],
    pool: 'forks',
    // One file at a time: each starts servers, OCR threads and bursts of uploads, and on a
    // two-core machine files in parallel would only make each other's timings meaningless.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
