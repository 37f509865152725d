/**
 * `npm run bench:api`: latency of the functions under a fixed request rate, through the preview server
 * (the deployed bundles, warm) against an embedded database seeded with 10,000 subscribers.
 * Each scenario runs for DURATION seconds (default 10) at its rate, then GET /api/health — which does not
 * touch the database — runs at the same rate in the same run as the floor the scenario is compared with.
 * Prints p50 and p99 latency in ms, errors (non-2xx or failed requests) and the ratio to health.
 * Also prints, in-process, how long a failed login takes for an unknown e-mail and for a wrong password.
 * Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { useDatabase } from '../../src/server/config.ts';
import { login } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';
import { listSubscribersHandler } from '../../src/server/newsletter.ts';
import { openDb } from '../../src/server/db/open.ts';
import { migrate } from '../../src/server/migrate.ts';
import { hashPassword } from '../../src/server/password.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';

const port = Number(process.env.BENCH_PORT ?? 8896);
const duration = Number(process.env.DURATION ?? 10);
const base = `http://127.0.0.1:${port}`;
const dataDir = '.data/bench';
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
const databaseUrl = /at (postgres:\/\/\S+)/.exec(banner)![1]!;
const admin = JSON.parse(readFileSync(`${dataDir}.admin.json`, 'utf8')) as {
  email: string;
  password: string;
};

const seed = new pg.Client({ connectionString: databaseUrl });
await seed.connect();
await seed.query(
  `INSERT INTO subscribers (email, created_at, consent_version, source_page)
   SELECT 'reader' || n || '@bench.example', now() - n * interval '37 minutes', 'newsletter-2026-11', '/blog'
   FROM generate_series(1, 10000 - (SELECT count(*)::int FROM subscribers)) AS n`,
);
const [{ total }] = (await seed.query('SELECT count(*)::int AS total FROM subscribers')).rows as [
  { total: number },
];
await seed.end();

const token = (
  (await (
    await fetch(`${base}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    })
  ).json()) as { token: string }
).token;
const auth = { authorization: `Bearer ${token}` };

interface Scenario {
  name: string;
  rate: number;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const scenarios: Scenario[] = [
  // Rates the local runtime sustains without queueing (it spends ~0.4 s starting each invocation).
  { name: 'list page=1 pageSize=50', rate: 4, path: '/api/newsletter?page=1&pageSize=50', headers: auth },
  { name: `full list (${total} rows)`, rate: 2, path: '/api/newsletter', headers: auth },
  {
    name: 'login (scrypt N=2^17)',
    rate: 1,
    method: 'POST',
    path: '/admin/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  },
];

async function measure(s: Scenario) {
  const result = await autocannon({
    url: `${base}${s.path}`,
    method: s.method ?? 'GET',
    headers: s.headers,
    body: s.body,
    connections: 2,
    overallRate: s.rate,
    duration,
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: `${result.non2xx} non-2xx, ${result.errors + result.timeouts} failed`,
    requests: result.requests.total,
  };
}

const rows: string[][] = [
  ['scenario', 'rate/s', 'requests', 'p50 ms', 'p99 ms', 'errors', 'health p50', 'health p99', 'p50 ratio'],
];
for (const scenario of scenarios) {
  const run = await measure(scenario);
  const health = await measure({ name: 'health', rate: scenario.rate, path: '/api/health' });
  rows.push([
    scenario.name,
    String(scenario.rate),
    String(run.requests),
    String(run.p50),
    String(run.p99),
    String(run.errors),
    String(health.p50),
    String(health.p99),
    (run.p50 / Math.max(health.p50, 1)).toFixed(1) + '×',
  ]);
}
server.kill('SIGTERM');

// In-process, without the local runtime's per-invocation start-up: what the handlers and the database cost.
const db = await openDb('');
await migrate(db);
await db.query(
  `INSERT INTO subscribers (email, created_at) SELECT 'reader' || n || '@bench.example', now() - n * interval '37 minutes'
   FROM generate_series(1, 10000) AS n`,
);
await upsertAdmin(db, 'timing@bench.example', await hashPassword('the right password'));
useDatabase(db);
process.env.JWT_SECRET ??= 'bench-secret-bench-secret-bench-secret-42';
const loginRoute = route('bench-login', { POST: login });
async function failedLogin(email: string, i: number): Promise<number> {
  await db.query('DELETE FROM rate_limits');
  const started = performance.now();
  const reply = await loginRoute(
    new Request('http://bench/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'not the password' }),
    }),
    { ip: `10.0.0.${i}`, params: {} },
  );
  if (reply.status !== 401) throw new Error(`expected 401, got ${reply.status}`);
  return performance.now() - started;
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const direct = {
  health: route('bench-health', { GET: async () => new Response('{"ok":true}') }),
  newsletter: route('bench-newsletter', { GET: listSubscribersHandler }),
};
await upsertAdmin(db, 'list@bench.example', await hashPassword('another right password'));
const listToken = (
  (await (
    await loginRoute(
      new Request('http://bench/admin/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'list@bench.example', password: 'another right password' }),
      }),
      { ip: '10.1.0.1', params: {} },
    )
  ).json()) as { token: string }
).token;
async function inProcess(
  handler: (req: Request, context: { ip: string; params: Record<string, string> }) => Promise<Response>,
  path: string,
  runs: number,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const reply = await handler(
      new Request(`http://bench${path}`, { headers: { authorization: `Bearer ${listToken}` } }),
      { ip: '10.1.0.2', params: {} },
    );
    await reply.arrayBuffer();
    times.push(performance.now() - started);
  }
  return median(times);
}
const inProcessRows = [
  ['health', await inProcess(direct.health, '/api/health', 200)],
  ['list page=1 pageSize=50', await inProcess(direct.newsletter, '/api/newsletter?page=1&pageSize=50', 100)],
  ['full list (10000 rows)', await inProcess(direct.newsletter, '/api/newsletter', 20)],
] as const;
const unknown: number[] = [];
const wrong: number[] = [];
for (let i = 0; i < 9; i++) {
  unknown.push(await failedLogin(`nobody${i}@bench.example`, i));
  wrong.push(await failedLogin('timing@bench.example', i));
}
await db.close();

const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
console.log('\nin-process handler on embedded PGlite, median ms:');
for (const [name, ms] of inProcessRows) console.log(`  ${name.padEnd(26)}${ms.toFixed(2)}`);
console.log(
  `\nfailed login, median of 9: unknown e-mail ${median(unknown).toFixed(0)} ms, wrong password ${median(wrong).toFixed(0)} ms`,
);
process.exit(0);
