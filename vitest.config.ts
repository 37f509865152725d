import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    // npm test runs the unit tests beside the build and the browsers: a test that lints or spawns a process can
    // take several seconds on a busy two-core machine, and the 5 s default failed one that way. The bound catches
    // a hang, not slowness: at a load of 25 a test spawning `astro sync` or drawing the brochure runs 6× longer.
    testTimeout: 120_000,
    // A worker runs file after file instead of starting afresh for each: 65 files, 164–185 → 114–150 CPU s and
    // 111–124 → 73–95 s on the 2-core machine (docs/test-runs.md). Files share a worker's globals and jsdom
    // document, so a file sets what it reads (e.g. `<html lang>`) in its own hooks; shuffled file orders pass.
    isolate: false,
  },
});
