import { defineConfig } from 'vitest/config';

const target = process.env.API_DB ?? 'pglite';

/**
 * API and repository tests: real HTTP through the functions, against API_DB (pglite, postgres or neon).
 * A test tagged `no-db` never touches the database (tests/api/support/no-db.ts checks that it runs no
 * statement): it runs on PGlite only, since PostgreSQL and the Neon driver could not answer it differently.
 */
export default defineConfig({
  test: {
    tags: [{ name: 'no-db', description: 'refused before any statement runs: the same on every backend' }],
    tagsFilter: target === 'pglite' ? undefined : ['!no-db'],
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/api/support/global-setup.ts'],
    // One file at a time: each hashes passwords with scrypt (128 MiB a go) and the database is shared.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
