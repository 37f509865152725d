/**
 * `npm run bench:soak [-- --minutes N]`: the preview (the deployed bundles, warm) under a fixed mixed rate for
 * N minutes (default 10) against a throwaway PostgreSQL behind a proxy that can refuse, and an SMTP catcher
 * in this process that counts every mail by Message-ID. Run `npm run build` first.
 *
 * The mix: page views, beacons, sign-ups, contact messages, meeting bookings, admin reads and /api/health, each
 * at its own rate, open loop (a slow answer does not slow the next call); each visitor's form comes from an
 * address of its own in 127.0.0.0/8, as visitors do, so the per-network limits stay out of the way. A
 * newsletter issue goes to 10,000 confirmed subscribers at 10 % of the run. Faults, each once:
 * - the send is asked of a second function host, which is killed (SIGKILL) a second into its first batches:
 *   the preview's worker takes its rows over when their lease runs out (runs shorter than the lease age it);
 * - at 30 %, the database proxy cuts every connection and refuses new ones for 20 s;
 * - at 45 %, the catcher drops its connections and refuses SMTP for 5 s, mid-campaign.
 * Then it waits for the outbox to settle and checks: every accepted sign-up, message and booking is in the
 * database once, every refused one is not, and every outbox row sent arrived at the catcher once.
 * Prints p50/p99 per call beside /api/health, the 5xx answers, the preview's memory over time and the checks;
 * exits non-zero when a check fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSession } from '../../src/server/auth.ts';
import { createDb } from '../../src/server/db/index.ts';
import { mailSettings } from '../../src/server/mail/settings.ts';
import { messageIdFor } from '../../src/server/mail/worker.ts';
import { migrate } from '../../src/server/migrate.ts';
import { LEASE_SECONDS } from '../../src/server/repositories/outbox.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';
import { freePort, startPostgres } from '../../tests/api/support/postgres.ts';
import { startMailCatcher } from '../lib/mail-catcher.ts';
import { addConfirmedReaders, mb, printMeasures } from './lib/mail.ts';
import { startRefusingProxy } from './lib/refusing-proxy.ts';
import { printTable } from './lib/table.ts';

const { values: args } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
const minutes = Number(args.minutes);
if (!(minutes > 0)) throw new Error('--minutes takes a positive number, e.g. 10 or 0.5');
const durationMs = minutes * 60_000;
const port = Number(process.env.SOAK_PORT ?? 8931);
const base = `http://127.0.0.1:${port}`;
const SUBSCRIBERS = 10_000;
const DB_OUTAGE_MS = 20_000;
const SMTP_OUTAGE_MS = 5_000;
// The list goes out within the first half of the run, so the faults meet it mid-send.
const ratePerMinute = Math.ceil(SUBSCRIBERS / (minutes / 2));
const dataDir = '.data/soak';
const started = Date.now();
const log = (text: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}`);

// The database, behind the proxy the preview reaches it through.
const postgres = await startPostgres();
/** What this soak started; if it fails half-way, they are stopped as it exits. */
const children: ChildProcess[] = [];
let stoppedInOrder = false;
process.on('exit', () => {
  if (stoppedInOrder) return;
  console.error(`PostgreSQL's log, last lines:\n${postgres.log().split('\n').slice(-15).join('\n')}`);
  for (const child of children) child.kill('SIGKILL');
  // Its first step, signalling the postmaster, is synchronous.
  void postgres.stop();
});
const direct = createDb(postgres.url);
await migrate(direct);
await addConfirmedReaders(direct, SUBSCRIBERS, 'soak.example');
const proxy = await startRefusingProxy(postgres.port);
const catcher = await startMailCatcher({ keep: 0, httpPort: false });

const env = {
  ...process.env,
  DATABASE_URL: postgres.url.replace(`:${postgres.port}/`, `:${proxy.port}/`),
  SMTP_URL: catcher.smtpUrl,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  SITE_URL: base,
  MAIL_RATE_PER_MINUTE: String(ratePerMinute),
  KORVEL_DATA_DIR: dataDir,
};
Object.assign(process.env, { JWT_SECRET: env.JWT_SECRET, SITE_URL: base });

await upsertAdmin(direct, 'soak@korvel.example', 'not-a-real-hash');
const [admin] = (await direct.query<{ id: number; tokens_valid_after: Date }>(
  'SELECT id, tokens_valid_after FROM admins',
)) as [{ id: number; tokens_valid_after: Date }];
const { token } = await startSession(
  direct,
  { id: admin.id, tokensValidAfter: admin.tokens_valid_after },
  'full',
  '127.0.0.1',
);
const auth = { authorization: `Bearer ${token}` };

/**
 * What the preview and the second host log, counted by kind (numbers and ports left out) and printed at the
 * end: an outage's warnings come by the hundred.
 */
const logged = new Map<string, number>();
const noteLog = (line: string) => {
  const kind = line.replace(/\d+/g, 'N').slice(0, 110);
  logged.set(kind, (logged.get(kind) ?? 0) + 1);
};

/** Starts a node program with the soak's environment; resolves once its stdout has printed `ready`. */
async function startNode(argv: string[], ready: string, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, argv, {
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stderr.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) noteLog(line);
  });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes(ready)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`${argv[0]} exited with ${code}`)));
  });
  return child;
}

const preview = await startNode(['scripts/preview.ts'], 'Preview:', { PORT: String(port) });
const hostPort = await freePort();
const doomedHost = await startNode(
  ['scripts/lib/function-host.ts', join('.netlify', 'preview-functions'), String(hostPort)],
  '"url"',
);
log(
  `preview ${base} (pid ${preview.pid}), second function host :${hostPort}, PostgreSQL :${postgres.port} via :${proxy.port}`,
);

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
  ms: number;
}

/** One HTTP call from `from` (a loopback address); status 0 when the connection failed. */
function call(
  method: string,
  path: string,
  options: {
    json?: unknown;
    body?: string;
    headers?: Record<string, string>;
    from?: string;
    to?: string;
  } = {},
): Promise<Answer> {
  const t = performance.now();
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  return new Promise((resolve) => {
    const req = httpRequest(
      `${options.to ?? base}${path}`,
      {
        method,
        localAddress: options.from,
        agent: false,
        headers: {
          ...(body !== undefined && {
            'content-type': options.json === undefined ? 'text/plain;charset=UTF-8' : 'application/json',
          }),
          origin: base,
          'sec-fetch-site': 'same-origin',
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
          ...options.headers,
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - t,
          }),
        );
      },
    );
    // No answer (status 0): the connection failed or the minute ran out; the body says which.
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        status: 0,
        retryAfter: undefined,
        body: error.code ?? error.message,
        ms: performance.now() - t,
      }),
    );
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

let visitor = 0;
/** A loopback address of a visitor's own: 127.1.0.1, 127.1.0.2, … */
const nextVisitor = () => {
  visitor += 1;
  return `127.${1 + (visitor >> 16)}.${(visitor >> 8) & 255}.${visitor & 255 || 1}`;
};

// Offered slots, each booked at most once.
const slotsReply = await call('GET', '/api/meeting-slots');
const slots = (
  JSON.parse(slotsReply.body) as { days: { slots: { start: string; available: boolean }[] }[] }
).days
  .flatMap((day) => day.slots.filter((slot) => slot.available).map((slot) => slot.start))
  .reverse();

const draft = await call('POST', '/api/campaigns', {
  headers: auth,
  json: {
    subject: 'Korvel newsletter, soak edition',
    markdown: 'Ten minutes of steady load, three faults, and every copy once.',
  },
});
const campaignId = (JSON.parse(draft.body) as { id: number }).id;

/** What each call expects when all is well; anything else is counted, a 5xx apart. */
interface CallKind {
  name: string;
  perSecond: number;
  expect: number[];
  run: (n: number) => Promise<Answer>;
  /** Accepted and refused records, to be looked for in the database afterwards. */
  accepted?: string[];
  refused?: string[];
  /** Calls that got no answer: the caller cannot know, so the record may be there, but once at most. */
  unanswered?: string[];
}
// Beacons come from the same pages: a German page counts under its own path (src/server/insight/beacon.ts).
const pages = ['/', '/blog/', '/contact/', '/de/', '/our-services/', '/news/', '/about-us/who-are-we/'];
/** What the contact page's script adds to a message or a booking: consent, and a person's pace. */
const contactForm = { privacy: true, fillMs: 8000, source: '/contact' };

/** A visitor's form, posted from an address of its own; what it accepts and refuses is looked for afterwards. */
const visitorForm = (
  name: string,
  perSecond: number,
  accepted: number,
  path: string,
  body: (n: number) => Record<string, unknown>,
): CallKind => ({
  name,
  perSecond,
  expect: [accepted],
  accepted: [],
  refused: [],
  unanswered: [],
  run: (n) => call('POST', path, { from: nextVisitor(), json: body(n) }),
});
const kinds: CallKind[] = [
  { name: 'GET /api/health', perSecond: 1, expect: [200], run: () => call('GET', '/api/health') },
  { name: 'page view', perSecond: 3, expect: [200], run: (n) => call('GET', pages[n % pages.length]!) },
  {
    name: 'POST /api/collect (beacon)',
    perSecond: 2,
    expect: [204],
    run: (n) =>
      call('POST', '/api/collect', {
        from: nextVisitor(),
        body: JSON.stringify({
          path: pages[n % pages.length],
          width: 1280,
          referrer: 'www.linkedin.com',
        }),
      }),
  },
  visitorForm('POST /api/newsletter (sign-up)', 0.5, 202, '/api/newsletter', (n) => ({
    email: `signup${n}@visitor.example`,
    consent: true,
    source: '/blog',
  })),
  visitorForm('POST /api/contact (message)', 0.2, 201, '/api/contact', (n) => ({
    fullName: 'Milica Jovanović',
    company: 'Tisa Pharma',
    email: `message${n}@visitor.example`,
    subject: 'A cleanroom upgrade for grade C',
    message: 'We plan to upgrade two rooms to grade C next year. Could you help with the basic design?',
    ...contactForm,
  })),
  visitorForm('POST /api/contact (booking)', 0.1, 201, '/api/contact', (n) => ({
    kind: 'meeting',
    fullName: 'Nikola Stanković',
    email: `booking${n}@visitor.example`,
    subject: 'Process water for a biologics plant',
    slot: slots.pop(),
    ...contactForm,
  })),
  {
    name: 'admin reads',
    perSecond: 0.5,
    expect: [200],
    run: (n) =>
      call(
        'GET',
        [
          '/api/newsletter?page=1&pageSize=50',
          '/api/inquiries',
          `/api/campaigns/${campaignId}`,
          '/api/campaigns?page=1&pageSize=20',
        ][n % 4]!,
        { headers: auth },
      ),
  },
];

interface Tally {
  ms: number[];
  statuses: Map<number, number>;
  /** 5xx answers outside the database outage, and 503s inside it without Retry-After. */
  unexpected5xx: number;
  outage503: number;
  unanswered: number;
}
const tallies = new Map<string, Tally>(
  kinds.map((kind) => [
    kind.name,
    { ms: [], statuses: new Map(), unexpected5xx: 0, outage503: 0, unanswered: 0 },
  ]),
);
/** When the database refused (set when it does). */
const dbOutage = { from: Infinity, to: 0 };
/** Whether a call overlapped the database outage (its pool may take a few seconds more to reconnect). */
const inOutage = (sentAt: number, answeredAt: number) =>
  answeredAt >= dbOutage.from && sentAt <= dbOutage.to + 35_000;
const inflight = new Set<Promise<void>>();

function fire(kind: CallKind, n: number) {
  const sentAt = Date.now();
  const done = kind.run(n).then((answer) => {
    const tally = tallies.get(kind.name)!;
    tally.ms.push(answer.ms);
    tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 500) {
      if (answer.status === 503 && answer.retryAfter && inOutage(sentAt, Date.now())) tally.outage503 += 1;
      else {
        tally.unexpected5xx += 1;
        if (tally.unexpected5xx <= 3)
          log(`${kind.name} #${n}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    const key = `${n}`;
    if (answer.status === 0) {
      kind.unanswered?.push(key);
      tally.unanswered += 1;
      if (tally.unanswered <= 3)
        log(`${kind.name} #${n}: no answer after ${Math.round(answer.ms)} ms (${answer.body})`);
    } else if (kind.expect.includes(answer.status)) kind.accepted?.push(key);
    else kind.refused?.push(key);
  });
  inflight.add(done);
  void done.finally(() => inflight.delete(done));
}

// Memory of the preview process, every 5 s.
const memory: { at: number; rss: number }[] = [];
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const memoryTimer = setInterval(() => memory.push({ at: Date.now(), rss: rssOf(preview.pid!) }), 5_000);

// The load: each kind on its own clock.
const loadStart = Date.now();
const loadEnd = loadStart + durationMs;
const timers = kinds.map((kind) => {
  let n = 0;
  return setInterval(() => {
    if (Date.now() < loadEnd) fire(kind, (n += 1));
  }, 1000 / kind.perSecond);
});

const at = (fraction: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, loadStart + fraction * durationMs - Date.now())));
const faults: [string, string][] = [];

// 1. The send, answered by the second host, which is killed a second into its run after the reply.
await at(0.1);
const send = await call('POST', `/api/campaigns/${campaignId}/send`, {
  headers: auth,
  to: `http://127.0.0.1:${hostPort}`,
});
log(`send to ${SUBSCRIBERS}: ${send.status} ${send.body.slice(0, 80)}`);
const deliveredBeforeKill = catcher.received();
await new Promise((resolve) => setTimeout(resolve, 1_000));
doomedHost.kill('SIGKILL');
const killedAt = Date.now();
await new Promise((resolve) => setTimeout(resolve, 3_000));
const [{ held }] = (await direct.query<{ held: number }>(
  `SELECT count(*)::int AS held FROM outbox WHERE status = 'sending' AND lease_until > now()`,
)) as [{ held: number }];
log(
  `second host killed after ${catcher.received() - deliveredBeforeKill} mails reached the catcher; ${held} rows left leased`,
);
const leaseRunsOutInTime = killedAt + (LEASE_SECONDS + 30) * 1000 < loadEnd;
faults.push([
  'function killed mid-send (SIGKILL)',
  `${held} rows held under lease; ${leaseRunsOutInTime ? 'taken over when the lease ran out' : 'lease aged by hand (run shorter than the lease), then taken over'}`,
]);

// 2. The database refuses for 20 s.
await at(0.3);
Object.assign(dbOutage, { from: Date.now(), to: Date.now() + DB_OUTAGE_MS });
log('database: connections cut, refused for 20 s');
await proxy.refuseFor(DB_OUTAGE_MS);
log('database: accepting again');

// 3. SMTP drops mid-campaign, for 5 s.
await at(0.45);
const [{ waiting }] = (await direct.query<{ waiting: number }>(
  `SELECT count(*)::int AS waiting FROM outbox WHERE template = 'campaign' AND status <> 'sent'`,
)) as [{ waiting: number }];
await catcher.stopSmtp();
log(`SMTP: dropped with ${waiting} copies of the issue still to go`);
await new Promise((resolve) => setTimeout(resolve, SMTP_OUTAGE_MS));
await catcher.startSmtp();
log('SMTP: back');
faults.push(['SMTP dropped for 5 s', `${waiting} copies of the issue still to go when it dropped`]);

if (!leaseRunsOutInTime)
  await direct.query(
    `UPDATE outbox SET lease_until = now() WHERE status = 'sending' AND lease_until > now()`,
  );

await at(1);
for (const timer of timers) clearInterval(timer);
await Promise.all([...inflight]);
log('load over; waiting for the outbox to settle');
const settleBy = Date.now() + Math.max(LEASE_SECONDS * 1000, 120_000);
for (;;) {
  const [{ open }] = (await direct.query<{ open: number }>(
    `SELECT count(*)::int AS open FROM outbox WHERE status IN ('pending', 'sending')`,
  )) as [{ open: number }];
  if (open === 0 || Date.now() > settleBy) break;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}
clearInterval(memoryTimer);

// The checks, against the database itself.
const rowsPer = async (sql: string, keys: string[]) =>
  new Map(
    (await direct.query<{ key: string; n: number }>(sql, [keys])).map((row) => [row.key, row.n] as const),
  );
const records: [string, CallKind, string][] = [
  [
    'sign-ups',
    kinds[3]!,
    `SELECT substring(email FROM '^signup([0-9]+)@') AS key, count(*)::int AS n FROM subscribers
     WHERE email LIKE 'signup%' AND substring(email FROM '^signup([0-9]+)@') = ANY($1) GROUP BY 1`,
  ],
  [
    'messages',
    kinds[4]!,
    `SELECT substring(email FROM '^message([0-9]+)@') AS key, count(*)::int AS n FROM inquiries
     WHERE kind = 'contact' AND substring(email FROM '^message([0-9]+)@') = ANY($1) GROUP BY 1`,
  ],
  [
    'bookings',
    kinds[5]!,
    `SELECT substring(i.email FROM '^booking([0-9]+)@') AS key, count(*)::int AS n FROM inquiries i
     WHERE i.kind = 'meeting' AND i.meeting_start IS NOT NULL AND substring(i.email FROM '^booking([0-9]+)@') = ANY($1) GROUP BY 1`,
  ],
];
const checks: [string, string, boolean][] = [];
for (const [what, kind, sql] of records) {
  const found = await rowsPer(sql, kind.accepted!);
  const once = kind.accepted!.filter((key) => found.get(key) === 1).length;
  const strays = await rowsPer(sql, kind.refused!);
  const unanswered = await rowsPer(sql, kind.unanswered!);
  const twice = [...unanswered.values()].filter((n) => n > 1).length;
  checks.push([
    `${what}: accepted, in the database once / refused, in it anyway / no answer, in it once, twice`,
    `${kind.accepted!.length}, ${once} / ${kind.refused!.length}, ${strays.size} / ` +
      `${kind.unanswered!.length}, ${unanswered.size - twice}, ${twice}`,
    once === kind.accepted!.length && strays.size === 0 && twice === 0,
  ]);
}
const from = mailSettings({ ...env }).from;
const outbox = await direct.query<{ key: string; status: string; template: string }>(
  'SELECT idempotency_key AS key, status, template FROM outbox',
);
const [issue] = await direct.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [
  campaignId,
]);
checks.push(['the issue', String(issue?.status), issue?.status === 'sent']);
const deliveries = catcher.deliveries();
const sent = outbox.filter((row) => row.status === 'sent');
const times = sent.map((row) => deliveries.get(messageIdFor(row.key, from)) ?? 0);
const known = new Set(outbox.map((row) => messageIdFor(row.key, from)));
const strayMail = [...deliveries.keys()].filter((id) => !known.has(id)).length;
const notSent = outbox.length - sent.length;
checks.push(
  [
    'outbox rows / sent / not sent',
    `${outbox.length} / ${sent.length} / ${notSent}`,
    notSent === 0 && outbox.filter((row) => row.template === 'campaign').length === SUBSCRIBERS,
  ],
  [
    'sent rows delivered once / never / twice or more',
    `${times.filter((n) => n === 1).length} / ${times.filter((n) => n === 0).length} / ${times.filter((n) => n > 1).length}`,
    times.every((n) => n === 1),
  ],
  ['mails at the catcher with no outbox row', String(strayMail), strayMail === 0],
);

// Stop everything this soak started, by the handles it holds.
const stopped = new Promise((resolve) => preview.once('exit', resolve));
preview.kill('SIGTERM');
await stopped;
await catcher.stop();
await proxy.stop();
await direct.close();
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
stoppedInOrder = true;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const health = tallies.get('GET /api/health')!;
const healthP99 = quantile(health.ms, 0.99);
console.log(
  `\nbench:soak — ${minutes} min at a fixed mixed rate over the preview, PostgreSQL ${postgres.url.includes('127.0.0.1') ? 'local' : ''} behind a refusing proxy, local SMTP catcher, issue to ${SUBSCRIBERS.toLocaleString('en-GB')} at ${ratePerMinute}/min\n`,
);
const header = [
  'call',
  'rate/s',
  'calls',
  'p50 ms',
  'p99 ms',
  'p99 / health p99',
  'answers',
  '5xx unexpected',
  '503 in the outage',
];
const rows = kinds.map((kind) => {
  const tally = tallies.get(kind.name)!;
  const p99 = quantile(tally.ms, 0.99);
  return [
    kind.name,
    String(kind.perSecond),
    String(tally.ms.length),
    quantile(tally.ms, 0.5).toFixed(0),
    p99.toFixed(0),
    `${(p99 / Math.max(healthP99, 1)).toFixed(1)}×`,
    [...tally.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', '),
    String(tally.unexpected5xx),
    String(tally.outage503),
  ];
});
printTable(header, rows);

const minuteOf = (fromMs: number, toMs: number) =>
  memory.filter((s) => s.at >= fromMs && s.at < toMs).map((s) => s.rss);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
const firstMinute = minuteOf(loadStart, loadStart + 60_000);
const lastMinute = minuteOf(loadEnd - 60_000, loadEnd);
const tenth = (loadEnd - loadStart) / 10;
const byTenth = Array.from({ length: 10 }, (_, k) =>
  mb(mean(minuteOf(loadStart + k * tenth, loadStart + (k + 1) * tenth))),
);
/** MB per minute over the second half of the run (least squares): a leak keeps climbing after the warm-up. */
function secondHalfSlope(): string {
  const half = memory.filter((s) => s.at >= loadStart + 5 * tenth && s.at < loadEnd);
  const xs = half.map((s) => (s.at - loadStart) / 60_000);
  const ys = half.map((s) => s.rss / 1024 / 1024);
  const [mx, my] = [mean(xs), mean(ys)];
  const covariance = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const variance = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return (covariance / Math.max(variance, 1e-9)).toFixed(2);
}
console.log('\nfaults and memory:\n');
printMeasures([
  ...faults,
  [
    'database refused for 20 s: 503 with Retry-After',
    String([...tallies.values()].reduce((n, t) => n + t.outage503, 0)),
  ],
  ['preview RSS, mean of the first / last minute (MB)', `${mb(mean(firstMinute))} / ${mb(mean(lastMinute))}`],
  ['preview RSS, mean of each tenth of the run (MB)', byTenth.join(' / ')],
  ['preview RSS over the second half, least-squares slope (MB/min)', secondHalfSlope()],
  [
    'preview RSS, lowest / highest (MB)',
    `${mb(Math.min(...memory.map((s) => s.rss)))} / ${mb(Math.max(...memory.map((s) => s.rss)))}`,
  ],
]);
console.log('\nwhat the preview and the second host logged, by kind:\n');
for (const [kind, n] of [...logged].sort(([, a], [, b]) => b - a))
  console.log(`${String(n).padStart(6)}  ${kind}`);
console.log('\nexactly once:\n');
printMeasures(checks.map(([what, value]) => [what, value]));
const unexpected = [...tallies.values()].reduce((n, t) => n + t.unexpected5xx, 0);
if (unexpected > 0 || checks.some(([, , ok]) => !ok)) {
  console.error(
    `\n${unexpected} unexpected 5xx; checks failed: ${
      checks
        .filter(([, , ok]) => !ok)
        .map(([w]) => w)
        .join('; ') || 'none'
    }`,
  );
  process.exitCode = 1;
}
