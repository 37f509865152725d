/**
 * `npm run bench:insight`: the page beacon (POST /api/collect) at fixed rates through the preview server (the
 * deployed bundles, warm) on a fresh embedded database, each rate followed by GET /api/health at the same rate
 * in the same run as the floor. Prints throughput, p50 and p99 latency in ms, errors, the page views counted
 * and the counter rows written: storage grows with days × pages, not with beacons.
 * Then the same beacons in-process, one after another, against embedded PGlite: the handler's own cost.
 * Run `npm run build` first. DURATION (seconds per scenario, default 10), RATES (default 50,100,200,300) and
 * BENCH_PORT (default 8904) change the run.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { useDatabase } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/open.ts';
import { route } from '../../src/server/http.ts';
import { collectHandler } from '../../src/server/insight/collect.ts';
import { migrate } from '../../src/server/migrate.ts';
import { INSIGHT_TABLES } from '../../src/server/repositories/insight.ts';

const port = Number(process.env.BENCH_PORT ?? 8904);
const duration = Number(process.env.DURATION ?? 10);
const rates = (process.env.RATES ?? '50,100,200,300').split(',').map(Number);
const base = `http://127.0.0.1:${port}`;
const dataDir = '.data/bench-insight';
for (const path of [dataDir, `${dataDir}.admin.json`, `${dataDir}.lock`])
  rmSync(path, { recursive: true, force: true });

const server = spawn(process.execPath, ['scripts/preview.ts'], {
  env: { ...process.env, PORT: String(port), KORVEL_DATA_DIR: dataDir, DATABASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const banner = await new Promise<string>((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.includes('Dev owner:')) resolve(text);
  });
  server.on('exit', (code) => reject(new Error(`preview server exited with ${code}`)));
});
const db = new pg.Client({ connectionString: /at (postgres:\/\/\S+)/.exec(banner)![1]! });
await db.connect();

/** A mix of what real beacons carry: twelve pages, three widths, entries, searches and vitals. */
const PAGES = [
  '/',
  '/pharma',
  '/food',
  '/chemicals',
  '/contact',
  '/blog',
  '/blog/gmp',
  '/blog/closed-systems',
  '/our-services',
  '/our-references',
  '/about-us/who-are-we',
  '/career',
];
const bodies = Array.from({ length: 60 }, (_, i) =>
  JSON.stringify({
    path: PAGES[i % PAGES.length],
    width: [375, 1024, 1440][i % 3],
    ...(i % 4 === 0
      ? { referrer: ['google.com', 'linkedin.com'][i % 2], utm: { source: 'linkedin', campaign: 'annex 1' } }
      : { referrer: '127.0.0.1' }),
    ...(i % 10 === 0 && { searches: [{ query: `cleanroom ${i % 3}`, results: i % 2 }] }),
    vitals: {
      LCP: 800 + i * 40,
      FCP: 500 + i * 20,
      TTFB: 80 + i * 5,
      CLS: (i % 7) / 100,
      ...(i % 2 === 0 && { INP: 40 + i * 3 }),
    },
  }),
);
const beaconHeaders = {
  'content-type': 'text/plain;charset=UTF-8',
  origin: base,
  'sec-fetch-site': 'same-origin',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

async function counters(client: { query: (sql: string) => Promise<{ rows: { n: number }[] }> } = db) {
  let rows = 0;
  for (const table of INSIGHT_TABLES)
    rows += (await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  const views = (await client.query('SELECT coalesce(sum(views), 0)::int AS n FROM insight_page_views'))
    .rows[0]!.n;
  return { rows, views };
}

async function run(rate: number, path: string, requests?: autocannon.Request[]) {
  const result = await autocannon({
    url: `${base}${path}`,
    connections: 10,
    overallRate: rate,
    duration,
    ...(requests && { requests }),
  });
  return {
    requests: result.requests.total,
    throughput: result.requests.total / duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

// Warm-up: the first calls start the bundle and the database connection.
await run(20, '/api/health');
const table = [
  [
    'rate/s',
    'sent',
    'throughput/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'views counted',
    'rows written',
    'health p50',
    'health p99',
    'health errors',
  ],
];
for (const rate of rates) {
  const before = await counters();
  const collect = await run(
    rate,
    '/api/collect',
    bodies.map((body) => ({ method: 'POST', path: '/api/collect', headers: beaconHeaders, body })),
  );
  const after = await counters();
  const health = await run(rate, '/api/health');
  table.push([
    String(rate),
    String(collect.requests),
    collect.throughput.toFixed(0),
    String(collect.p50),
    String(collect.p99),
    String(collect.errors),
    String(after.views - before.views),
    String(after.rows - before.rows),
    String(health.p50),
    String(health.p99),
    String(health.errors),
  ]);
}
const total = await counters();
await db.end();
server.kill('SIGTERM');

const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
console.log(
  `\nPOST /api/collect, ${duration} s per rate, 10 connections; then GET /api/health at the same rate\n`,
);
for (const [i, row] of table.entries()) {
  console.log(
    `| ${row.map((cell, c) => (c === 0 && i === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`,
  );
  if (i === 0) console.log(`| ${widths.map((w) => '-'.repeat(w - 1) + ':').join(' | ')} |`);
}
console.log(
  `\n${total.views} page views in ${total.rows} counter rows (the day's rows for ${PAGES.length} pages).`,
);

// In-process, without HTTP and the preview's one-call-at-a-time queue: the handler and the database alone.
const local = await openDb('');
await migrate(local);
useDatabase(local);
process.env.JWT_SECRET ??= 'bench-secret-bench-secret-bench-secret-42';
const collect = route('bench-collect', { POST: collectHandler });
const times: number[] = [];
const started = performance.now();
for (let i = 0; i < 3000; i++) {
  const t0 = performance.now();
  const reply = await collect(
    new Request(`${base}/api/collect`, {
      method: 'POST',
      headers: beaconHeaders,
      body: bodies[i % bodies.length],
    }),
    { ip: '10.0.0.1', params: {} },
  );
  if (reply.status !== 204) throw new Error(`expected 204, got ${reply.status}`);
  times.push(performance.now() - t0);
}
const seconds = (performance.now() - started) / 1000;
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.floor((times.length - 1) * p)]!.toFixed(2);
const counted = await counters({ query: async (sql) => ({ rows: await local.query<{ n: number }>(sql) }) });
console.log(
  `In-process on embedded PGlite, one beacon after another: ${times.length} beacons in ${seconds.toFixed(1)} s ` +
    `(${(times.length / seconds).toFixed(0)}/s), p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, ` +
    `${counted.views} views in ${counted.rows} rows.`,
);
await local.close();
