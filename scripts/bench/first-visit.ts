/**
 * `npm run bench:bytes`: what a phone's first visit to each page transfers, by type, and what a returning
 * visit to another page then transfers. Unlike Lighthouse's timings these bytes do not move with a busy host,
 * so they are the quick measure of issue 38's budgets (120 KB a first visit, 15 KB a returning one).
 *
 * Chromium opens each page against the preview server in a fresh context (empty cache and storage, so the
 * loader runs and the cookie banner is pending, as in a Lighthouse run) at Lighthouse's mobile size, waits
 * past the banner's 4 s, and sums the compressed bytes each request took off the wire (headers included,
 * CDP `encodedDataLength`) by type: HTML, CSS, fonts, images, scripts, other. Then the same context opens the
 * next page of the list: that is the returning visit, served from the browser's cache where the headers
 * allow it. Routes: the first route of each kind in src/routes.ts (home, page, divisions, sector, reference,
 * initiative, list, news, article, legal, thanks, search) in both languages, `--all` for every route but the
 * admin, or `--routes /,/de/contact`. BENCH_PORT (default 8899) is the preview server's port. Run `npm run build` first.
 *
 *   npm run bench:bytes -- --routes /,/blog/gmp,/de/blog/gmp
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { languages, localePath } from '../../src/i18n/lang.ts';
import { routes } from '../../src/routes.ts';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import { printTable } from './lib/table.ts';
import { startPreview } from './preview-server.ts';

const TYPES = ['html', 'css', 'font', 'image', 'script', 'other'] as const;
type Kind = (typeof TYPES)[number];
/** Past the cookie banner's 4 s (SPEC): by then its island has loaded, as Lighthouse counts it. */
const SETTLE_MS = 4500;
/**
 * Lighthouse's slow 4G as its DevTools throttling applies it (150 ms round trips × 3.75, 1.6 Mbit/s × 0.9).
 * The browser sizes its look-ahead for lazy images by the network it sees (2,500 px on this one), so a fast
 * loopback would load fewer images than the phone does, and fewer than Lighthouse counts.
 */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 0.9 * 1024) / 8,
};
/** Lighthouse's mobile preset: a 412 × 823 phone at 1.75 device pixels per CSS pixel. */
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

const { values: options } = parseArgs({
  options: { routes: { type: 'string' }, all: { type: 'boolean', default: false } },
});
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const built = (path: string) => existsSync(join(dist, decodeURIComponent(path), 'index.html'));
const paths = options.routes
  ? options.routes.split(',').map((path) => path.trim())
  : languages.flatMap((lang) =>
      routes
        .filter(
          (route, index) =>
            route.kind !== 'admin' &&
            (options.all || routes.findIndex((other) => other.kind === route.kind) === index),
        )
        .map((route) => localePath(lang, route.path))
        .filter(built),
    );

function kindOf(resourceType: string, mimeType: string): Kind {
  if (resourceType === 'Document') return 'html';
  if (resourceType === 'Stylesheet') return 'css';
  if (resourceType === 'Font') return 'font';
  if (resourceType === 'Image' || mimeType.startsWith('image/')) return 'image';
  if (resourceType === 'Script') return 'script';
  return 'other';
}

type Bytes = Record<Kind, number>;
const total = (bytes: Bytes) => TYPES.reduce((sum, kind) => sum + bytes[kind], 0);

/** Opens `path` in the context's page and returns the bytes each type took off the wire. */
async function visit(context: BrowserContext, path: string): Promise<Bytes> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const kinds = new Map<string, Kind>();
  const bytes = Object.fromEntries(TYPES.map((kind) => [kind, 0])) as Bytes;
  cdp.on('Network.responseReceived', ({ requestId, type, response }) =>
    kinds.set(requestId, kindOf(type, response.mimeType)),
  );
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    bytes[kinds.get(requestId) ?? 'other'] += encodedDataLength;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.goto(base + encodeURI(path), { waitUntil: 'load' });
  await page.waitForTimeout(SETTLE_MS);
  await page.close();
  return bytes;
}

interface Row {
  path: string;
  first: Bytes;
  /** The next route of the list, opened after `path` in the same browser. */
  returning: { path: string; bytes: number };
}

async function measure(browser: Browser, path: string, next: string): Promise<Row> {
  const context = await browser.newContext(PHONE);
  try {
    const first = await visit(context, path);
    const returning = total(await visit(context, next));
    return { path, first, returning: { path: next, bytes: returning } };
  } finally {
    await context.close();
  }
}

const port = Number(process.env.BENCH_PORT ?? 8899);
const base = `http://127.0.0.1:${port}`;
const server = await startPreview(port);
const rows: Row[] = [];
try {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  // Two pages at a time: the bytes do not depend on timing, and the wait past the banner dominates.
  const queue = paths.map((path, index) => [path, paths[(index + 1) % paths.length]!] as const);
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) rows.push(await measure(browser, ...item));
  };
  await Promise.all([worker(), worker()]);
  await browser.close();
} finally {
  server.kill('SIGTERM');
}

rows.sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path));
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
console.log(
  `First visits (empty cache, ${PHONE.viewport.width} px phone), KB transferred; then a returning visit\n`,
);
printTable(
  ['route', ...TYPES, 'first visit', 'returning visit to', 'KB'],
  rows.map((row) => [
    `\`${row.path}\``,
    ...TYPES.map((kind) => kb(row.first[kind])),
    kb(total(row.first)),
    `\`${row.returning.path}\``,
    kb(row.returning.bytes),
  ]),
);
const firsts = rows.map((row) => total(row.first));
const returns = rows.map((row) => row.returning.bytes);
console.log(
  `\n${rows.length} routes · first visit ${kb(Math.min(...firsts))}–${kb(Math.max(...firsts))} KB · returning ${kb(
    Math.min(...returns),
  )}–${kb(Math.max(...returns))} KB · over 120 KB first: ${firsts.filter((b) => b > 120 * 1024).length} · over 15 KB returning: ${
    returns.filter((b) => b > 15 * 1024).length
  }`,
);
