/**
 * `npm run bench:lighthouse`: Lighthouse on every route against the preview server, reached over HTTPS and
 * HTTP/2 as Netlify serves the site (scripts/bench/preview-server.ts, `startSecurePreview`), in its default mobile
 * preset (a 412 × 823 phone, simulated slow 4G and a 4× slower CPU), three runs per route with storage
 * cleared before each, so every run is a first visit (loader and cookie banner included). The routes are
 * those of src/routes.ts, every other page of the built sitemap (the case studies), one page of each
 * pre-rendered filter (blog division, blog topic, reference filter) and a path that answers 404. Prints a
 * Markdown table of the medians: the four category scores, LCP, TBT, CLS, the bytes transferred and
 * Lighthouse's CPU benchmark of the host (`benchmarkIndex`; a busy machine scores low, and its performance
 * figures are noise), then every audit that kept a route below 100 in accessibility, best practices or SEO.
 *
 * Pages kept out of search engines on purpose (not in the sitemap: thanks, search, admin sign-in, filters)
 * skip `is-crawlable`, the audit that they are indexable; the not-found page also skips `http-status-code`
 * (it answers 404 by design) and its console's own 404 entry. The table marks those rows.
 * Run `npm run build` first.
 *
 *   npm run bench:lighthouse -- --routes /,/contact --runs 5 --reports /tmp/lighthouse
 *
 * `--reports DIR` also writes each run's JSON report there (the Lighthouse viewer opens them).
 * BENCH_PORT (default 8898) is the preview server's port, CHROME_PORT the browser's debugging port (default:
 * any free one). Exits non-zero only when a tool fails (server, browser or a Lighthouse run), never on a score.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import { routes } from '../../src/routes.ts';
import { site } from '../../src/site.config.ts';
import { readSitemaps } from '../lib/dist-checks/feeds.ts';
import { normalisePath, readSite } from '../lib/dist-checks/site.ts';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import { median } from './lib/median.ts';
import { startSecurePreview } from './preview-server.ts';

/** A path no route declares: the preview answers it with 404.html and status 404, as Netlify does. */
const NOT_FOUND = '/no-such-page';
/** /admin sends a visitor without a session straight on to /admin/login, which is measured in its own row. */
const REDIRECTS = new Set(['/admin']);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const { values: options } = parseArgs({
  options: {
    routes: { type: 'string' },
    runs: { type: 'string', default: '3' },
    reports: { type: 'string' },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number ≥ 1, not ${options.runs}`);

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The paths of the built sitemap (the pages search engines are meant to index). */
function sitemapPaths(): Set<string> {
  const sitemaps = readSitemaps(readSite(dist), site.url);
  if (!sitemaps.length) throw new Error('dist/ has no sitemap: run `npm run build` first');
  return new Set(
    sitemaps.flatMap(({ urls }) => (urls ?? []).map((url) => normalisePath(new URL(url).pathname))),
  );
}

/** The first pre-rendered page of each filter route, e.g. /blog/division/chemicals. */
function filterSamples(): string[] {
  return ['blog/division', 'blog/topic', 'our-references/filter'].flatMap((dir) => {
    const folder = join(dist, dir);
    const first = existsSync(folder) ? readdirSync(folder).sort()[0] : undefined;
    return first ? [`/${dir}/${first}`] : [];
  });
}

const indexed = sitemapPaths();
const declared = routes.map((route) => route.path).filter((path) => !REDIRECTS.has(path));
const paths = options.routes
  ? options.routes.split(',').map((path) => path.trim())
  : [...new Set([...declared, ...indexed, ...filterSamples()]), NOT_FOUND];

/** Lighthouse flags and config for a path: what a page deliberately kept out of search engines skips. */
function setupFor(path: string): { flags: Flags; config?: Config; mark: string } {
  if (path === NOT_FOUND)
    return {
      flags: { skipAudits: ['is-crawlable', 'http-status-code'], ignoreStatusCode: true },
      config: {
        extends: 'lighthouse:default',
        // HTTP/1.1 names the status ("404 (Not Found)"), HTTP/2 has no reason phrase ("404 ()").
        audits: [
          { path: 'errors-in-console', options: { ignoredPatterns: [/status of 404 \((Not Found)?\)$/] } },
        ],
      },
      mark: ' ‡',
    };
  if (!indexed.has(path)) return { flags: { skipAudits: ['is-crawlable'] }, mark: ' †' };
  return { flags: {}, mark: '' };
}
const setups = new Map(paths.map((path) => [path, setupFor(path)]));

const port = Number(process.env.BENCH_PORT ?? 8898);

interface Sample {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  /** Lighthouse's CPU benchmark of the host during the run: lower means a busier or slower machine. */
  benchmarkIndex: number;
  /** Audits below full marks in the three pass/fail categories: `category: audit id (title)`. */
  failing: string[];
}

function sampleOf(lhr: Result): Sample {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100)]),
  ) as Sample['scores'];
  const failing = CATEGORIES.filter((id) => id !== 'performance').flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${id}: ${ref.id} (${lhr.audits[ref.id]?.title})`),
  );
  return {
    scores,
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    bytes: audit('total-byte-weight'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failing,
  };
}

const preview = await startSecurePreview(port);
const { origin: base, plainOrigin, chromiumFlags } = preview;

// The preview's first answer is slow while its handlers warm up, which a CDN's is not; Lighthouse would take
// that delay for the server's response time, so every page is fetched once before it is measured.
const chrome = await (async () => {
  try {
    for (const path of paths) await (await fetch(plainOrigin + encodeURI(path))).arrayBuffer();
    const launched = await chromeLauncher.launch({
      chromePath: chromiumPath(),
      chromeFlags: [...chromiumArgs, ...chromiumFlags, '--headless=new'],
      port: Number(process.env.CHROME_PORT ?? 0),
    });
    // chrome-launcher stops the browser on Ctrl-C only; on SIGTERM the bench's exit does (startPreview).
    process.once('exit', () => launched.kill());
    return launched;
  } catch (error) {
    preview.stop();
    throw error;
  }
})();

/** Retries a run Lighthouse itself calls flaky (a lost trace, NO_NAVSTART and the like) up to twice. */
async function measure(path: string, attempt = 1): Promise<Result> {
  const { flags, config } = setups.get(path)!;
  const result = await lighthouse(
    base + encodeURI(path),
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableFullPageScreenshot: true,
      ...flags,
    },
    config,
  );
  if (!result) throw new Error(`Lighthouse returned no result for ${path}`);
  const error = result.lhr.runtimeError;
  if (!error) return result.lhr;
  if (attempt < 3) {
    process.stderr.write(`${path}: ${error.code}, running again\n`);
    return measure(path, attempt + 1);
  }
  throw new Error(`Lighthouse failed on ${path}: ${error.message}`);
}

let version = '';
const rows: string[] = [];
const notes: string[] = [];
try {
  if (options.reports) mkdirSync(options.reports, { recursive: true });
  for (const path of paths) {
    const samples: Sample[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const lhr = await measure(path);
      version = lhr.lighthouseVersion;
      if (options.reports) {
        const name = `${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}.${run}.json`;
        writeFileSync(`${options.reports}/${name}`, JSON.stringify(lhr));
      }
      samples.push(sampleOf(lhr));
      process.stderr.write(`${path} run ${run}/${runs}: performance ${samples.at(-1)!.scores.performance}\n`);
    }
    const of = (pick: (sample: Sample) => number) => median(samples.map(pick));
    rows.push(
      [
        `\`${path}\`${setups.get(path)!.mark}`,
        ...CATEGORIES.map((id) => String(Math.round(of((s) => s.scores[id])))),
        `${(of((s) => s.lcp) / 1000).toFixed(1)} s`,
        `${Math.round(of((s) => s.tbt))} ms`,
        of((s) => s.cls).toFixed(3),
        `${Math.round(of((s) => s.bytes) / 1024)} KB`,
        String(Math.round(of((s) => s.benchmarkIndex))),
      ].join(' | '),
    );
    const failing = new Set(samples.flatMap((s) => s.failing));
    if (failing.size) notes.push(`- \`${path}\`: ${[...failing].join('; ')}`);
  }
} finally {
  chrome.kill();
  preview.stop();
}

console.log(
  `Lighthouse ${version}, mobile preset over HTTPS and HTTP/2, median of ${runs} run${runs === 1 ? '' : 's'} per route, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log(
  '| route | performance | accessibility | best practices | SEO | LCP | TBT | CLS | transferred | host CPU index |',
);
console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |');
for (const row of rows) console.log(`| ${row} |`);
const marks = [...setups.values()].map((setup) => setup.mark);
if (marks.includes(' †'))
  console.log(
    '\n† kept out of search engines on purpose (noindex, not in the sitemap): `is-crawlable` is not run.',
  );
if (marks.includes(' ‡'))
  console.log(
    '‡ the not-found page answers 404 on purpose: `is-crawlable`, `http-status-code` and the console entry for its own 404 status are not counted.',
  );
if (notes.length)
  console.log(`\nAudits below full marks (accessibility, best practices, SEO):\n${notes.join('\n')}`);
