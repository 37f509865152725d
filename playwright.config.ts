import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts';

const port = Number(process.env.PREVIEW_PORT ?? 8899);
export const E2E_DATA_DIR = '.data/e2e';
/** Where the preview serves the site; helpers outside a test (admin-support) call it too. */
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e-artifacts',
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: Number(process.env.E2E_WORKERS) || 2,
  timeout: 45_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
    { name: 'mobile', use: { viewport: { width: 375, height: 812 }, hasTouch: true } },
  ],
  webServer: {
    command: 'node scripts/preview.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: !process.env.CI,
    // Its own embedded database, so tests never touch the dev data; npm test starts it fresh.
    env: { PORT: String(port), KORVEL_DATA_DIR: E2E_DATA_DIR },
    timeout: 120_000,
  },
});
