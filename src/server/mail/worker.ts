/**
 * The outbox worker: claims due mail in small batches, renders and sends each over SMTP, and records the
 * outcome. It runs from the scheduled function every minute in production, once right after each request
 * that queued mail, and every few seconds in `npm run dev` and `npm run preview`.
 *
 * Exactly-once, honestly: a claim moves rows to `sending` under a lease in one statement (FOR UPDATE SKIP
 * LOCKED), so two workers never send the same row. What remains is the crash window between the SMTP
 * server accepting a mail and this worker recording it: if the worker dies there, the lease runs out and
 * the mail is sent again, with the same Message-ID (the idempotency key), which lets receiving systems
 * recognise the copy.
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
  markCancelled,
  markFailed,
  markSent,
  wakeMailAfterOutage,
  type OutboxRow,
} from '../repositories/outbox.ts';
import { composeMail, MailCancelled, type ComposedMail } from './compose.tsx';
import { afterFailure, classifySmtpError, describeError, type FailureKind } from './policy.ts';
import { mailSettings, type MailSettings } from './settings.ts';

export interface WorkerOptions {
  /** Rows claimed per round; they are sent concurrently over the transport's pool. */
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

/** A pooled SMTP transport with timeouts short enough for a function's time limit. */
export function createTransport(smtpUrl: string): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 3,
    maxMessages: 500,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

async function recordFailure(
  db: Db,
  row: OutboxRow,
  error: unknown,
  kind: FailureKind,
  report: WorkerReport,
) {
  const message = describeError(error);
  const outcome = afterFailure({ attempts: row.attempts, queuedAt: row.queuedAt, kind, now: new Date() });
  await markFailed(db, row.id, outcome, { kind, message });
  if (outcome.status === 'failed') report.failed += 1;
  else report.retrying += 1;
  console.warn(`[mail] ${row.template} #${row.id} attempt ${row.attempts}, ${outcome.status}: ${message}`);
}

/** @returns the kind of failure, if the attempt failed. */
async function sendOne(
  db: Db,
  row: OutboxRow,
  transport: Transporter,
  settings: MailSettings,
  report: WorkerReport,
): Promise<FailureKind | undefined> {
  let mail: ComposedMail;
  try {
    mail = await composeMail(db, row, settings);
  } catch (error) {
    if (error instanceof DbUnavailableError) throw error;
    if (error instanceof MailCancelled) {
      await markCancelled(db, row.id, error.message);
      report.cancelled += 1;
      return undefined;
    }
    // A mail that cannot be rendered is a fault in our code: a few more tries, then it shows as failed.
    await recordFailure(db, row, error, 'permanent', report);
    return 'permanent';
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
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  } catch (error) {
    const kind = classifySmtpError(error);
    await recordFailure(db, row, error, kind, report);
    return kind;
  }
  await markSent(db, row.id);
  report.sent += 1;
  return undefined;
}

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
  const transport = options.transport ?? createTransport(settings.smtpUrl!);
  const batchSize = options.batchSize ?? 20;
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
    while (Date.now() < deadline) {
      // Mail about a visitor's request goes first; newsletter issues fill the rest of a batch at their rate.
      const rows = await claimDueMail(db, { limit: batchSize, ids: options.ids });
      if (!options.ids && rows.length < batchSize) {
        const limit = batchSize - rows.length;
        rows.push(...(await claimCampaignMail(db, { limit, ratePerMinute: settings.ratePerMinute })));
      }
      if (rows.length === 0) break;
      const kinds = await Promise.all(rows.map((row) => sendOne(db, row, transport, settings, report)));
      if (options.ids || kinds.includes('connection')) break;
    }
    if (!options.ids) await settleCampaigns(db);
  } finally {
    if (!options.transport) transport.close();
  }
  return report;
}
