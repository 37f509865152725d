/**
 * `npm run bench:main-thread`: where a first visit's main-thread time goes, from Chromium's own trace. Lighthouse's
 * simulated run replays the unthrottled load's main-thread tasks four times slower, so its TBT and much of its LCP
 * are this work: what lies before the first contentful paint delays it, and the tasks after it count in TBT. On a
 * shared host Lighthouse's figures move by hundreds of milliseconds from run to run; the counts here (how many
 * layouts, of how many layout objects, and why) do not, and the times are medians of several loads.
 *
 * Each load opens the page in a fresh context (empty cache, so the loader runs, as in a Lighthouse run) at
 * Lighthouse's phone size on the unthrottled loopback, traces it until the network has been quiet for a second,
 * and reads the page's renderer main thread: the first contentful paint, the tasks' total, style and layout time,
 * the layouts and how many objects each laid out, the layout and style time after the first paint, the font
 * look-ups (on Linux each font size of a system font asks the browser process for its rendering settings:
 * `GetWebFontRenderStyleForStrike`) and script evaluation.
 *
 *   npm run bench:main-thread -- --routes /,/blog/gmp --runs 7
 *   npm run bench:main-thread -- --routes /blog/gmp --detail
 *
 * `--detail` prints one load's layouts with the reasons Chromium recorded for them and its tasks of 12 ms or more,
 * each with what it ran at its top level (2 ms or more; a script's file where the trace names it).
 * To compare two builds, copy each into `dist/` in turn and run this on each, twice, alternating. BENCH_PORT
 * (default 8905) is the port of the preview this starts. Run `npm run build` first.
 */
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import { PHONE } from './lib/first-visit.ts';
import { median } from './lib/median.ts';
import { printTable } from './lib/table.ts';
import { startPreview } from './preview-server.ts';

const { values: options } = parseArgs({
  options: {
    routes: { type: 'string', default: '/,/blog/gmp,/contact' },
    runs: { type: 'string', default: '5' },
    detail: { type: 'boolean', default: false },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number ≥ 1, not ${options.runs}`);
const paths = options.routes.split(',').map((path) => path.trim());

/** A trace event as Chromium's JSON trace format writes it (times in microseconds). */
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    frame?: string;
    data?: { reason?: string; url?: string; functionName?: string };
    beginData?: { dirtyObjects?: number; totalObjects?: number; frame?: string };
  };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.invalidationTracking',
  'loading',
  'toplevel',
  'v8.execute',
  'fonts',
];
/** The network counts as quiet after this long without a request; nothing on a page loads on a timer. */
const QUIET_MS = 1000;
/** The scheduler's own events around a task's work, which `--detail` looks through. */
const WRAPPER = /RunTask|ThreadController|TaskAnnotator/;

/** Tasks this long or longer are listed by `--detail`; Lighthouse's 4× turns 12.5 ms into a long task. */
const DETAIL_TASK_MS = 12;

interface Load {
  fcp: number;
  tasks: number;
  style: number;
  layout: number;
  layouts: number;
  /** Style and layout that began after the first contentful paint, which falls in TBT's window. */
  afterPaint: number;
  fontLookups: number;
  fontLookupMs: number;
  script: number;
  detail: string[];
}

/** One load's trace, and its first contentful paint in ms from the navigation's start as the page reports it. */
async function trace(browser: Browser, url: string): Promise<{ events: TraceEvent[]; paint: number }> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    // The protocol types the events as string maps; they are Chromium's JSON trace events.
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    let last = Date.now();
    page.on('request', () => (last = Date.now()));
    page.on('requestfinished', () => (last = Date.now()));
    page.on('requestfailed', () => (last = Date.now()));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: CATEGORIES },
      transferMode: 'ReportEvents',
    });
    await page.goto(url, { waitUntil: 'load' });
    while (Date.now() - last < QUIET_MS) await page.waitForTimeout(100);
    const paint = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    );
    await cdp.send('Tracing.end');
    await complete;
    return { events, paint };
  } finally {
    await context.close();
  }
}

const ms = (us: number) => us / 1000;

/** Reads one load's trace: the renderer main thread that painted the page's first content. */
function analyse({ events, paint }: { events: TraceEvent[]; paint: number }, withDetail: boolean): Load {
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('the trace holds no first contentful paint');
  const main = events.filter((event) => event.pid === fcp.pid && event.tid === fcp.tid);
  // The trace's clock has no fixed zero, and a renderer started for the navigation (the site's COOP header
  // starts one) does not always record its navigationStart: the page's own paint time places the start.
  if (Number.isNaN(paint)) throw new Error('the page reports no first contentful paint');
  const start = fcp.ts - paint * 1000;
  const complete = main.filter((event) => event.ph === 'X' && event.dur !== undefined);
  const sum = (name: string) =>
    complete.filter((event) => event.name === name).reduce((total, event) => total + event.dur!, 0);
  const tasks = complete.filter((event) => event.name === 'RunTask');
  // The page's own layouts; an SVG picture is a document of its own, laid out on the same thread.
  const layouts = complete.filter(
    (event) => event.name === 'Layout' && event.args?.beginData?.frame === fcp.args?.frame,
  );
  const afterPaint = complete
    .filter((event) => (event.name === 'Layout' || event.name === 'UpdateLayoutTree') && event.ts >= fcp.ts)
    .reduce((total, event) => total + event.dur!, 0);
  const lookups = events.filter(
    (event) =>
      event.pid === fcp.pid && event.name === 'WebSandboxSupportLinux::GetWebFontRenderStyleForStrike',
  );
  const detail: string[] = [];
  if (withDetail) {
    const invalidations = events.filter(
      (event) =>
        event.pid === fcp.pid && event.cat.includes('invalidationTracking') && event.args?.data?.reason,
    );
    let since = start;
    for (const layout of layouts.sort((a, b) => a.ts - b.ts)) {
      const reasons = new Map<string, number>();
      for (const event of invalidations)
        if (event.ts > since && event.ts <= layout.ts) {
          const reason = event.args!.data!.reason!;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      since = layout.ts;
      const objects = `${layout.args?.beginData?.dirtyObjects ?? '?'} of ${layout.args?.beginData?.totalObjects ?? '?'}`;
      const why = [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${reason} ×${count}`);
      detail.push(
        `layout at ${ms(layout.ts - start).toFixed(0)} ms, ${ms(layout.dur!).toFixed(1)} ms, ${objects} objects: ${why.join(', ') || '–'}`,
      );
    }
    /** The events of `events` that lie inside `outer`. */
    const within = (outer: TraceEvent, events: TraceEvent[]) =>
      events.filter(
        (event) => event !== outer && event.ts >= outer.ts && event.ts + event.dur! <= outer.ts + outer.dur!,
      );
    for (const task of tasks.filter((event) => ms(event.dur!) >= DETAIL_TASK_MS)) {
      const inside = within(task, complete);
      const by = new Map<string, number>();
      for (const name of [
        'ParseHTML',
        'UpdateLayoutTree',
        'Layout',
        'Paint',
        'v8.evaluateModule',
        'EvaluateScript',
      ])
        by.set(
          name,
          inside.filter((event) => event.name === name).reduce((total, event) => total + event.dur!, 0),
        );
      const parts = [...by]
        .filter(([, dur]) => ms(dur) >= 0.5)
        .map(([name, dur]) => `${name} ${ms(dur).toFixed(1)}`);
      // What the task ran at its top level (events inside no other), looking through the scheduler's wrappers, with
      // the script's file where the trace names it.
      const topOf = (events: TraceEvent[]) =>
        events.filter((event) => !events.some((outer) => outer !== event && within(outer, [event]).length));
      let top = topOf(inside);
      for (let depth = 0; depth < 5 && top.some((event) => WRAPPER.test(event.name)); depth++)
        top = top.flatMap((event) => (WRAPPER.test(event.name) ? topOf(within(event, inside)) : [event]));
      const ran = new Map<string, number>();
      for (const event of top) {
        const url = event.args?.data?.url?.split('/').pop();
        const label = url ? `${event.name} ${url}` : event.name;
        ran.set(label, (ran.get(label) ?? 0) + event.dur!);
      }
      const ranParts = [...ran]
        .filter(([, dur]) => ms(dur) >= 2)
        .sort((a, b) => b[1] - a[1])
        .map(([label, dur]) => `${label} ${ms(dur).toFixed(1)}`);
      const when = task.ts >= fcp.ts ? 'after' : 'before';
      detail.push(
        `task at ${ms(task.ts - start).toFixed(0)} ms (${when} the first paint), ${ms(task.dur!).toFixed(1)} ms: ${parts.join(', ') || '–'}` +
          (ranParts.length ? `\n  ran: ${ranParts.join(', ')}` : ''),
      );
    }
  }
  return {
    fcp: paint,
    tasks: ms(tasks.reduce((total, event) => total + event.dur!, 0)),
    style: ms(sum('UpdateLayoutTree')),
    layout: ms(sum('Layout')),
    layouts: layouts.length,
    afterPaint: ms(afterPaint),
    fontLookups: lookups.length,
    fontLookupMs: ms(lookups.reduce((total, event) => total + (event.dur ?? 0), 0)),
    script: ms(sum('v8.evaluateModule') + sum('EvaluateScript') + sum('FunctionCall')),
    detail,
  };
}

const COLUMNS = [
  ['fcp', 'first paint ms'],
  ['tasks', 'main thread ms'],
  ['style', 'style ms'],
  ['layout', 'layout ms'],
  ['layouts', 'layouts'],
  ['afterPaint', 'style+layout after paint ms'],
  ['fontLookups', 'font look-ups'],
  ['fontLookupMs', 'look-ups ms'],
  ['script', 'script ms'],
] as const;

const port = Number(process.env.BENCH_PORT ?? 8905);
const origin = `http://127.0.0.1:${port}`;
const server = await startPreview(port);
const rows: string[][] = [];
try {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  for (const path of paths) {
    const loads: Load[] = [];
    for (let run = 0; run < runs; run++) {
      const load = analyse(await trace(browser, origin + encodeURI(path)), options.detail && run === 0);
      loads.push(load);
      process.stderr.write(`${path} run ${run + 1}/${runs}\n`);
      if (load.detail.length) console.log(`\n${path}, one load:\n${load.detail.join('\n')}\n`);
    }
    rows.push([`\`${path}\``, ...COLUMNS.map(([key]) => median(loads.map((load) => load[key])).toFixed(0))]);
  }
  await browser.close();
} finally {
  server.kill('SIGTERM');
}

console.log(`Unthrottled first visits at ${PHONE.viewport.width} px, medians of ${runs} loads per route\n`);
printTable(['route', ...COLUMNS.map(([, label]) => label)], rows);
