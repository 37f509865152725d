/**
 * `npm run bench:pages`: load timings of built pages in Chromium on a throttled connection and CPU
 * (150 ms RTT, 1.6 Mbit/s down, 4× slower CPU), against the preview server. Each page is loaded RUNS times
 * (default 7) in a fresh browser context, three ways:
 *   first     — a first-time visitor (loader shown, cookie banner pending);
 *   returning — loader already seen this session and cookie consent stored;
 *   baseline  — the same HTML with every <script> removed, measured in the same run: the floor our
 *               scripts are compared with (ratio columns).
 * Prints medians of first contentful paint, largest contentful paint and the load event, in ms.
 * Run `npm run build` first.
 */
import { chromium, type BrowserContext } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import { startPreview } from './preview-server.ts';

const port = Number(process.env.BENCH_PORT ?? 8897);
const runs = Number(process.env.RUNS ?? 7);
const base = `http://127.0.0.1:${port}`;
const pages = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['/', '/pharma', '/about-us/our-team', '/blog/gmp'];

const server = await startPreview(port);

interface Timing {
  fcp: number;
  lcp: number;
  load: number;
}

async function measure(context: BrowserContext, path: string): Promise<Timing> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    const w = window as unknown as { lcp: number };
    w.lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(base + encodeURI(path), { waitUntil: 'load' });
  // Without scripts the load event can come before the first paint; wait for it, then let LCP settle.
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  await page.waitForTimeout(500);
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    return { fcp, lcp: (window as unknown as { lcp: number }).lcp, load: nav.loadEventEnd };
  });
  await page.close();
  return timing;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });

const modes = {
  first: { stripScripts: false, init: () => {} },
  returning: {
    stripScripts: false,
    init: () => {
      sessionStorage.setItem('korvel:loader-shown', '1');
      localStorage.setItem('cookies', 'true');
    },
  },
  baseline: { stripScripts: true, init: () => {} },
} as const;

/**
 * Every mode receives its documents through the same interception (which skips the emulated network), so
 * they differ only in the HTML: the baseline's has no scripts, so the page's own JavaScript never runs.
 */
async function serveDocuments(context: BrowserContext, stripScripts: boolean) {
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    if (!stripScripts) return route.fulfill({ response });
    const html = (await response.text()).replace(
      /<script\b(?![^>]*application\/ld\+json)[\s\S]*?<\/script>/g,
      '',
    );
    await route.fulfill({ response, body: html });
  });
}

console.log(`${runs} runs per page and mode; medians in ms (ratio to the script-free baseline)\n`);
console.log(
  `${'page'.padEnd(22)}${'mode'.padEnd(11)}${'FCP'.padStart(16)}${'LCP'.padStart(16)}${'load'.padStart(16)}`,
);
try {
  for (const path of pages) {
    const results: Record<string, Timing> = {};
    for (const [mode, options] of Object.entries(modes)) {
      const samples: Timing[] = [];
      for (let i = 0; i < runs; i += 1) {
        const context = await browser.newContext();
        await context.addInitScript(options.init);
        await serveDocuments(context, options.stripScripts);
        samples.push(await measure(context, path));
        await context.close();
      }
      results[mode] = {
        fcp: median(samples.map((s) => s.fcp)),
        lcp: median(samples.map((s) => s.lcp)),
        load: median(samples.map((s) => s.load)),
      };
    }
    const floor = results.baseline!;
    for (const [mode, t] of Object.entries(results)) {
      const cell = (value: number, against: number) =>
        `${Math.round(value)}${mode === 'baseline' ? '' : ` (${(value / (against || 1)).toFixed(2)}×)`}`.padStart(
          16,
        );
      console.log(
        `${(mode === 'first' ? path : '').padEnd(22)}${mode.padEnd(11)}${cell(t.fcp, floor.fcp)}${cell(t.lcp, floor.lcp)}${cell(t.load, floor.load)}`,
      );
    }
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
