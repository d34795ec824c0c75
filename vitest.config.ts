import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    // The console's browser suite has its own configuration (test/browser/vitest.config.ts).
    exclude: ['test/browser/**', '**/node_modules/**'],
    // Migrates one SQLite and one MariaDB template per run; test apps copy them (test/support/database-templates.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Generous limits: a hanging test still fails, but a server start or a CLI process on a
    // machine busy with the other suites (make test runs four side by side) is not taken for one.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Test files share their worker's module cache: the sources are imported once per worker
    // instead of once per file (about 200 s of CPU in a run). Each file builds its own apps and
    // databases, so no state is shared through the modules.
    isolate: false,
    // Three test files at a time: a file spends about four fifths of its time waiting on servers,
    // processes and databases (a run's files took 1,959 s between them for 394 s of Vitest's CPU),
    // and Vitest's default on two cores (one file at a time) leaves the cores idle.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
