import { defineConfig } from 'vitest/config';

/**
 * API and repository tests: real HTTP through the functions, against API_DB (pglite, postgres or neon).
 * A test tagged `no-db` never touches the database (tests/api/support/no-db.ts checks that it runs no
 * statement): npm test runs it on PGlite only (`--tags-filter='!no-db'` for the PostgreSQL and Neon runs,
 * scripts/test-all.ts), since they could not answer it differently.
 */
export default defineConfig({
  test: {
    tags: [
      { name: 'no-db', description: 'refused before any statement runs: the same on every backend' },
      { name: 'flood', description: 'ten thousand calls: once, on real PostgreSQL when it is installed' },
    ],
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/api/support/global-setup.ts'],
    // Each file starts an API of its own (its own database, mail catcher and HTTP server; harness.ts), so two
    // run side by side: most of a file's time is the sign-in delays and scrypt it tests, and two scrypt runs
    // take 256 MiB. A worker keeps the imported functions from one file to the next instead of importing them
    // again for every file (issue 26: a PGlite run 111 s and 100 CPU s one file at a time, 53 s and 74 CPU s so).
    // npm test lowers it to one on a machine with a single free core (API_WORKERS, scripts/lib/test-capacity.ts).
    fileParallelism: true,
    maxWorkers: Number(process.env.API_WORKERS) || 2,
    isolate: false,
    // A bound against a test that hangs, not a speed check: the longest tests (content lint with the spelling
    // dictionaries, 50 sign-ins at once, passkey ceremonies) take 7–15 s on a quiet machine and took over 60 s on
    // the shared 2-core machine at a load of 20–26 (the build, four browsers and two other API runs beside them).
    testTimeout: 240_000,
    // A file's start (a copy of the migrated cluster, the functions, a mail catcher) takes a second on a quiet
    // machine and has taken over a minute on a shared one: the bound only catches a start that hangs.
    hookTimeout: 300_000,
  },
});
