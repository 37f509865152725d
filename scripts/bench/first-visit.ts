/**
 * `npm run bench:bytes`: what a phone's first visit to each page transfers, by type, and what a returning
 * visit to another page then transfers. Unlike Lighthouse's timings these bytes do not move with a busy host,
 * so they are the quick measure of issue 38's budgets (120 KB a first visit, 15 KB a returning one).
 *
 * Chromium opens each page against the preview server in a fresh context (empty cache and storage, so the
 * loader runs and the cookie banner is pending, as in a Lighthouse run) at Lighthouse's mobile size, waits
 * until the network is quiet, and sums the compressed bytes each request took off the wire (headers included,
 * CDP `encodedDataLength`) by type: HTML, CSS, fonts, images, scripts, other. Then the same context opens the
 * next page of the list: that is the returning visit, served from the browser's cache where the headers
 * allow it. Routes: the first route of each kind in src/routes.ts (home, page, divisions, sector, reference,
 * initiative, list, news, article, legal, thanks, search) in both languages, `--all` for every route (the
 * admin's too), or `--routes /,/de/contact`. BENCH_PORT (default 8899) is the preview server's port. Run `npm run build` first.
 *
 *   npm run bench:bytes -- --routes /,/blog/gmp,/de/blog/gmp
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import { PHONE, routePaths, total, TYPES, visitBytes, type Bytes } from './lib/first-visit.ts';
import { printTable } from './lib/table.ts';
import { startPreview } from './preview-server.ts';

const { values: options } = parseArgs({
  options: { routes: { type: 'string' }, all: { type: 'boolean', default: false } },
});
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const paths = options.routes
  ? options.routes.split(',').map((path) => path.trim())
  : routePaths(dist, options.all);

interface Row {
  path: string;
  first: Bytes;
  /** The next route of the list, opened after `path` in the same browser. */
  returning: { path: string; bytes: number };
}

async function measure(browser: Browser, path: string, next: string): Promise<Row> {
  const context = await browser.newContext(PHONE);
  try {
    const first = await visitBytes(context, base + encodeURI(path));
    const returning = total(await visitBytes(context, base + encodeURI(next)));
    return { path, first, returning: { path: next, bytes: returning } };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const port = Number(process.env.BENCH_PORT ?? 8899);
const base = `http://127.0.0.1:${port}`;
const server = await startPreview(port);
const rows: Row[] = [];
try {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  // Two pages at a time: the bytes do not depend on timing, and the slow network's waits dominate.
  const queue = paths.map((path, index) => [path, paths[(index + 1) % paths.length]!] as const);
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const row = await measure(browser, ...item);
      rows.push(row);
      // A line per route as it is measured: `--all` runs for a quarter of an hour before the table.
      process.stderr.write(
        `${rows.length}/${paths.length} ${row.path}: first visit ${kb(total(row.first))} KB, returning ${kb(row.returning.bytes)} KB\n`,
      );
    }
  };
  await Promise.all([worker(), worker()]);
  await browser.close();
} finally {
  server.kill('SIGTERM');
}

rows.sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path));
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
