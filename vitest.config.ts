import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    // npm test runs the unit tests beside the build and the browsers: a test that lints or spawns a process can
    // take several seconds on a busy two-core machine, and the 5 s default failed one that way. The bound catches
    // a hang, not slowness: at a load of 25 a test spawning `astro sync` or drawing the brochure runs 6× longer.
    testTimeout: 120_000,
  },
});
