/**
 * `npm run screenshots:compare -- [--base <git rev> | --baseline <dir>] [--save <dir>] [path …]`: proves that
 * a change looks the same. Screenshots every route of src/routes.ts (or the paths given) full page at 375 px
 * and 1440 px (WIDTHS) in Chromium, from the current build (dist/, so run `npm run build` first) and from a
 * baseline, and compares them pixel by pixel with pixelmatch (threshold 0, anti-aliasing counted). The
 * baseline is either a git rev (default: where HEAD left main, `git merge-base HEAD main`), exported with
 * `git archive` into a temporary directory and built there once per commit, or a directory of PNGs an
 * earlier run kept with `--save`.
 *
 * Prints the differing pixel count per route and width, writes base, current and diff PNGs of every
 * difference to test-results/screenshots-compare/ and exits 1 when anything differs.
 *
 * Determinism: animations and transitions off (reduced motion and Playwright's `animations: 'disabled'`),
 * carets hidden, loader and cookie banner skipped, lazy images loaded, `client:visible` islands brought into
 * view, web fonts awaited; Date frozen at FROZEN_NOW and GET /api/meeting-slots answered from the same pure
 * calendar the function uses (src/lib/meeting-slots.ts), so the contact page's booking calendar is the same
 * whatever day and hour each side is shot.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Request } from '@playwright/test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import sirv from 'sirv';
import { MEETING_MINUTES, MEETING_TIME_ZONE, meetingDays } from '../src/lib/meeting-slots.ts';
import { routes } from '../src/routes.ts';
import { chromiumArgs, chromiumPath } from './chromium.ts';

/** A Monday morning in Belgrade: ten working days of slots ahead, none of them a holiday's gap. */
const FROZEN_NOW = new Date('2026-03-02T08:00:00Z');
const OUT = 'test-results/screenshots-compare';
const QUIET_MS = 500;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    baseline: { type: 'string' },
    save: { type: 'string' },
  },
});
const widths = (process.env.WIDTHS ?? '375,1440').split(',').map(Number);
const paths = positionals.length ? positionals : routes.map((route) => route.path);
const root = process.cwd();
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();

if (!existsSync(join(root, 'dist/index.html'))) throw new Error('No dist/: run `npm run build` first.');

/** Exports `rev` into a temporary directory and builds it there; a later run of the same commit reuses it. */
function buildBaseline(rev: string): string {
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = join(tmpdir(), `korvel-screenshots-base-${sha.slice(0, 12)}`);
  const built = join(dir, '.built');
  if (existsSync(built)) return join(dir, 'dist');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`baseline: building ${rev} (${sha.slice(0, 12)}) in ${dir}`);
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  // The same installed packages: a baseline differs from the working tree in its sources, not its libraries.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(built, `${sha}\n`);
  return join(dir, 'dist');
}

function serve(dir: string): Promise<Server> {
  const files = sirv(dir, { extensions: ['html'], dev: true });
  const server = createServer((req, res) =>
    files(req, res, () => {
      res.statusCode = 404;
      res.end();
    }),
  );
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

const slots = JSON.stringify({
  timeZone: MEETING_TIME_ZONE,
  minutes: MEETING_MINUTES,
  days: meetingDays(FROZEN_NOW).map((day) => ({
    date: day.date,
    slots: day.slots.map((start) => ({ start, available: true })),
  })),
});

interface Shot {
  route: string;
  width: number;
  png: Buffer;
}

const fileName = (route: string, width: number) =>
  `${route === '/' ? 'home' : route.slice(1).replace(/[/&?=]/g, '-')}-${width}`;

/** Full-page PNGs of the given paths at the given widths, keyed by file name (`<name>-<width>`). */
async function shoot(
  browser: Browser,
  base: string,
  targets: ReadonlyArray<{ route: string; width: number }>,
): Promise<Map<string, Shot>> {
  const shots = new Map<string, Shot>();
  for (const width of new Set(targets.map((target) => target.width))) {
    const context = await browser.newContext({
      viewport: { width, height: width < 768 ? 812 : 900 },
      reducedMotion: 'reduce',
      timezoneId: MEETING_TIME_ZONE,
      locale: 'en-GB',
    });
    await context.clock.setFixedTime(FROZEN_NOW);
    await context.addInitScript(() => {
      sessionStorage.setItem('korvel:loader-shown', '1');
      localStorage.setItem('cookies', 'true');
    });
    await context.route('**/api/meeting-slots', (route) =>
      route.fulfill({ contentType: 'application/json', body: slots }),
    );
    const page = await context.newPage();
    // Resolves once no request has been in flight for QUIET_MS (islands fetch code and data after load).
    const pending = new Set<Request>();
    page.on('request', (request) => pending.add(request));
    page.on('requestfinished', (request) => pending.delete(request));
    page.on('requestfailed', (request) => pending.delete(request));
    const quiet = async () => {
      for (let idle = 0; idle < QUIET_MS; idle = pending.size ? 0 : idle + 50) await page.waitForTimeout(50);
    };
    for (const { route: path } of targets.filter((target) => target.width === width)) {
      await page.goto(new URL(encodeURI(path), base).href, { waitUntil: 'networkidle' });
      await page.evaluate(() => {
        document.querySelectorAll('[data-reveal]').forEach((el) => el.classList.add('is-revealed'));
        document
          .querySelectorAll('img[loading="lazy"]')
          .forEach((img) => img.setAttribute('loading', 'eager'));
      });
      // client:visible islands (charts, booking) hydrate only on screen: bring each into view and
      // wait until it has hydrated (Astro drops `ssr`) and its requests (code, data) have finished.
      for (const island of await page.locator('astro-island[client="visible"]').all()) {
        await island.scrollIntoViewIfNeeded();
        await page.waitForFunction((el) => !el.hasAttribute('ssr'), await island.elementHandle());
      }
      await quiet();
      await page.evaluate(async () => {
        window.scrollTo(0, 0);
        // At the top of the page a sticky element sits where a relative one would, but it is drawn on its
        // own layer, whose edges Chromium rasterises a little differently from one load to the next.
        for (const el of document.querySelectorAll<HTMLElement>('*')) {
          if (getComputedStyle(el).position === 'sticky') el.style.cssText += ';position:relative;inset:auto';
        }
        await document.fonts.ready;
        await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      });
      const png = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
      shots.set(fileName(path, width), { route: path, width, png });
    }
    await context.close();
  }
  return shots;
}

/** Pads an image with transparent pixels to width × height, so pages of different heights still compare. */
function padded(image: PNG, width: number, height: number): PNG {
  if (image.width === width && image.height === height) return image;
  const out = new PNG({ width, height });
  PNG.bitblt(image, out, 0, 0, image.width, image.height, 0, 0);
  return out;
}

/** Differing pixels of two PNGs, and the diff image (pages of different heights are padded to the taller). */
function compare(basePng: Buffer, currentPng: Buffer): { count: number; size: string; diff: PNG } {
  const a = PNG.sync.read(basePng);
  const b = PNG.sync.read(currentPng);
  const w = Math.max(a.width, b.width);
  const h = Math.max(a.height, b.height);
  const diff = new PNG({ width: w, height: h });
  const count = pixelmatch(padded(a, w, h).data, padded(b, w, h).data, diff.data, w, h, {
    threshold: 0,
    includeAA: true,
  });
  return { count, diff, size: a.height === b.height ? `${b.width}×${b.height}` : `${a.height}→${b.height}` };
}

const targets = widths.flatMap((width) => paths.map((route) => ({ route, width })));
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
const servers: Server[] = [];
const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  const current = await serve(join(root, 'dist'));
  servers.push(current);
  const currentShots = await shoot(browser, url(current), targets);
  const baseShots = new Map<string, Buffer>();
  let baseUrl: string | undefined;
  if (options.baseline) {
    const dir = resolve(options.baseline);
    for (const key of currentShots.keys()) {
      if (existsSync(join(dir, `${key}.png`))) baseShots.set(key, readFileSync(join(dir, `${key}.png`)));
    }
  } else {
    // By default the commit this branch started from, so that work merged into main meanwhile is no difference.
    const baseline = await serve(buildBaseline(options.base ?? git('merge-base', 'HEAD', 'main')));
    servers.push(baseline);
    baseUrl = url(baseline);
    for (const [key, shot] of await shoot(browser, baseUrl, targets)) baseShots.set(key, shot.png);
  }
  if (options.save) {
    mkdirSync(options.save, { recursive: true });
    for (const [key, shot] of currentShots) writeFileSync(join(options.save, `${key}.png`), shot.png);
  }

  // Chromium now and then rasterises a rounded corner's anti-aliasing one level apart between two loads of
  // one page; a difference counts only when it comes back when both sides are loaded afresh.
  const differs = (key: string) => {
    const basePng = baseShots.get(key);
    return !basePng || compare(basePng, currentShots.get(key)!.png).count > 0;
  };
  const recheck = targets.filter(({ route, width }) => differs(fileName(route, width)));
  if (recheck.length && baseUrl) {
    for (const [key, shot] of await shoot(browser, url(current), recheck)) currentShots.set(key, shot);
    for (const [key, shot] of await shoot(browser, baseUrl, recheck)) baseShots.set(key, shot.png);
  }

  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  let differing = 0;
  const column = Math.max(...paths.map((path) => path.length), 5) + 2;
  console.log(
    `${'route'.padEnd(column)}${'width'.padStart(5)} ${'size'.padStart(12)} ${'differing px'.padStart(13)}`,
  );
  for (const [key, { route, width, png }] of currentShots) {
    const basePng = baseShots.get(key);
    const row = `${route.padEnd(column)}${String(width).padStart(5)}`;
    if (!basePng) {
      differing++;
      console.log(`${row} ${'no baseline'.padStart(26)}`);
      continue;
    }
    const { count, size, diff } = compare(basePng, png);
    console.log(`${row} ${size.padStart(12)} ${String(count).padStart(13)}`);
    if (count > 0) {
      differing++;
      writeFileSync(join(OUT, `${key}-base.png`), basePng);
      writeFileSync(join(OUT, `${key}-current.png`), png);
      writeFileSync(join(OUT, `${key}-diff.png`), PNG.sync.write(diff));
    }
  }
  const rechecked = recheck.length ? ` (${recheck.length} shot again from fresh loads)` : '';
  console.log(
    differing
      ? `${differing} of ${currentShots.size} screenshots differ${rechecked}: see ${OUT}/`
      : `all ${currentShots.size} screenshots identical${rechecked}`,
  );
  process.exitCode = differing ? 1 : 0;
} finally {
  await browser.close();
  for (const server of servers) server.close();
}
