/**
 * `npm run bench:mail`: the outbox worker against the local SMTP catcher, in-process on embedded PGlite.
 * Queues COUNT (default 10,000) welcome mails to as many confirmed subscribers, then drains the outbox with
 * the worker exactly as the scheduled function runs it (rounds of at most 20 s, its default batches), while
 * sampling the process's memory. The baseline, measured in the same run, is the bare transport: one
 * pre-rendered mail sent BASELINE (default 1,000) times through the same pooled nodemailer transport, 20 at
 * a time — what SMTP alone costs, without claiming, rendering, signing links and recording.
 * Prints enqueue time, throughput beside the baseline (median of three), and memory at each fifth of the run.
 * Run with tsx (package.json) because the mail templates are TSX.
 */
import { performance } from 'node:perf_hooks';
import { composeMail } from '../../src/server/mail/compose.tsx';

import { createTransport, DEFAULT_BATCH, processOutbox } from '../../src/server/mail/worker.ts';
import { bareTransportRate, printMeasures, printMemory, sampleMemory, startMailBench } from './lib/mail.ts';
import { claimDueMail, enqueueMail, outboxStats } from '../../src/server/repositories/outbox.ts';

const count = Number(process.env.COUNT ?? 10_000);
const baselineCount = Number(process.env.BASELINE ?? 1_000);
/** The baseline's mails in flight at once (the pool queues what its connections cannot take yet). */
const BATCH = 20;

const { catcher, settings, db } = await startMailBench(count);

// One queued mail per subscriber, the way a confirmation queues it.
const subscribers = await db.query<{ id: number; email: string }>('SELECT id, email FROM subscribers');
let started = performance.now();
await db.transaction(async (tx) => {
  await enqueueMail(
    tx,
    subscribers.map((s) => ({
      key: `bench-welcome.${s.id}`,
      template: 'newsletter-welcome' as const,
      to: s.email,
      subscriberId: s.id,
    })),
  );
});
const enqueueMs = performance.now() - started;

// Baseline: the transport alone, on a mail rendered once (a claimed row, rendered, then put back).
const [sample] = await claimDueMail(db, { limit: 1 });
const mail = await composeMail(db, sample!, settings);
await db.query(`UPDATE outbox SET status = 'pending', attempts = 0, lease_until = NULL WHERE id = $1`, [
  sample!.id,
]);
const baselineRate = await bareTransportRate(catcher.smtpUrl, settings.from, mail, baselineCount, BATCH);
const caughtBeforeWorker = catcher.received();

// The worker, in scheduled-function rounds, with memory sampled every 100 ms.
const memory = sampleMemory(() => catcher.received() - caughtBeforeWorker);
const transport = createTransport(catcher.smtpUrl);
const rounds: number[] = [];
started = performance.now();
let failures = 0;
for (;;) {
  const roundStart = performance.now();
  const report = await processOutbox(db, {
    transport,
    settings,
    batchSize: DEFAULT_BATCH,
    deadline: Date.now() + 20_000,
  });
  rounds.push(performance.now() - roundStart);
  failures += report.failed + report.retrying + report.cancelled;
  if (report.sent === 0) break;
}
const workerSeconds = (performance.now() - started) / 1000;
const samples = memory.stop();
transport.close();

const stats = await outboxStats(db);
const [{ sent }] = (await db.query<{ sent: number }>(
  `SELECT count(*)::int AS sent FROM outbox WHERE status = 'sent'`,
)) as [{ sent: number }];
const delivered = catcher.received() - caughtBeforeWorker;
await db.close();
await catcher.stop();

const workerRate = delivered / workerSeconds;
console.log(
  `\nbench:mail — ${count.toLocaleString('en-GB')} welcome mails, embedded PGlite, local SMTP catcher\n`,
);
const rows: Array<[string, string]> = [
  [`enqueue ${count} rows, one transaction`, `${(enqueueMs / 1000).toFixed(2)} s`],
  ['worker: delivered / rows sent / failures', `${delivered} / ${sent} / ${failures}`],
  ['worker: time, rounds of ≤ 20 s', `${workerSeconds.toFixed(1)} s, ${rounds.length}`],
  ['worker throughput', `${workerRate.toFixed(0)} mails/s`],
  ['baseline: bare transport (median of 3)', `${baselineRate.toFixed(0)} mails/s`],
  ['worker / baseline', `${(workerRate / baselineRate).toFixed(2)}×`],
  ['outbox left pending', String(stats.pending)],
];
printMeasures(rows);
printMemory(samples, count);
if (delivered !== count || sent !== count) {
  console.error(`expected ${count} mails delivered once each`);
  process.exitCode = 1;
}
