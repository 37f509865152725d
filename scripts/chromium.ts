/**
 * Finds a Chromium for Playwright: $CHROMIUM_PATH, then a browser Playwright already has, then Debian's
 * /usr/bin/chromium, installing the Debian package when running as root. Never downloads a browser build.
 * The end-to-end tests prefer Debian's chromium-headless-shell (`testChromiumPath`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Flags for a headless Chromium on a machine with no network beyond the package registries. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points to ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  try {
    const bundled = chromium.executablePath();
    if (bundled && existsSync(bundled)) return bundled;
  } catch {
    // No Playwright browser is installed; fall through to the system one.
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  }
  throw new Error('No Chromium found: set CHROMIUM_PATH or install the Debian package "chromium".');
}

/**
 * The browser of the end-to-end tests: $CHROMIUM_PATH, else Debian's `chromium-headless-shell` (the same
 * Chromium release built as the headless shell Playwright itself runs tests in), else `chromiumPath()`. The
 * shell has no browser UI to keep up: on 120 tests of routes.spec it used 125 s where the full browser in new
 * headless mode used 206 s, with the renderers' CPU down from 188 to 112 s (docs/test-runs.md).
 */
export function testChromiumPath(): string {
  if (!process.env.CHROMIUM_PATH && existsSync(DEBIAN_HEADLESS_SHELL)) return DEBIAN_HEADLESS_SHELL;
  return chromiumPath();
}

/** Whether the end-to-end tests will run in the headless shell (see {@link testChromiumPath}). */
export const hasHeadlessShell = () =>
  process.env.CHROMIUM_PATH ? /headless/.test(process.env.CHROMIUM_PATH) : existsSync(DEBIAN_HEADLESS_SHELL);

/** Whether any Chromium is there without installing one. */
export const hasChromium = () =>
  Boolean(process.env.CHROMIUM_PATH) || existsSync(DEBIAN_HEADLESS_SHELL) || existsSync(DEBIAN_CHROMIUM);
