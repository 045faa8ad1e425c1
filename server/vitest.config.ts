import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file builds its own app on its own database (a fresh SQLite file or a fresh
    // PostgreSQL database), so files run in parallel safely.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Unhandled rejections fail the run (vitest's default); keep it that way.
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
