import { defineConfig } from 'vitest/config';

/**
 * The deployed function bundles (tests/bundles): built, unzipped outside the repository and run by a plain
 * Node process against API_DB (pglite, postgres or neon; see tests/api/support/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['tests/bundles/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/api/support/global-setup.ts'],
    // Bounds against a hang; a loaded machine runs a bundle several times slower than a quiet one.
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
