/**
 * `npm run bench:events`: the provider webhooks (POST /api/mail/events/{provider}) at fixed rates, each rate
 * followed by GET /api/health at the same rate in the same run as the floor; requests start at evenly spaced
 * times over 25 keep-alive connections (scripts/bench/lib/open-loop.ts). Every request is a freshly signed
 * delivery of one hard bounce, the four providers in turn (SES via SNS with SignatureVersion 2, Postmark,
 * Mailgun, SendGrid), for copies of a sent issue to 20,000 subscribers; one request in ten repeats an event
 * already sent (a provider's retry, signed again), which must be answered 200 and applied once.
 * Prints throughput, p50 and p99 in ms and errors; then what the database holds (every recorded event bounced
 * exactly one subscriber and suppressed one address, none twice); then, in-process, what verifying one
 * delivery of each provider costs without the database.
 *
 * The functions run in a child process behind a plain loopback HTTP server, as the API tests serve them: the
 * preview server would fetch SNS's signing certificate from AWS, and a benchmark touches no network. The child
 * is this file with `serve`. BENCH_DB=postgres runs against a throwaway PostgreSQL server (as `API_DB=postgres`
 * does for the API tests; production's database is a server), otherwise embedded PGlite in memory.
 * DURATION (seconds per rate, default 10), RATES (default 100,200,300) and BENCH_PORT (default 8921) change
 * the run.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import type { WebhookInput } from '../../src/server/mail/providers/index.ts';
import { startPostgres } from '../../tests/api/support/postgres.ts';
import {
  basicAuth,
  fakeSns,
  mailgunDelivery,
  sample,
  sendgridHeaders,
  snsNotification,
  WEBHOOK_ENV,
} from '../../tests/support/mail-webhooks.ts';
import { openLoop, percentile, type OpenLoopRequest } from './lib/open-loop.ts';

const SUBSCRIBERS = 20_000;
/** Relays post from many senders at once; 25 open connections let 200/s through at 100 ms each. */
const CONNECTIONS = 25;
/** Seconds of events at 50/s and health checks at 20/s before the first measured rate. */
const WARM_UP_SECONDS = 5;
const MESSAGE_ID = (subscriber: number) => `<campaign.1.${subscriber}@korvel.example>`;

if (process.argv[2] === 'serve') await serve();
else await bench();

/** The child: migrated in-memory PGlite, a sent issue, and the two functions behind a loopback server. */
async function serve(): Promise<void> {
  const { useDatabase } = await import('../../src/server/config.ts');
  const { openDb } = await import('../../src/server/db/open.ts');
  const { migrate } = await import('../../src/server/migrate.ts');
  const { useSnsHttp } = await import('../../src/server/mail/providers/index.ts');
  const events = (await import('../../netlify/functions/mail-events.mts')).default;
  const health = (await import('../../netlify/functions/health.mts')).default;
  const postgres = process.env.BENCH_DB === 'postgres' ? await startPostgres() : undefined;
  const db = await openDb(postgres?.url ?? '');
  process.once(
    'SIGTERM',
    () =>
      void db
        .close()
        .then(() => postgres?.stop())
        .finally(() => process.exit(0)),
  );
  await migrate(db);
  useDatabase(db);
  useSnsHttp(fakeSns());
  await db.query(
    `INSERT INTO subscribers (email, created_at, status, confirmed_at)
     SELECT 'reader' || n || '@bench.example', now(), 'confirmed', now() FROM generate_series(1, $1::int) AS n`,
    [SUBSCRIBERS],
  );
  await db.query(
    `INSERT INTO campaigns (subject, markdown, status, recipients, send_started_at, finished_at)
     VALUES ('Bench issue', 'Text', 'sent', $1, now(), now())`,
    [SUBSCRIBERS],
  );
  await db.query(
    `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id, campaign_id, status, sent_at)
     SELECT 'campaign:1:' || s.id, 'campaign', s.email, s.id, 1, 'sent', now() FROM subscribers s`,
  );
  // Statistics as autovacuum keeps them on a server database; embedded PGlite never gathers them by itself.
  await db.query('ANALYZE');
  /** Milliseconds from the call of the events function to its answer, inside this process. */
  const handled: number[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/bench/state') {
      const [state] = await db.query(
        `SELECT (SELECT count(*)::int FROM mail_events) AS events,
                (SELECT count(*)::int FROM subscribers WHERE status = 'bounced') AS bounced,
                (SELECT count(*)::int FROM mail_suppressions WHERE reason = 'hard_bounce') AS suppressed`,
      );
      handled.sort((a, b) => a - b);
      const at = (p: number) => Number(percentile(handled, p).toFixed(1));
      const timing = { handlerP50: at(0.5), handlerP99: at(0.99) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...state, ...timing }));
      return;
    }
    const provider = /^\/api\/mail\/events\/([a-z]+)$/.exec(url.pathname)?.[1];
    const handler = provider ? events : url.pathname === '/api/health' ? health : undefined;
    if (!handler) return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const request = new Request(url, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: 'half',
    } as RequestInit);
    const started = performance.now();
    const response = await handler(request, { ip: '127.0.0.1', params: provider ? { provider } : {} });
    if (provider) handled.push(performance.now() - started);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  const port = Number(process.env.BENCH_PORT ?? 8921);
  server.listen(port, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${port}` }));
}

/** One signed delivery reporting a hard bounce of `subscriber`'s copy, by `provider` (0–3), as event `id`. */
function delivery(provider: number, subscriber: number, id: string) {
  const email = `reader${subscriber}@bench.example`;
  const at = new Date().toISOString();
  switch (provider) {
    case 0: {
      const ses = sample('ses-bounce.json');
      ses.mail.commonHeaders.messageId = MESSAGE_ID(subscriber);
      ses.bounce.bouncedRecipients[0].emailAddress = email;
      ses.bounce.timestamp = at;
      const body = JSON.stringify(snsNotification(ses, { messageId: id, version: '2' }));
      return { path: '/api/mail/events/ses', headers: { 'content-type': 'text/plain; charset=UTF-8' }, body };
    }
    case 1: {
      const bounce = { ...sample('postmark-bounce.json'), ID: id, Email: email, BouncedAt: at };
      bounce.Metadata = { 'message-id': MESSAGE_ID(subscriber) };
      const headers = { 'content-type': 'application/json', authorization: basicAuth() };
      return { path: '/api/mail/events/postmark', headers, body: JSON.stringify(bounce) };
    }
    case 2: {
      const data = sample('mailgun-failed-permanent.json')['event-data'];
      Object.assign(data, { id, recipient: email, timestamp: Date.now() / 1000, reason: 'bounce' });
      data.message.headers['message-id'] = MESSAGE_ID(subscriber).slice(1, -1);
      const body = mailgunDelivery(data);
      return { path: '/api/mail/events/mailgun', headers: { 'content-type': 'application/json' }, body };
    }
    default: {
      const [, bounce] = sample('sendgrid-events.json');
      Object.assign(bounce, {
        email,
        sg_event_id: id,
        'smtp-id': MESSAGE_ID(subscriber),
        timestamp: Math.floor(Date.now() / 1000),
      });
      const body = JSON.stringify([bounce]);
      const headers = { 'content-type': 'application/json', ...sendgridHeaders(body) };
      return { path: '/api/mail/events/sendgrid', headers, body };
    }
  }
}

async function bench(): Promise<void> {
  const duration = Number(process.env.DURATION ?? 10);
  const rates = (process.env.RATES ?? '100,200,300').split(',').map(Number);
  // The keys are made when tests/support/mail-webhooks.ts loads: the server takes this process's, not its own.
  const child = fork(new URL(import.meta.url).pathname, ['serve'], {
    env: { ...process.env, ...WEBHOOK_ENV },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // However this process ends, the server (and its PostgreSQL) ends with it.
  process.once('exit', () => child.kill('SIGTERM'));
  const base = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });

  let sent = 0;
  const tally = { applied: 0, duplicate: 0, unknown: 0 };
  /** Deliveries signed before a run, so that signing (RSA for SNS) does not take the run's CPU. */
  let planned: ReturnType<typeof delivery>[] = [];
  const build = (n: number) => {
    // One in ten repeats the event four requests back: the same provider, the same event id, signed anew.
    const original = n % 10 === 9 && n >= 4 ? n - 4 : n;
    const subscriber = (original % SUBSCRIBERS) + 1;
    return delivery(original % 4, subscriber, `bench-event-${original}`);
  };
  const plan = (count: number) => {
    planned = Array.from({ length: count }, (_, k) => build(sent + k));
  };
  const next = (): OpenLoopRequest => {
    const n = sent++;
    return { method: 'POST', ...(planned.shift() ?? build(n)) };
  };
  const onResponse = (status: number, body: string) => {
    if (status !== 200) return;
    const reply = JSON.parse(body) as typeof tally;
    for (const key of ['applied', 'duplicate', 'unknown'] as const) tally[key] += reply[key];
  };

  const run = (rate: number, next: () => OpenLoopRequest, onAnswer?: typeof onResponse) =>
    openLoop({ base, rate, duration, connections: CONNECTIONS, next, onResponse: onAnswer });
  const health = (): OpenLoopRequest => ({ path: '/api/health' });

  // Warm-up, not reported: both paths compiled, the pool's connections open and the tables cached, as on a
  // server that has been answering for a while (the first seconds after a start showed a p99 of 200 ms).
  const warmUp = { base, duration: WARM_UP_SECONDS, connections: CONNECTIONS };
  await openLoop({ ...warmUp, rate: 50, next, onResponse });
  await openLoop({ ...warmUp, rate: 20, next: health });
  const table = [
    ['rate/s', 'sent', 'throughput/s', 'p50 ms', 'p99 ms', 'errors', 'health p50', 'health p99'],
  ];
  for (const rate of rates) {
    plan(Math.ceil(rate * duration * 1.1));
    const events = await run(rate, next, onResponse);
    const floor = await run(rate, health);
    table.push([
      String(rate),
      String(events.requests),
      events.throughput.toFixed(0),
      String(events.p50),
      String(events.p99),
      String(events.errors),
      String(floor.p50),
      String(floor.p99),
    ]);
  }
  const state = (await (await fetch(`${base}/bench/state`)).json()) as Record<
    'events' | 'bounced' | 'suppressed' | 'handlerP50' | 'handlerP99',
    number
  >;
  child.kill('SIGTERM');

  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  console.log(
    `\nPOST /api/mail/events/{ses,postmark,mailgun,sendgrid}, one signed hard bounce each, ${duration} s per ` +
      `rate, ${CONNECTIONS} connections, ${process.env.BENCH_DB === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}; ` +
      `then GET /api/health at the same rate; after ${WARM_UP_SECONDS} s of both unmeasured\n`,
  );
  for (const [i, row] of table.entries()) {
    console.log(`| ${row.map((cell, c) => cell.padStart(widths[c]!)).join(' | ')} |`);
    if (i === 0) console.log(`| ${widths.map((w) => '-'.repeat(w - 1) + ':').join(' | ')} |`);
  }
  // Every request is answered before its run ends, so the answers and the database must agree exactly.
  console.log(
    `\n${sent} deliveries; the answers counted ${tally.applied} applied, ${tally.duplicate} duplicate, ` +
      `${tally.unknown} unknown. The database: ${state.events} events recorded, ${state.bounced} subscribers ` +
      `bounced, ${state.suppressed} addresses suppressed. Inside the server, from the call to the answer: ` +
      `p50 ${state.handlerP50} ms, p99 ${state.handlerP99} ms.`,
  );
  if (
    state.events !== state.bounced ||
    state.events !== state.suppressed ||
    state.events !== tally.applied ||
    tally.unknown !== 0
  ) {
    console.error('Every recorded event should bounce one subscriber and suppress one address, once.');
    process.exitCode = 1;
  }
  await verificationCost();
}

/** In-process: what verifying one delivery costs per provider, without HTTP or the database. */
async function verificationCost(): Promise<void> {
  const { useSnsHttp, webhookProvider } = await import('../../src/server/mail/providers/index.ts');
  useSnsHttp(fakeSns());
  const env = { ...process.env, ...WEBHOOK_ENV };
  const rows: string[] = [];
  for (const [index, name] of ['ses', 'postmark', 'mailgun', 'sendgrid'].entries()) {
    const inputs: WebhookInput[] = Array.from({ length: 500 }, (_, i) => {
      const { headers, body } = delivery(index, i + 1, `cost-${i}`);
      return { headers: new Headers(headers), body, now: new Date(), env };
    });
    const times: number[] = [];
    for (const input of inputs) {
      const started = performance.now();
      await webhookProvider(name)!.verify(input);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => percentile(times, p).toFixed(2);
    rows.push(`${name} p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  }
  console.log(
    `In-process, 500 verifications each (signature and normalising, no database): ${rows.join('; ')}.`,
  );
}
