/**
 * The outbox worker: claims due mail in batches, reads what a batch needs (its subscribers, suppressions and
 * campaigns) in one query, renders each mail and hands the whole batch to one pooled SMTP transport, which
 * sends as many at a time as it has connections, and records the outcomes as they come in. The next
 * batch is claimed and read while one is being sent, so the connections do not wait for the database. It runs
 * from the scheduled function every minute in production, once right after each request that queued mail,
 * and every few seconds in `npm run dev` and `npm run preview`.
 *
 * Exactly-once, honestly: a claim moves rows to `sending` under a lease in one statement (FOR UPDATE SKIP
 * LOCKED), so two workers never send the same row. What remains is the crash window between the SMTP
 * server accepting a mail and this worker recording it, about one round trip to the database (outcomes are
 * recorded as they arrive, see OutcomeRecorder): if the worker dies there, the lease runs out and those
 * mails are sent again, with the same Message-IDs (the idempotency keys), which let receiving systems
 * recognise the copies. A cancellation or an unsubscribe reaches every mail not claimed yet; the
 * batch being sent and the one claimed behind it (at most twice {@link DEFAULT_BATCH}, a second or two of
 * sending) were checked when they were claimed.
 *
 * Newsletter issues go out at MAIL_RATE_PER_MINUTE at most, counted across workers: when a minute's budget
 * is spent the worker stops and the next run (a minute later) goes on, so a large list takes as many runs
 * as it needs and no run outlives a scheduled function's time limit.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { DbUnavailableError, type Db } from '../db/index.ts';
import { settleCampaigns } from '../repositories/campaigns.ts';
import {
  claimCampaignMail,
  claimDueMail,
  hasMailWaitingForServer,
  recordOutcomes,
  releaseMail,
  sendStateOf,
  wakeMailAfterOutage,
  type MailOutcome,
  type OutboxRow,
  type SendState,
} from '../repositories/outbox.ts';
import type { EventTarget } from '../repositories/suppressions.ts';
import { composeMail, MailCancelled, type ComposedMail } from './compose.tsx';
import type { MailEvent } from './events.ts';
import { verpAddress, verpToken } from './links.ts';
import {
  afterFailure,
  bounceOfSmtpError,
  classifySmtpError,
  describeError,
  type FailureKind,
} from './policy.ts';
import { dkimSettings, mailSettings, type DkimSettings, type MailSettings } from './settings.ts';
import { applySendBounces } from './suppression.ts';

/**
 * Rows claimed per round. Large enough that the few statements per round cost little beside the sending; small
 * enough that a crash repeats few mails and a cancellation waits for little (see the header).
 */
export const DEFAULT_BATCH = 100;

export interface WorkerOptions {
  /** Rows claimed per round ({@link DEFAULT_BATCH}); they are sent concurrently over the transport's pool. */
  batchSize?: number;
  /** Stop claiming new rows after this time (ms since the epoch); a scheduled function has ~30 s. */
  deadline?: number;
  /** Only these rows (the attempt right after a request committed). */
  ids?: readonly number[];
  /** A transport to reuse (tests, benchmarks); otherwise one is made from SMTP_URL and closed after. */
  transport?: Transporter;
  settings?: MailSettings;
}

export interface WorkerReport {
  sent: number;
  /** Failed attempts that will be tried again. */
  retrying: number;
  /** Mail given up on: `failed`. */
  failed: number;
  cancelled: number;
  /** Whether SMTP_URL is set; without it nothing is claimed and mail waits. */
  configured: boolean;
}

/** `<contact-notify.12@korvel.example>`: the idempotency key as the Message-ID. */
export function messageIdFor(key: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${key.replace(/[^A-Za-z0-9.-]/g, '.')}@${domain}>`;
}

/**
 * A pooled SMTP transport with timeouts short enough for a function's time limit; it DKIM-signs every mail when
 * DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN are set.
 */
export function createTransport(
  smtpUrl: string,
  dkim: DkimSettings | undefined = dkimSettings(),
): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    ...(dkim && { dkim }),
    pool: true,
    maxConnections: 3,
    maxMessages: 500,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

/** An attempt's outcome, with the bounce it tells of (and the row it is about) when the server refused the recipient. */
type Attempt = MailOutcome & { bounce?: { event: MailEvent; target: EventTarget } };

/** A failed attempt's outcome: tried again later, or given up on. */
function failure(row: OutboxRow, error: unknown, kind: FailureKind, settings?: MailSettings): Attempt {
  const message = describeError(error);
  const { kind: bounce, status } = settings ? bounceOfSmtpError(error) : { kind: undefined };
  // A hard bounce is never tried again: the address is suppressed with this very event.
  const outcome =
    bounce === 'hard_bounce'
      ? { status: 'failed' as const }
      : afterFailure({ attempts: row.attempts, queuedAt: row.queuedAt, kind, now: new Date() });
  console.warn(`[mail] ${row.template} #${row.id} attempt ${row.attempts}, ${outcome.status}: ${message}`);
  const event: MailEvent | undefined = bounce && {
    source: 'smtp',
    kind: bounce,
    eventId: `${row.key}#${row.attempts}`,
    messageId: messageIdFor(row.key, settings!.from),
    returnPathToken: verpToken(row.id),
    recipient: row.recipient ?? undefined,
    status,
    diagnostic: message,
    at: new Date(),
  };
  const target: EventTarget = {
    outboxId: row.id,
    campaignId: row.template === 'campaign' ? row.campaignId : null,
    subscriberId: row.subscriberId,
    email: row.recipient,
  };
  return { id: row.id, ...outcome, kind, message, ...(event && { bounce: { event, target } }) };
}

/** Renders one claimed mail from the batch's state and hands it to the transport. */
async function sendOne(
  db: Db,
  row: OutboxRow,
  state: SendState,
  transport: Transporter,
  settings: MailSettings,
): Promise<Attempt> {
  let mail: ComposedMail;
  try {
    mail = await composeMail(db, row, settings, state);
  } catch (error) {
    if (error instanceof DbUnavailableError) throw error;
    if (error instanceof MailCancelled) return { id: row.id, status: 'cancelled', reason: error.message };
    // A mail that cannot be rendered is a fault in our code: a few more tries, then it shows as failed.
    return failure(row, error, 'permanent');
  }
  try {
    await transport.sendMail({
      from: settings.from,
      to: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
      attachments: mail.attachments,
      messageId: messageIdFor(row.key, settings.from),
      // The return path is the mail's own (VERP), so a bounce that comes back by mail names this row.
      envelope: { from: verpAddress(settings.bounceAddress, row.id), to: mail.to },
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  } catch (error) {
    return failure(row, error, classifySmtpError(error), settings);
  }
  return { id: row.id, status: 'sent' };
}

/** Claimed rows and what they need checked (see `sendStateOf`). */
interface Batch {
  rows: OutboxRow[];
  state: SendState;
}

/**
 * Claims the next batch: mail about a visitor's request first, newsletter issues filling the rest at their
 * rate. Then reads the subscribers, suppressions and campaigns the batch needs, in one query.
 */
async function claimBatch(
  db: Db,
  batchSize: number,
  settings: MailSettings,
  ids: readonly number[] | undefined,
): Promise<Batch | undefined> {
  const rows = await claimDueMail(db, { limit: batchSize, ids });
  if (!ids && rows.length < batchSize) {
    const limit = batchSize - rows.length;
    rows.push(...(await claimCampaignMail(db, { limit, ratePerMinute: settings.ratePerMinute })));
  }
  return rows.length === 0 ? undefined : { rows, state: await sendStateOf(db, rows) };
}

/** Hands back a batch claimed ahead that will not be sent now (its lease would free it, minutes later). */
async function giveBack(db: Db, next: Promise<Batch | undefined> | undefined): Promise<void> {
  const ids = (await next?.catch(() => undefined))?.rows.map((row) => row.id) ?? [];
  await releaseMail(db, ids).catch(() => undefined);
}

/**
 * How long a batch that has gone out waits for the database to record it and its bounces. Unrecorded, its rows
 * would stay leased and be sent again when the lease ran out, and a send-time hard bounce, whose row is then
 * `failed`, would never reach the suppression list; an outage shorter than this costs neither. In a
 * scheduled function (30 s, the last claim at 20 s) the platform may end the run first: there the patience is
 * what remains of the function's time, and a longer outage costs the batch's second copies after the lease.
 */
export const RECORD_PATIENCE_MS = 30_000;

/** Runs `work`, trying again while the database refuses, for {@link RECORD_PATIENCE_MS}. */
async function patiently(work: () => Promise<void>): Promise<void> {
  const giveUpAt = Date.now() + RECORD_PATIENCE_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 4_000)) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DbUnavailableError) || Date.now() + wait > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Applies a batch's send-time bounces (one transaction, so a retry never applies one twice). */
const applyBounces = (db: Db, outcomes: readonly Attempt[]) =>
  patiently(() =>
    applySendBounces(
      db,
      outcomes.flatMap(({ bounce }) => (bounce ? [bounce] : [])),
    ),
  );

/**
 * Records a batch's outcomes as they arrive rather than once the whole batch is out: what arrives while one
 * statement runs goes into the next. A worker killed mid-batch so leaves unrecorded only the mails of about
 * one round trip to the database (sent again when their lease runs out), not every mail of the batch the SMTP
 * server had already accepted; a batch still takes a handful of statements, not one per mail.
 */
class OutcomeRecorder {
  #waiting: MailOutcome[] = [];
  #running: Promise<void> | undefined;
  #failed: unknown;
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  add(outcome: MailOutcome): void {
    this.#waiting.push(outcome);
    // After a failure nothing more is recorded (the run reports the failure). Otherwise #record always reaches
    // its first await with an outcome to record, so its `finally` cannot run before #running is assigned; it
    // clears #running in the same step that finds nothing waiting, so an outcome added later starts it again.
    if (this.#failed === undefined) this.#running ??= this.#record();
  }

  async #record(): Promise<void> {
    try {
      while (this.#waiting.length > 0 && this.#failed === undefined) {
        const outcomes = this.#waiting;
        this.#waiting = [];
        await patiently(() => recordOutcomes(this.#db, outcomes));
      }
    } catch (error) {
      this.#failed = error;
    } finally {
      this.#running = undefined;
    }
  }

  /** Resolves once everything added is recorded; rejects with what recording ran into. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
    if (this.#failed !== undefined) throw this.#failed;
  }
}

/** Adds a batch's outcomes to the run's report. */
const tally = (report: WorkerReport, outcomes: readonly MailOutcome[]) => {
  for (const outcome of outcomes) {
    if (outcome.status === 'sent') report.sent += 1;
    else if (outcome.status === 'cancelled') report.cancelled += 1;
    else if (outcome.status === 'failed') report.failed += 1;
    else report.retrying += 1;
  }
};

/** Sends what is due; see {@link WorkerOptions}. Never throws for a mail's failure, only for the database's. */
export async function processOutbox(db: Db, options: WorkerOptions = {}): Promise<WorkerReport> {
  const settings = options.settings ?? mailSettings();
  const report: WorkerReport = {
    sent: 0,
    retrying: 0,
    failed: 0,
    cancelled: 0,
    configured: Boolean(settings.smtpUrl),
  };
  if (!settings.smtpUrl && !options.transport) return report;
  const transport = options.transport ?? createTransport(settings.smtpUrl!, settings.dkim);
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const deadline = options.deadline ?? Date.now() + 20_000;
  try {
    // Mail held back by an outage is due again as soon as the server answers, not when its backoff ends.
    if (!options.ids && (await hasMailWaitingForServer(db))) {
      const up = await transport.verify().then(
        () => true,
        () => false,
      );
      if (up) await wakeMailAfterOutage(db);
    }
    let next = Date.now() < deadline ? claimBatch(db, batchSize, settings, options.ids) : undefined;
    // A batch's bounces are applied while the next batch is sent; whatever went wrong surfaces at the next
    // await (the promise resolves to the error, so it is never an unhandled rejection meanwhile).
    let applying: Promise<unknown> = Promise.resolve();
    const applied = async () => {
      const failed = await applying;
      applying = Promise.resolve();
      if (failed) throw failed;
    };
    while (next) {
      let batch: Batch | undefined;
      try {
        batch = await next;
      } catch (error) {
        // The claim made ahead failed: the previous batch's bounces still finish before the run reports it.
        await applying;
        throw error;
      }
      if (!batch) break;
      // Every mail goes to the pool at once; it sends as many at a time as it has connections.
      const recorder = new OutcomeRecorder(db);
      const sending = Promise.all(
        batch.rows.map(async (row) => {
          const attempt = await sendOne(db, row, batch.state, transport, settings);
          recorder.add(attempt);
          return attempt;
        }),
      );
      // Meanwhile the next batch is claimed and read, so the connections do not wait for the database. It is
      // awaited only once this batch is recorded, which takes seconds while the database refuses: a failed
      // claim is marked handled now and surfaces at that await (or in giveBack), never as an unhandled rejection.
      next =
        !options.ids && Date.now() < deadline ? claimBatch(db, batchSize, settings, undefined) : undefined;
      void next?.catch(() => undefined);
      let outcomes: Attempt[] | undefined;
      try {
        outcomes = await sending;
        await applied();
        await recorder.settled();
        // After the outcomes: a suppression cancels the address's other waiting mail, never this attempt's row.
        applying = applyBounces(db, outcomes).then(
          () => undefined,
          (error: unknown) => error,
        );
      } catch (error) {
        await applying;
        // The run ends with the error, but this batch's bounces still go on the list once its outcomes are in.
        const recorded = await recorder.settled().then(
          () => true,
          () => false,
        );
        if (recorded && outcomes) await applyBounces(db, outcomes).catch(() => undefined);
        await giveBack(db, next);
        throw error;
      }
      tally(report, outcomes);
      if (outcomes.some((outcome) => 'kind' in outcome && outcome.kind === 'connection')) {
        await giveBack(db, next);
        break;
      }
    }
    await applied();
    if (!options.ids) await settleCampaigns(db);
  } finally {
    if (!options.transport) transport.close();
  }
  return report;
}
