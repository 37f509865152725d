/**
 * The mail outbox: one row per mail, written in the same transaction as whatever causes it, sent by the
 * worker (src/server/mail/worker.ts). Claiming is one UPDATE … FOR UPDATE SKIP LOCKED statement that moves
 * rows to `sending` under a lease, so two workers never hold the same row.
 */
import type { Db, Queryable } from '../db/index.ts';
import { emailHash } from '../mail/hash.ts';
import type { AfterFailure, FailureKind } from '../mail/policy.ts';
import type { CampaignForMail } from './campaigns.ts';
import type { StoredSubscriber } from './subscribers.ts';
import type { SuppressionReason } from './suppressions.ts';

export const MAIL_TEMPLATES = [
  'contact-notify',
  'contact-ack',
  'meeting-notify',
  'meeting-ack',
  'meeting-confirmed',
  'meeting-declined',
  'newsletter-confirm',
  'newsletter-welcome',
  'campaign',
  'campaign-test',
  'team-invite',
  'password-reset',
  'account-locked',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

export interface OutgoingMail {
  /** Unique per mail; becomes the Message-ID, so a retried request never queues a second copy. */
  key: string;
  template: MailTemplate;
  to: string;
  /** What the template needs beyond the inquiry or subscriber row it reads at send time. */
  params?: Record<string, unknown>;
  inquiryId?: number;
  subscriberId?: number;
  campaignId?: number;
  /** Keeps to the send rate (MAIL_RATE_PER_MINUTE), as a newsletter issue's copies always do. */
  paced?: boolean;
}

export interface OutboxRow {
  id: number;
  key: string;
  template: MailTemplate;
  /** Null once the row's personal data has been purged. */
  recipient: string | null;
  params: Record<string, unknown>;
  inquiryId: number | null;
  subscriberId: number | null;
  campaignId: number | null;
  status: MailStatus;
  attempts: number;
  /** Start of the current 24-hour delivery budget. */
  queuedAt: Date;
  lastError: string | null;
  failureKind: FailureKind | null;
  sentAt: Date | null;
}

interface Row extends Record<string, unknown> {
  id: number;
  idempotency_key: string;
  template: MailTemplate;
  recipient: string | null;
  params: Record<string, unknown> | string;
  inquiry_id: number | null;
  subscriber_id: number | null;
  campaign_id: number | null;
  status: MailStatus;
  attempts: number;
  queued_at: Date;
  last_error: string | null;
  failure_kind: FailureKind | null;
  sent_at: Date | null;
}

const COLUMNS = `id, idempotency_key, template, recipient, params, inquiry_id, subscriber_id, campaign_id, status,
  attempts, queued_at, last_error, failure_kind, sent_at`;

const toRow = (row: Row): OutboxRow => ({
  id: row.id,
  key: row.idempotency_key,
  template: row.template,
  recipient: row.recipient,
  params: typeof row.params === 'string' ? (JSON.parse(row.params) as Record<string, unknown>) : row.params,
  inquiryId: row.inquiry_id,
  subscriberId: row.subscriber_id,
  campaignId: row.campaign_id,
  status: row.status,
  attempts: row.attempts,
  queuedAt: new Date(row.queued_at),
  lastError: row.last_error,
  failureKind: row.failure_kind,
  sentAt: row.sent_at && new Date(row.sent_at),
});

/** Rows per INSERT when queueing many mails at once (a campaign, the benchmark). */
const ENQUEUE_CHUNK = 1000;

/**
 * Queues mails, up to {@link ENQUEUE_CHUNK} in one statement; a key that is already queued is left as it is.
 * @returns the ids of the rows written (not of those that existed).
 */
export async function enqueueMail(db: Queryable, mails: readonly OutgoingMail[]): Promise<number[]> {
  const ids: number[] = [];
  for (let from = 0; from < mails.length; from += ENQUEUE_CHUNK) {
    const chunk = mails.slice(from, from + ENQUEUE_CHUNK);
    const rows = await db.query<{ id: number }>(
      `INSERT INTO outbox (idempotency_key, template, recipient, params, inquiry_id, subscriber_id, campaign_id,
         paced)
       SELECT key, template, recipient, params::jsonb, inquiry_id, subscriber_id, campaign_id, paced
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::bool[])
         AS m (key, template, recipient, params, inquiry_id, subscriber_id, campaign_id, paced)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      [
        chunk.map((m) => m.key),
        chunk.map((m) => m.template),
        chunk.map((m) => m.to),
        chunk.map((m) => JSON.stringify(m.params ?? {})),
        chunk.map((m) => m.inquiryId ?? null),
        chunk.map((m) => m.subscriberId ?? null),
        chunk.map((m) => m.campaignId ?? null),
        chunk.map((m) => m.paced ?? false),
      ],
    );
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** How long a claimed row stays the claiming worker's before another may take it over (after a crash). */
export const LEASE_SECONDS = 5 * 60;

/** Mail that keeps to the send rate: newsletter issues' copies and an import's confirmation mails. */
const PACED = `(template = 'campaign' OR paced)`;

const DUE = `((status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now()))`;
const CLAIM = `status = 'sending', attempts = attempts + 1, claimed_at = clock_timestamp(),
  lease_until = now() + make_interval(secs => ${LEASE_SECONDS})`;

/**
 * Claims up to `limit` due rows for this worker: pending rows whose time has come and `sending` rows whose
 * lease ran out (their worker died). With `ids`, only those rows (the attempt right after a request).
 * Paced mail (newsletter issues' copies, an import's confirmation mails) is left to {@link claimCampaignMail},
 * which keeps to the send rate.
 */
export async function claimDueMail(
  db: Queryable,
  options: { limit: number; ids?: readonly number[] },
): Promise<OutboxRow[]> {
  const onlyIds = options.ids ? 'AND id = ANY($2::int[])' : '';
  const rows = await db.query<Row>(
    `UPDATE outbox SET ${CLAIM}
     WHERE id IN (
       SELECT id FROM outbox
       WHERE ${DUE} AND NOT ${PACED} ${onlyIds}
       ORDER BY next_attempt_at, id
       LIMIT $1
       FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    options.ids ? [options.limit, options.ids] : [options.limit],
  );
  return rows.map(toRow).sort((a, b) => a.id - b.id);
}

/** Any number; the same in every worker, so campaign claims take turns and the rate holds across them. */
const CAMPAIGN_RATE_LOCK = 724_310_2011;

/**
 * Claims up to `limit` paced mails (copies of newsletter issues, an import's confirmation mails), but never
 * more than `ratePerMinute` in any 60 seconds across all workers: the claims of the last minute are counted (up to the budget, no further) under a
 * transaction-scoped advisory lock, so two workers that overlap cannot both spend the same budget.
 */
export async function claimCampaignMail(
  db: Db,
  options: { limit: number; ratePerMinute: number },
): Promise<OutboxRow[]> {
  const rows = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [CAMPAIGN_RATE_LOCK]);
    return tx.query<Row>(
      `UPDATE outbox SET ${CLAIM}
       WHERE id IN (
         SELECT id FROM outbox
         WHERE ${DUE} AND ${PACED}
         ORDER BY next_attempt_at, id
         LIMIT least($1, greatest($2 - (
           SELECT count(*) FROM (
             SELECT 1 FROM outbox
             WHERE ${PACED} AND claimed_at > clock_timestamp() - interval '60 seconds'
             LIMIT $2) AS spent), 0))
         FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [options.limit, options.ratePerMinute],
    );
  });
  return rows.map(toRow).sort((a, b) => a.id - b.id);
}

/** How a claimed mail's attempt ended: delivered, not to be sent any more, or failed (see `afterFailure`). */
export type MailOutcome = { id: number } & (
  | { status: 'sent' }
  | { status: 'cancelled'; reason: string }
  | (AfterFailure & { kind: FailureKind; message: string })
);

/**
 * Records a batch's outcomes in one statement. Only the worker holding a row (status `sending`) may settle
 * it; a cancellation also applies to a row that is still pending.
 */
export async function recordOutcomes(db: Queryable, outcomes: readonly MailOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const error = (o: MailOutcome) => ('reason' in o ? o.reason : 'message' in o ? o.message : null);
  await db.query(
    `UPDATE outbox o SET status = r.status, lease_until = NULL,
       sent_at = CASE WHEN r.status = 'sent' THEN now() ELSE o.sent_at END,
       next_attempt_at = coalesce(r.next_attempt_at, o.next_attempt_at),
       last_error = r.last_error, failure_kind = r.failure_kind
     FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::text[], $5::text[])
       AS r (id, status, next_attempt_at, last_error, failure_kind)
     WHERE o.id = r.id AND (o.status = 'sending' OR (o.status = 'pending' AND r.status = 'cancelled'))`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.status),
      outcomes.map((o) => ('nextAttemptAt' in o ? o.nextAttemptAt : null)),
      outcomes.map((o) => error(o)?.slice(0, 500) ?? null),
      outcomes.map((o) => ('kind' in o ? o.kind : null)),
    ],
  );
}

/** Hands claimed rows back untouched (the worker ran out of time, or the server went away mid-batch). */
export async function releaseMail(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE outbox SET status = 'pending', attempts = greatest(attempts - 1, 0), lease_until = NULL,
       claimed_at = NULL
     WHERE id = ANY($1::int[]) AND status = 'sending'`,
    [ids],
  );
}

/** After a successful probe of the SMTP server: mails that waited only because it was down are due now. */
export async function wakeMailAfterOutage(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE outbox SET next_attempt_at = now()
     WHERE status = 'pending' AND failure_kind = 'connection' AND next_attempt_at > now() RETURNING id`,
  );
  return rows.length;
}

/** Whether any pending mail is waiting for the server to come back (so a probe is worth making). */
export async function hasMailWaitingForServer(db: Queryable): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM outbox WHERE status = 'pending' AND failure_kind = 'connection' AND next_attempt_at > now() LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * The admin's retry of a failed inquiry mail: pending again with a fresh 24-hour budget. Other mail (sign-in
 * links, newsletters) is not the inquiry screen's to send again, and is not found here.
 * @returns the row, or undefined when there is no inquiry mail with this id; `retried` is false unless it had
 * failed.
 */
export async function retryFailedMail(
  db: Queryable,
  id: number,
): Promise<{ row: OutboxRow; retried: boolean } | undefined> {
  const [updated] = await db.query<Row>(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = now(), queued_at = now(),
       last_error = NULL, failure_kind = NULL
     WHERE id = $1 AND inquiry_id IS NOT NULL AND status = 'failed' AND recipient IS NOT NULL
     RETURNING ${COLUMNS}`,
    [id],
  );
  if (updated) return { row: toRow(updated), retried: true };
  const [existing] = await db.query<Row>(
    `SELECT ${COLUMNS} FROM outbox WHERE id = $1 AND inquiry_id IS NOT NULL`,
    [id],
  );
  return existing && { row: toRow(existing), retried: false };
}

export interface OutboxStats {
  pending: number;
  failed: number;
  /** Seconds since the oldest mail still waiting was queued; 0 when none waits. */
  oldestPendingSeconds: number;
}

export async function outboxStats(db: Queryable): Promise<OutboxStats> {
  const [row] = await db.query<{ pending: number; failed: number; oldest: number | null }>(
    `SELECT count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS pending,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            floor(extract(epoch FROM now() - min(queued_at) FILTER (WHERE status IN ('pending', 'sending'))))::int AS oldest
     FROM outbox`,
  );
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, oldestPendingSeconds: row?.oldest ?? 0 };
}

/** What the admin sees of an inquiry's mail: who it went to, and how it went. */
export interface InquiryMail {
  id: number;
  template: MailTemplate;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

export async function mailOfInquiries(
  db: Queryable,
  inquiryIds: readonly number[],
): Promise<Map<number, InquiryMail[]>> {
  const byInquiry = new Map<number, InquiryMail[]>();
  if (inquiryIds.length === 0) return byInquiry;
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM outbox WHERE inquiry_id = ANY($1::int[]) ORDER BY id`,
    [inquiryIds],
  );
  for (const row of rows.map(toRow)) {
    const list = byInquiry.get(row.inquiryId!) ?? [];
    list.push({
      id: row.id,
      template: row.template,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      sentAt: row.sentAt?.toISOString() ?? null,
    });
    byInquiry.set(row.inquiryId!, list);
  }
  return byInquiry;
}

/** Why the address is suppressed (an unsubscribe, a bounce, a complaint), or undefined when it is not. */
export async function suppressionOf(db: Queryable, email: string): Promise<SuppressionReason | undefined> {
  const [row] = await db.query<{ reason: SuppressionReason }>(
    'SELECT reason FROM mail_suppressions WHERE email_hash = $1',
    [emailHash(email)],
  );
  return row?.reason;
}

/**
 * What the worker checks before a claimed batch goes out, read for the whole batch at once: the subscribers
 * its mails are about, which of its recipients are suppressed, and the state and content of its campaigns.
 */
export interface SendState {
  subscribers: ReadonlyMap<number, StoredSubscriber>;
  /** {@link emailHash} of each suppressed recipient → why it is suppressed. */
  suppressed: ReadonlyMap<string, SuppressionReason>;
  campaigns: ReadonlyMap<number, CampaignForMail>;
}

interface SendStateRow extends Record<string, unknown> {
  subscribers: StoredSubscriber[] | string;
  suppressed: Array<{ hash: string; reason: SuppressionReason }> | string;
  campaigns: Array<Omit<CampaignForMail, 'updatedAt'> & { updated_at: string }> | string;
}

/** JSON columns arrive parsed from node-postgres and PGlite, as text from some drivers. */
const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** {@link SendState} for `rows`, in one query. */
export async function sendStateOf(db: Queryable, rows: readonly OutboxRow[]): Promise<SendState> {
  const ids = (pick: (row: OutboxRow) => number | null) => [
    ...new Set(rows.map(pick).filter((id) => id !== null)),
  ];
  const hashes = [
    ...new Set(rows.flatMap((row) => (row.recipient === null ? [] : [emailHash(row.recipient)]))),
  ];
  const [state] = await db.query<SendStateRow>(
    `SELECT
       (SELECT coalesce(json_agg(json_build_object('id', id, 'email', email, 'status', status, 'lang', lang)), '[]')
        FROM subscribers WHERE id = ANY($1::int[])) AS subscribers,
       (SELECT coalesce(json_agg(json_build_object('hash', email_hash, 'reason', reason)), '[]')
        FROM mail_suppressions WHERE email_hash = ANY($2::text[])) AS suppressed,
       (SELECT coalesce(json_agg(json_build_object('id', id, 'subject', subject, 'preheader', preheader,
          'markdown', markdown, 'articles', articles, 'lang', lang, 'status', status, 'updated_at', updated_at)),
          '[]')
        FROM campaigns WHERE id = ANY($3::int[])) AS campaigns`,
    [ids((row) => row.subscriberId), hashes, ids((row) => row.campaignId)],
  );
  return {
    subscribers: new Map(fromJson(state!.subscribers).map((s) => [s.id, s])),
    suppressed: new Map(fromJson(state!.suppressed).map(({ hash, reason }) => [hash, reason])),
    campaigns: new Map(
      fromJson(state!.campaigns).map(({ updated_at, ...campaign }) => [
        campaign.id,
        { ...campaign, updatedAt: new Date(updated_at).toISOString() },
      ]),
    ),
  };
}
