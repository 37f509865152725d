/**
 * `npm run bench:preview`: how fast the functions of `npm run preview` answer. Starts the preview server on a
 * fresh embedded database (BENCH_PORT, default 8897), and as soon as it prints its URL calls each function once
 * (first call), then ROUNDS more times one after another (steady state), then CONCURRENT calls of each at once
 * (the overlap that used to fail with "Cannot find module"). Prints startup time, the first call and the median
 * of the steady state per function in ms, and the failures of the concurrent burst.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable } from './lib/table.ts';

const port = Number(process.env.BENCH_PORT ?? 8897);
const rounds = Number(process.env.ROUNDS ?? 9);
const concurrent = Number(process.env.CONCURRENT ?? 6);
const base = `http://127.0.0.1:${port}`;
const dataDir = join(mkdtempSync(join(tmpdir(), 'korvel-bench-preview-')), 'db');

const started = performance.now();
const server = spawn(process.execPath, ['scripts/preview.ts'], {
  env: { ...process.env, PORT: String(port), KORVEL_DATA_DIR: dataDir, DATABASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
await new Promise<void>((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.includes('Preview: http')) resolve();
  });
  server.on('exit', (code) => {
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
    reject(new Error(`preview server exited with ${code}`));
  });
});
const startup = performance.now() - started;
const admin = JSON.parse(readFileSync(`${dataDir}.admin.json`, 'utf8')) as {
  email: string;
  password: string;
};

let signUps = 0;
let token = '';
interface Probe {
  name: string;
  call: () => Promise<Response>;
  expect: number;
}
const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const probes: Probe[] = [
  { name: 'health', call: () => json('GET', '/api/health'), expect: 200 },
  { name: 'meeting-slots', call: () => json('GET', '/api/meeting-slots'), expect: 200 },
  {
    name: 'newsletter POST',
    call: () =>
      json('POST', '/api/newsletter', {
        email: `bench-${(signUps += 1)}-${Date.now()}@reader.example`,
        consent: true,
        source: '/blog',
      }),
    expect: 202,
  },
  {
    name: 'admin login',
    call: async () => {
      const response = await json('POST', '/admin/login', { email: admin.email, password: admin.password });
      if (response.ok) token = ((await response.clone().json()) as { token: string }).token;
      return response;
    },
    expect: 200,
  },
  {
    name: 'newsletter GET',
    call: () => json('GET', '/api/newsletter', undefined, { authorization: `Bearer ${token}` }),
    expect: 200,
  },
  {
    name: 'inquiries GET',
    call: () => json('GET', '/api/inquiries', undefined, { authorization: `Bearer ${token}` }),
    expect: 200,
  },
];

async function timed(probe: Probe): Promise<{ ms: number; ok: boolean }> {
  const t = performance.now();
  try {
    const response = await probe.call();
    await response.arrayBuffer();
    return { ms: performance.now() - t, ok: response.status === probe.expect };
  } catch {
    return { ms: performance.now() - t, ok: false };
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const rows: string[][] = [];
try {
  const first = [];
  for (const probe of probes) first.push(await timed(probe));
  for (const [index, probe] of probes.entries()) {
    const steady = [];
    for (let round = 0; round < rounds; round++) steady.push(await timed(probe));
    // Sign-ups are limited to 20 an hour per address: the burst sends at most what is left.
    const burstSize = probe.name === 'newsletter POST' ? Math.min(concurrent, 20 - signUps) : concurrent;
    const burst = await Promise.all(Array.from({ length: burstSize }, () => timed(probe)));
    const failures = [first[index]!, ...steady, ...burst].filter((result) => !result.ok).length;
    rows.push([
      probe.name,
      first[index]!.ms.toFixed(0),
      median(steady.map((r) => r.ms)).toFixed(0),
      median(burst.map((r) => r.ms)).toFixed(0),
      String(failures),
    ]);
  }
} finally {
  process.kill(-server.pid!, 'SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
}

console.log(`\nstartup until the URL is printed: ${(startup / 1000).toFixed(1)} s`);
console.log(`steady state: median of ${rounds} calls in a row; burst: median of ${concurrent} at once\n`);
const header = ['function', 'first call ms', 'steady p50 ms', 'burst p50 ms', 'failures'];
printTable(header, rows);
