/**
 * The suppression list and the bounce and complaint events behind it (db/migrations/0013_deliverability.sql).
 * An address is suppressed by its {@link emailHash}; rows written by a bounce or complaint also keep the
 * address, so the firm can see and search them. What an event does is decided in src/server/mail/suppression.ts;
 * this module only reads and writes rows.
 */
import type { Queryable } from '../db/index.ts';
import type { MailEventKind, MailEventSource } from '../mail/events.ts';
import { emailHash } from '../mail/hash.ts';
import { RATE_WINDOW_DAYS, SOFT_BOUNCE_WINDOW_DAYS } from '../mail/thresholds.ts';

/** `erased`: the firm erased the person's data at their request (DELETE /api/newsletter/{id}); only the hash stays. */
export const SUPPRESSION_REASONS = [
  'unsubscribe',
  'hard_bounce',
  'soft_bounce',
  'complaint',
  'erased',
] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
/**
 * `link`: the unsubscribe link or the one-click List-Unsubscribe; `admin`: an erasure in the admin; the rest are
 * {@link MailEventSource}s.
 */
export type SuppressionSource = 'link' | 'admin' | MailEventSource;

/**
 * Reasons the owner may lift from the list; a complaint, an unsubscribe or an erasure is lifted only by the
 * person's own confirmation.
 */
export const LIFTABLE: ReadonlySet<SuppressionReason> = new Set(['hard_bounce', 'soft_bounce']);

/**
 * A stronger reason replaces a weaker one on the same address; never the other way round. An erasure outranks
 * everything, so a late bounce or complaint report never writes the erased address back.
 */
const rank = (column: string) =>
  `CASE ${column} WHEN 'erased' THEN 5 WHEN 'complaint' THEN 4 WHEN 'hard_bounce' THEN 3 WHEN 'soft_bounce' THEN 2 ELSE 1 END`;

/** An outbox row an event names, with what it was about. */
export interface EventTarget {
  outboxId: number | null;
  /** Set only for a recipient's copy of an issue (not for a test copy). */
  campaignId: number | null;
  subscriberId: number | null;
  /** The address the mail went to; null when the row was purged and nothing else names it. */
  email: string | null;
}

interface TargetRow extends Record<string, unknown> {
  id: number;
  template: string;
  campaign_id: number | null;
  subscriber_id: number | null;
  email: string | null;
}

const TARGET = `SELECT o.id, o.template, o.campaign_id, o.subscriber_id, coalesce(o.recipient, s.email) AS email
  FROM outbox o LEFT JOIN subscribers s ON s.id = o.subscriber_id`;

const toTarget = (row: TargetRow): EventTarget => ({
  outboxId: row.id,
  campaignId: row.template === 'campaign' ? row.campaign_id : null,
  subscriberId: row.subscriber_id,
  email: row.email,
});

/** The outbox row with this id. */
export async function targetById(db: Queryable, id: number): Promise<EventTarget | undefined> {
  const [row] = await db.query<TargetRow>(`${TARGET} WHERE o.id = $1`, [id]);
  return row && toTarget(row);
}

/** The outbox row whose Message-ID has this local part (see `messageIdFor`). */
export async function targetByMessageLocal(db: Queryable, local: string): Promise<EventTarget | undefined> {
  const [row] = await db.query<TargetRow>(
    `${TARGET} WHERE regexp_replace(o.idempotency_key, '[^A-Za-z0-9.-]', '.', 'g') = $1 ORDER BY o.id DESC LIMIT 1`,
    [local],
  );
  return row && toTarget(row);
}

/** The latest mail to this address, or else its subscriber row: what a report naming only the address means. */
export async function targetByRecipient(db: Queryable, email: string): Promise<EventTarget | undefined> {
  const [row] = await db.query<TargetRow>(
    `${TARGET} WHERE lower(o.recipient) = lower($1) ORDER BY o.id DESC LIMIT 1`,
    [email],
  );
  if (row) return toTarget(row);
  const [subscriber] = await db.query<{ id: number; email: string }>(
    'SELECT id, email FROM subscribers WHERE lower(email) = lower($1)',
    [email],
  );
  return (
    subscriber && { outboxId: null, campaignId: null, subscriberId: subscriber.id, email: subscriber.email }
  );
}

export interface NewMailEvent {
  source: MailEventSource;
  eventId: string;
  kind: MailEventKind;
  target: EventTarget;
  status: string | null;
  diagnostic: string | null;
  at: Date;
}

/**
 * Soft bounces of different mails to this address within the window that still count: not forgiven, and after
 * the last mail that was delivered to it (sent, with no report about it other than a deferral at send time).
 */
export async function countSoftBounces(db: Queryable, email: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(DISTINCT coalesce(e.outbox_id::text, e.source || ':' || e.event_id))::int AS n
     FROM mail_events e
     WHERE e.email_hash = $1 AND e.kind = 'soft_bounce' AND e.forgiven_at IS NULL
       AND e.occurred_at > now() - make_interval(days => ${SOFT_BOUNCE_WINDOW_DAYS})
       AND e.occurred_at > coalesce((
         SELECT max(o.sent_at) FROM outbox o
         WHERE lower(o.recipient) = lower($2) AND o.status = 'sent'
           AND NOT EXISTS (SELECT 1 FROM mail_events r WHERE r.outbox_id = o.id AND r.source <> 'smtp')),
         '-infinity')`,
    [emailHash(email), email],
  );
  return row?.n ?? 0;
}

export interface NewSuppression {
  email: string;
  reason: Exclude<SuppressionReason, 'unsubscribe'>;
  source: SuppressionSource;
  detail: string | null;
  /** The status the address's subscriber takes. */
  status: 'bounced' | 'complained';
  /** Why its waiting mail is cancelled (the outbox row's last error). */
  cancelReason: string;
}

/** Templates a bounce or complaint stops: everything to the person except the firm's own replies to them. */
export const SUPPRESSIBLE_TEMPLATES = [
  'campaign',
  'campaign-test',
  'newsletter-confirm',
  'newsletter-welcome',
  'contact-ack',
  'meeting-ack',
] as const;

/**
 * In one statement (a bounce costs one round trip, not six, which keeps a send with many bounces fast):
 * records `event` once per (source, event id), and with `suppression`
 * - suppresses the address, or strengthens the reason of its suppression (a complaint outranks a bounce, a
 *   bounce an unsubscribe);
 * - marks its subscriber `bounced` or `complained`, and cancels its mail that has not gone out;
 * - logs a new or strengthened suppression in the activity log.
 * Without `event`, only the suppression; when `event` had been recorded before, nothing at all.
 * @returns false when `event` had been recorded before.
 */
export async function recordAndSuppress(
  db: Queryable,
  event: NewMailEvent | null,
  suppression: NewSuppression | null,
): Promise<boolean> {
  const params: unknown[] = [];
  const $ = (value: unknown) => `$${params.push(value)}`;
  const recorded = event
    ? `INSERT INTO mail_events (source, event_id, kind, outbox_id, campaign_id, subscriber_id, email_hash, status,
         diagnostic, occurred_at)
       VALUES (${$(event.source)}, ${$(event.eventId)}, ${$(event.kind)}, ${$(event.target.outboxId)}::int,
         ${$(event.target.campaignId)}::int, ${$(event.target.subscriberId)}::int,
         ${$(event.target.email === null ? null : emailHash(event.target.email))}, ${$(event.status)},
         ${$(event.diagnostic)}, ${$(event.at)}::timestamptz)
       ON CONFLICT (source, event_id) DO NOTHING RETURNING id`
    : 'SELECT 1 AS id';
  let suppressing = '';
  if (suppression) {
    const email = $(suppression.email);
    const from =
      suppression.status === 'complained' ? ['pending', 'confirmed', 'bounced'] : ['pending', 'confirmed'];
    suppressing = `,
     sup AS (
       INSERT INTO mail_suppressions AS m (email_hash, reason, source, email, detail)
       SELECT ${$(emailHash(suppression.email))}, ${$(suppression.reason)}, ${$(suppression.source)}, ${email},
         ${$(suppression.detail)} FROM ev
       ON CONFLICT (email_hash) DO UPDATE SET reason = EXCLUDED.reason, source = EXCLUDED.source,
         email = EXCLUDED.email, detail = EXCLUDED.detail, created_at = now()
       WHERE ${rank('m.reason')} < ${rank('EXCLUDED.reason')}
       RETURNING id, reason, source),
     subs AS (
       UPDATE subscribers SET status = ${$(suppression.status)}
       WHERE lower(email) = lower(${email}) AND status = ANY(${$(from)}::text[]) AND EXISTS (SELECT 1 FROM ev)
       RETURNING id),
     cancelled AS (
       UPDATE outbox SET status = 'cancelled', last_error = ${$(suppression.cancelReason)}, failure_kind = NULL
       WHERE lower(recipient) = lower(${email}) AND status = 'pending'
         AND template = ANY(${$(SUPPRESSIBLE_TEMPLATES)}::text[]) AND EXISTS (SELECT 1 FROM ev)
       RETURNING id),
     logged AS (
       INSERT INTO activity_log (action, target)
       SELECT 'suppression.add', 'suppression ' || sup.id || ': ' || sup.reason || ' from ' || sup.source
         || coalesce(', subscriber ' || (SELECT string_agg(id::text, ', ' ORDER BY id) FROM subs), '')
       FROM sup
       RETURNING id)`;
  }
  const [row] = await db.query<{ recorded: number }>(
    `WITH ev AS (${recorded})${suppressing}
     SELECT count(*)::int AS recorded FROM ev`,
    params,
  );
  return (row?.recorded ?? 0) > 0;
}

/** Soft bounces of this address stop counting (the suppression they led to was lifted). */
export async function forgiveSoftBounces(db: Queryable, hash: string): Promise<void> {
  await db.query(
    `UPDATE mail_events SET forgiven_at = now()
     WHERE email_hash = $1 AND kind = 'soft_bounce' AND forgiven_at IS NULL`,
    [hash],
  );
}

/** A row of the suppression list as the admin sees it. */
export interface Suppression {
  id: number;
  /** Null for an unsubscribe: only the hash of that address is kept. */
  email: string | null;
  reason: SuppressionReason;
  source: SuppressionSource;
  detail: string | null;
  createdAt: string;
}

interface SuppressionRow extends Record<string, unknown> {
  id: number;
  email_hash: string;
  email: string | null;
  reason: SuppressionReason;
  source: SuppressionSource;
  detail: string | null;
  created_at: Date;
}

const toSuppression = (row: SuppressionRow): Suppression => ({
  id: row.id,
  email: row.email,
  reason: row.reason,
  source: row.source,
  detail: row.detail,
  createdAt: new Date(row.created_at).toISOString(),
});

export interface SuppressionQuery {
  /** A part of an address (matches kept addresses), or a whole address (also matches an unsubscribe's hash). */
  q?: string;
  reason?: SuppressionReason;
  /** 1-based; with `pageSize`, one page. Without both, every row. */
  page?: number;
  pageSize?: number;
}

/** Newest first, with the number of matching rows. */
export async function listSuppressions(
  db: Queryable,
  query: SuppressionQuery = {},
): Promise<{ rows: Suppression[]; total: number }> {
  const params: unknown[] = [];
  const conditions: string[] = [];
  if (query.q) {
    params.push(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, emailHash(query.q.trim()));
    conditions.push(`(email ILIKE $${params.length - 1} ESCAPE '\\' OR email_hash = $${params.length})`);
  }
  if (query.reason) {
    params.push(query.reason);
    conditions.push(`reason = $${params.length}`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const paged = query.page !== undefined || query.pageSize !== undefined;
  const pageSize = query.pageSize ?? 50;
  const limit = paged ? `LIMIT ${pageSize} OFFSET ${((query.page ?? 1) - 1) * pageSize}` : '';
  const rows = await db.query<SuppressionRow>(
    `SELECT id, email_hash, email, reason, source, detail, created_at FROM mail_suppressions ${where}
     ORDER BY created_at DESC, id DESC ${limit}`,
    params,
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM mail_suppressions ${where}`,
    params,
  );
  return { rows: rows.map(toSuppression), total: count?.total ?? 0 };
}

/**
 * Lifts a bounce suppression: deletes it, forgives the address's soft bounces, and puts its subscriber back as
 * they were before the bounce (confirmed if they had confirmed, else pending).
 * @returns the row lifted, `not_liftable` for a complaint or an unsubscribe, undefined when there is none.
 */
export async function liftSuppression(
  db: Queryable,
  id: number,
): Promise<Suppression | 'not_liftable' | undefined> {
  const [row] = await db.query<SuppressionRow>(
    'SELECT id, email_hash, email, reason, source, detail, created_at FROM mail_suppressions WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!row) return undefined;
  if (!LIFTABLE.has(row.reason)) return 'not_liftable';
  await db.query('DELETE FROM mail_suppressions WHERE id = $1', [id]);
  await forgiveSoftBounces(db, row.email_hash);
  if (row.email !== null) {
    await db.query(
      `UPDATE subscribers SET status = CASE WHEN confirmed_at IS NULL THEN 'pending' ELSE 'confirmed' END
       WHERE lower(email) = lower($1) AND status = 'bounced'`,
      [row.email],
    );
  }
  return toSuppression(row);
}

/**
 * Lifts whatever suppresses this address because its owner confirmed a sign-up anew.
 * @returns the lifted row's id and reason, undefined when it was not suppressed.
 */
export async function liftByConfirmation(
  db: Queryable,
  email: string,
): Promise<{ id: number; reason: SuppressionReason } | undefined> {
  const hash = emailHash(email);
  const [row] = await db.query<{ id: number; reason: SuppressionReason }>(
    'DELETE FROM mail_suppressions WHERE email_hash = $1 RETURNING id, reason',
    [hash],
  );
  if (row) await forgiveSoftBounces(db, hash);
  return row;
}

/** The last {@link RATE_WINDOW_DAYS} days of all mail (issues and every other mail alike), as relays count it. */
export interface DeliveryWindow {
  days: number;
  /** Mail handed to the relay in the window: accepted, or refused for good. */
  sent: number;
  /** Mail the relay accepted. */
  accepted: number;
  hardBounces: number;
  softBounces: number;
  complaints: number;
  /** Hard bounces per mail sent; null when nothing was sent. */
  bounceRate: number | null;
  /** Complaints per mail accepted; null when nothing was accepted. */
  complaintRate: number | null;
}

/** {@link DeliveryWindow} for the last `days` days, each bounced or complained-about mail counted once. */
export async function deliveryWindow(db: Queryable, days = RATE_WINDOW_DAYS): Promise<DeliveryWindow> {
  const [row] = await db.query<{
    sent: number;
    accepted: number;
    hard: number;
    soft: number;
    complaints: number;
  }>(
    `WITH w AS (SELECT now() - make_interval(days => $1::int) AS since)
     SELECT
       (SELECT count(*) FROM outbox, w WHERE (status = 'sent' AND sent_at > w.since)
          OR (status = 'failed' AND claimed_at > w.since))::int AS sent,
       (SELECT count(*) FROM outbox, w WHERE status = 'sent' AND sent_at > w.since)::int AS accepted,
       (SELECT count(DISTINCT coalesce(outbox_id::text, id::text)) FROM mail_events, w
          WHERE kind = 'hard_bounce' AND occurred_at > w.since)::int AS hard,
       (SELECT count(DISTINCT coalesce(outbox_id::text, id::text)) FROM mail_events, w
          WHERE kind = 'soft_bounce' AND occurred_at > w.since)::int AS soft,
       (SELECT count(DISTINCT coalesce(outbox_id::text, id::text)) FROM mail_events, w
          WHERE kind = 'complaint' AND occurred_at > w.since)::int AS complaints`,
    [days],
  );
  const { sent, accepted, hard, soft, complaints } = row!;
  return {
    days,
    sent,
    accepted,
    hardBounces: hard,
    softBounces: soft,
    complaints,
    bounceRate: sent > 0 ? hard / sent : null,
    complaintRate: accepted > 0 ? complaints / accepted : null,
  };
}
