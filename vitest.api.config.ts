import { defineConfig } from 'vitest/config';

/** API and repository tests: real HTTP through the functions, against API_DB (pglite, postgres or neon). */
export default defineConfig({
  test: {
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/api/support/global-setup.ts'],
    // One file at a time: each hashes passwords with scrypt (128 MiB a go) and the database is shared.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
