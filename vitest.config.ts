import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    // The console's browser suite has its own configuration (test/browser/vitest.config.ts).
    exclude: ['test/browser/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
