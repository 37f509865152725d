/**
 * `npm run bench:campaign`: one newsletter issue to COUNT (default 10,000) confirmed subscribers, in-process
 * on embedded PGlite against the local SMTP catcher.
 *
 * 1. Enqueue: the send's one transaction (campaign to `sending`, one outbox row per confirmed subscriber).
 * 2. The send rate: one scheduled-function run at the default MAIL_RATE_PER_MINUTE (600) must claim exactly
 *    that many copies and stop; the time the whole list would take at that rate is worked out from it.
 * 3. Throughput: the rest drained with the rate lifted, in scheduled-function rounds (≤ 20 s, default batches),
 *    memory sampled every 100 ms, against the bare transport measured in the same run (median of three).
 * Prints Markdown tables; exits non-zero unless every subscriber got exactly one copy and the issue is `sent`.
 */
import { performance } from 'node:perf_hooks';
import { composeMail } from '../../src/server/mail/compose.tsx';
import { DEFAULT_MAIL_RATE_PER_MINUTE } from '../../src/server/mail/settings.ts';
import { createTransport, DEFAULT_BATCH, processOutbox } from '../../src/server/mail/worker.ts';
import { createCampaign, findCampaign, startSending } from '../../src/server/repositories/campaigns.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';
import { claimCampaignMail, releaseMail } from '../../src/server/repositories/outbox.ts';
import { bareTransportRate, printMeasures, printMemory, sampleMemory, startMailBench } from './lib/mail.ts';

const count = Number(process.env.COUNT ?? 10_000);
/** The baseline's mails in flight at once (the pool queues what its connections cannot take yet). */
const BATCH = 20;

const { catcher, settings, db } = await startMailBench(count);

await upsertAdmin(db, 'editor@bench.example', 'not-a-real-hash');
const [{ id: adminId }] = (await db.query<{ id: number }>('SELECT id FROM admins')) as [{ id: number }];
const campaign = await createCampaign(
  db,
  {
    lang: 'en',
    subject: 'Korvel newsletter, winter 2026',
    preheader: 'Annex 1 inspections, hygienic design and a heat-pump retrofit.',
    markdown: [
      '## In this issue',
      '',
      'Two years of **EU GMP Annex 1** inspections have settled what inspectors expect of a contamination',
      'control strategy. Our notes from recent audits, and three articles from our engineers.',
      '',
      '- What a CCS must name, and who owns each control',
      '- Hygienic design that survives a CIP validation',
      '- Heat pumps sized from a pinch analysis, not a catalogue',
    ].join('\n'),
    articles: ['blog/closed-systems', 'blog/hygienic-design-in-food-plants'],
  },
  adminId,
);

// 1. Enqueue.
let started = performance.now();
await db.transaction((tx) => startSending(tx, campaign.id));
const enqueueMs = performance.now() - started;

// 2. One scheduled run at the default rate: it claims the minute's budget and stops.
const claimed = await claimCampaignMail(db, { limit: count, ratePerMinute: DEFAULT_MAIL_RATE_PER_MINUTE });
const second = await claimCampaignMail(db, { limit: count, ratePerMinute: DEFAULT_MAIL_RATE_PER_MINUTE });
const [sample] = claimed;
const mail = await composeMail(db, sample!, settings);
await releaseMail(
  db,
  [...claimed, ...second].map((row) => row.id),
);

// 3. Throughput with the rate lifted, beside the bare transport.
const baselineRate = await bareTransportRate(catcher.smtpUrl, settings.from, mail, 1_000, BATCH);
const caughtBefore = catcher.received();
const memory = sampleMemory(() => catcher.received() - caughtBefore);
const transport = createTransport(catcher.smtpUrl);
const unlimited = { ...settings, ratePerMinute: 999_999 };
let rounds = 0;
started = performance.now();
for (;;) {
  rounds += 1;
  const report = await processOutbox(db, {
    transport,
    settings: unlimited,
    batchSize: DEFAULT_BATCH,
    deadline: Date.now() + 20_000,
  });
  if (report.sent === 0) break;
}
const workerSeconds = (performance.now() - started) / 1000;
const samples = memory.stop();
transport.close();

const delivered = catcher.received() - caughtBefore;
const done = await findCampaign(db, campaign.id);
const [{ copies }] = (await db.query<{ copies: number }>(
  `SELECT count(DISTINCT recipient)::int AS copies FROM outbox WHERE campaign_id = $1 AND status = 'sent'`,
  [campaign.id],
)) as [{ copies: number }];
await db.close();
await catcher.stop();

const workerRate = delivered / workerSeconds;
const minutes = Math.ceil(count / DEFAULT_MAIL_RATE_PER_MINUTE);
console.log(
  `\nbench:campaign — one issue to ${count.toLocaleString('en-GB')} confirmed subscribers, embedded PGlite, local SMTP catcher\n`,
);
printMeasures([
  [`enqueue ${count} copies (the send's transaction)`, `${(enqueueMs / 1000).toFixed(2)} s`],
  [
    `one run at ${DEFAULT_MAIL_RATE_PER_MINUTE}/min: claimed, then claimed again`,
    `${claimed.length}, ${second.length}`,
  ],
  [`whole list at ${DEFAULT_MAIL_RATE_PER_MINUTE}/min`, `${minutes} runs, ~${minutes} min`],
  ['rate lifted: delivered / distinct recipients', `${delivered} / ${copies}`],
  ['rate lifted: time, rounds of ≤ 20 s', `${workerSeconds.toFixed(1)} s, ${rounds}`],
  ['worker throughput', `${workerRate.toFixed(0)} mails/s`],
  ['baseline: bare transport (median of 3)', `${baselineRate.toFixed(0)} mails/s`],
  ['worker / baseline', `${(workerRate / baselineRate).toFixed(2)}×`],
  ['campaign status, counts.sent', `${done?.status}, ${done?.counts.sent}`],
]);
printMemory(samples, count);
const rateHeld = claimed.length === Math.min(count, DEFAULT_MAIL_RATE_PER_MINUTE) && second.length === 0;
if (delivered !== count || copies !== count || done?.status !== 'sent' || !rateHeld) {
  console.error(`expected ${count} copies, one per subscriber, the issue sent, and the rate held`);
  process.exitCode = 1;
}
