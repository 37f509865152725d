import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, testChromiumPath } from './scripts/chromium.ts';

const port = Number(process.env.PREVIEW_PORT ?? 8899);
export const E2E_DATA_DIR = '.data/e2e';
/** The address the preview's mail catcher refuses with 550 5.1.1 (MAIL_CATCHER_REFUSE). */
export const REFUSED_ADDRESS = 'gone@refused.example';
/** Where the preview serves the site; helpers outside a test (admin-support) call it too. */
export const baseURL = `http://127.0.0.1:${port}`;

/**
 * CI and `npm test` (scripts/test-all.ts sets `E2E_WHOLE_RUN`) run the whole suite alike: no `test.only`, one
 * retry, a trace of the retry only, and a preview of their own. A single spec run at the desk keeps the trace of
 * every failure instead.
 */
const wholeRun = Boolean(process.env.CI || process.env.E2E_WHOLE_RUN);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e-artifacts',
  forbidOnly: wholeRun,
  retries: wholeRun ? 1 : 0,
  // Two workers per core, at most eight (`E2E_WORKERS` to change): a test mostly waits for pages, animations
  // and the preview (396 CPU s in 784 s on two workers), so on two cores four keep them busy. Tests that
  // share the preview's state keep to rows, accounts and addresses of their own (docs/test-runs.md).
  workers: Number(process.env.E2E_WORKERS) || Math.min(2 * availableParallelism(), 8),
  // A bound against a test that hangs: a page test takes 2–10 s on a quiet machine and took over 45 s on the
  // shared 2-core machine at a load of 25 (npm test beside two engineers' builds). Only a hang waits this long.
  timeout: 120_000,
  // An assertion waits up to 15 s, not Playwright's 5 s: on a machine where the API suites and the build run
  // beside the browsers (npm test), a chart's lazy chunk can take longer than 5 s to arrive and draw (CI saw
  // /our-references miss 5 s twice). A passing assertion returns the moment it holds, so only a failure waits.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL,
    launchOptions: { executablePath: testChromiumPath(), args: chromiumArgs },
    // A trace records every action's DOM and screenshots: 15 % of a page test's CPU and 30 % of an admin flow's
    // (docs/test-runs.md), paid by every passing test under `retain-on-failure`.
    trace: wholeRun ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // A test tagged for one width (tests/e2e/fixtures.ts, `DESKTOP` and `PHONE`) is left out of the other project.
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } }, grepInvert: /@phone\b/ },
    {
      name: 'mobile',
      use: { viewport: { width: 375, height: 812 }, hasTouch: true },
      grepInvert: /@desktop\b/,
    },
  ],
  webServer: {
    command: 'node scripts/preview.ts',
    url: `${baseURL}/api/health`,
    // At the desk, `npx playwright test` uses a preview already running on the port. A whole run never does: it
    // would test that server's build and data instead of its own (npm test picks a free port when 8899 is taken).
    reuseExistingServer: !wholeRun,
    // Its own embedded database, so tests never touch the dev data; npm test starts it fresh.
    // The local catcher refuses one address for good (campaigns.spec: the bounce at the send suppresses it).
    env: { PORT: String(port), KORVEL_DATA_DIR: E2E_DATA_DIR, MAIL_CATCHER_REFUSE: `${REFUSED_ADDRESS}=550` },
    // Unzipping and warming 32 function bundles and an embedded database takes 20 s on a quiet machine and over
    // two minutes on one shared with a dozen processes; tests start the moment it answers, so the bound is wide.
    timeout: 600_000,
  },
});
