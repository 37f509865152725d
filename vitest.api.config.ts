import { defineConfig } from 'vitest/config';

/**
 * API and repository tests: real HTTP through the functions, against API_DB (pglite, postgres or neon).
 * A test tagged `no-db` never touches the database (tests/api/support/no-db.ts checks that it runs no
 * statement): npm test runs it on PGlite only (`--tags-filter='!no-db'` for the PostgreSQL and Neon runs,
 * scripts/test-all.ts), since they could not answer it differently.
 */
export default defineConfig({
  test: {
    tags: [{ name: 'no-db', description: 'refused before any statement runs: the same on every backend' }],
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/api/support/global-setup.ts'],
    // One file at a time: each hashes passwords with scrypt (128 MiB a go) and the database is shared.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
