import { defineConfig } from 'vitest/config';

// The console in real Chromium (Debian's package, driven by playwright-core): one server process
// and one browser per file, files one after another.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    // A failed test prints what its pages show.
    setupFiles: ['test/browser/failure-report.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
