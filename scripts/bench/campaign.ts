/**
 * `npm run bench:campaign`: one newsletter issue to COUNT (default 10,000) confirmed subscribers, in-process
 * on embedded PGlite against the local SMTP catcher.
 *
 * 1. Enqueue: the send's one transaction (campaign to `sending`, one outbox row per confirmed subscriber).
 * 2. The send rate: one scheduled-function run at the default MAIL_RATE_PER_MINUTE (600) must claim exactly
 *    that many copies and stop; the time the whole list would take at that rate is worked out from it.
 * 3. Throughput: the rest drained with the rate lifted, in scheduled-function rounds (≤ 20 s, default batches),
 *    memory sampled every 100 ms, against the bare transport measured in the same run (median of three).
 * 4. Bounces: the same issue again on a fresh database, with the catcher refusing every twentieth subscriber
 *    (5 %, 550 5.1.1): each refused address must be suppressed exactly once (one hard bounce, one suppression,
 *    one log entry), every other copy delivered once, and the worker must keep at least half the bare
 *    transport's throughput.
 * Prints Markdown tables; exits non-zero unless every subscriber got exactly one copy and the issue is `sent`,
 * and the bounce run holds its bar.
 */
import { performance } from 'node:perf_hooks';
import type { Db } from '../../src/server/db/index.ts';
import { composeMail } from '../../src/server/mail/compose.tsx';
import { DEFAULT_MAIL_RATE_PER_MINUTE, type MailSettings } from '../../src/server/mail/settings.ts';
import { createTransport, DEFAULT_BATCH, processOutbox } from '../../src/server/mail/worker.ts';
import {
  createCampaign,
  findCampaign,
  startSending,
  type CampaignContent,
} from '../../src/server/repositories/campaigns.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';
import { claimCampaignMail, releaseMail } from '../../src/server/repositories/outbox.ts';
import { bareTransportRate, printMeasures, printMemory, sampleMemory, startMailBench } from './lib/mail.ts';

const count = Number(process.env.COUNT ?? 10_000);
/** The baseline's mails in flight at once (the pool queues what its connections cannot take yet). */
const BATCH = 20;
/** The bounce run refuses every n-th subscriber: 20 → 5 %. */
const REFUSE_EVERY = 20;
/** The bounce run's bar: the worker keeps at least this share of the bare transport's throughput. */
const BOUNCE_RUN_MIN_RATIO = 0.5;

const ISSUE: CampaignContent = {
  lang: 'en',
  topics: [],
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
};

/** A fresh database with `count` subscribers and the issue as a draft, against a catcher that may refuse some. */
async function prepare(refuse?: (recipient: string) => number | undefined) {
  const bench = await startMailBench(count, refuse);
  await upsertAdmin(bench.db, 'editor@bench.example', 'not-a-real-hash');
  const [{ id: adminId }] = (await bench.db.query<{ id: number }>('SELECT id FROM admins')) as [
    { id: number },
  ];
  return { ...bench, campaign: await createCampaign(bench.db, ISSUE, adminId) };
}

/** Scheduled-function rounds (≤ 20 s, default batches) with the rate lifted, until a round sends nothing. */
async function drain(db: Db, smtpUrl: string, settings: MailSettings) {
  const transport = createTransport(smtpUrl);
  const unlimited = { ...settings, ratePerMinute: 999_999 };
  let rounds = 0;
  const started = performance.now();
  for (;;) {
    rounds += 1;
    const report = await processOutbox(db, {
      transport,
      settings: unlimited,
      batchSize: DEFAULT_BATCH,
      deadline: Date.now() + 20_000,
    });
    if (report.sent === 0 && report.failed === 0) break;
  }
  transport.close();
  return { seconds: (performance.now() - started) / 1000, rounds };
}

const { catcher, settings, db, campaign } = await prepare();

// 1. Enqueue.
const started = performance.now();
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
const { seconds: workerSeconds, rounds } = await drain(db, catcher.smtpUrl, settings);
const samples = memory.stop();

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

// 4. The same issue with 5 % of the list refused for good (550 5.1.1) by the receiving server.
const refused = (address: string) => Number(/^reader(\d+)@/.exec(address)?.[1]) % REFUSE_EVERY === 0;
const bounce = await prepare((address) => (refused(address) ? 550 : undefined));
const expectedRefused = Math.floor(count / REFUSE_EVERY);
await bounce.db.transaction((tx) => startSending(tx, bounce.campaign.id));
const bounceBaseline = await bareTransportRate(bounce.catcher.smtpUrl, settings.from, mail, 1_000, BATCH);
const baselineCaught = bounce.catcher.received();
const bounceRun = await drain(bounce.db, bounce.catcher.smtpUrl, bounce.settings);
const bounceDelivered = bounce.catcher.received() - baselineCaught;
const [outcome] = (await bounce.db.query<Record<string, number>>(
  `SELECT
     (SELECT count(*) FROM outbox WHERE campaign_id = $1 AND status = 'sent')::int AS sent,
     (SELECT count(DISTINCT recipient) FROM outbox WHERE campaign_id = $1 AND status = 'sent')::int AS sent_recipients,
     (SELECT count(*) FROM outbox WHERE campaign_id = $1 AND status = 'failed' AND attempts = 1)::int AS failed_once,
     (SELECT count(*) FROM outbox WHERE campaign_id = $1 AND status = 'sent'
        AND substring(recipient FROM '^reader([0-9]+)@')::int % $2 = 0)::int AS refused_sent,
     (SELECT count(*) FROM mail_suppressions WHERE reason = 'hard_bounce')::int AS suppressions,
     (SELECT count(*) FROM mail_events WHERE kind = 'hard_bounce')::int AS events,
     (SELECT count(DISTINCT email_hash) FROM mail_events WHERE kind = 'hard_bounce')::int AS addresses,
     (SELECT count(*) FROM activity_log WHERE action = 'suppression.add')::int AS logged,
     (SELECT count(*) FROM subscribers WHERE status = 'bounced'
        AND substring(email FROM '^reader([0-9]+)@')::int % $2 = 0)::int AS bounced`,
  [bounce.campaign.id, REFUSE_EVERY],
)) as [Record<string, number>];
const bounceDone = await findCampaign(bounce.db, bounce.campaign.id);
await bounce.db.close();
await bounce.catcher.stop();
// Throughput counts every copy the worker settled: delivered, or refused and its address suppressed.
const bounceRate = count / bounceRun.seconds;
const ratio = bounceRate / bounceBaseline;
console.log(
  `\nthe same issue with every ${REFUSE_EVERY}th address refused (550 5.1.1, ${expectedRefused} of ${count}):\n`,
);
printMeasures([
  ['delivered / distinct recipients', `${bounceDelivered} / ${outcome.sent_recipients}`],
  ['refused: failed after one attempt', `${outcome.failed_once}`],
  [
    'hard bounces / addresses / suppressions / log',
    `${outcome.events} / ${outcome.addresses} / ${outcome.suppressions} / ${outcome.logged}`,
  ],
  ['subscribers now `bounced`', `${outcome.bounced}`],
  ['time, rounds of ≤ 20 s', `${bounceRun.seconds.toFixed(1)} s, ${bounceRun.rounds}`],
  ['worker throughput (copies settled)', `${bounceRate.toFixed(0)} mails/s`],
  ['baseline: bare transport (median of 3)', `${bounceBaseline.toFixed(0)} mails/s`],
  ['worker / baseline', `${ratio.toFixed(2)}×`],
  ['campaign status', `${bounceDone?.status}`],
]);
const delivering = count - expectedRefused;
const bounceHeld =
  bounceDelivered === delivering &&
  outcome.sent === delivering &&
  outcome.sent_recipients === delivering &&
  outcome.refused_sent === 0 &&
  outcome.failed_once === expectedRefused &&
  [outcome.events, outcome.addresses, outcome.suppressions, outcome.logged, outcome.bounced].every(
    (n) => n === expectedRefused,
  ) &&
  bounceDone?.status === 'sent' &&
  ratio >= BOUNCE_RUN_MIN_RATIO;
if (!bounceHeld) {
  console.error(
    `expected ${expectedRefused} addresses each suppressed once, ${delivering} copies delivered once, the issue sent, and at least ${BOUNCE_RUN_MIN_RATIO}× the bare transport`,
  );
  process.exitCode = 1;
}
