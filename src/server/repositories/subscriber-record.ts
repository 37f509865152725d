/**
 * One subscriber's record (issue 36, item 4): everything the firm holds about the person, gathered from the tables
 * that keep it (subscribers, subscriber_changes, subscriber_import_rows with their imports, outbox with its
 * campaigns, mail_events, mail_suppressions). The admin shows it, and the same object is the person's data export
 * (GDPR Art. 15 and 20), so it names nothing about the firm's staff: a change is the reader's own or the firm's.
 */
import type { Lang } from '../../i18n/lang.ts';
import type { Queryable } from '../db/index.ts';
import type { MailEventKind, MailEventSource } from '../mail/events.ts';
import { emailHash } from '../mail/hash.ts';
import type { ImportMode, RowOutcome } from './imports.ts';
import type { SubscriberStatus } from './subscribers.ts';
import type { SuppressionReason, SuppressionSource } from './suppressions.ts';

/**
 * What became of one mail: `queued` (not sent yet), `sent` (the receiving server accepted it), `soft_bounced`,
 * `bounced` or `complained` (a report about it came back), `failed` (never accepted), `cancelled`.
 */
export type MailOutcome =
  'queued' | 'sent' | 'soft_bounced' | 'bounced' | 'complained' | 'failed' | 'cancelled';

export interface RecordIssue {
  campaignId: number | null;
  subject: string | null;
  lang: Lang | null;
  queuedAt: string;
  sentAt: string | null;
  outcome: MailOutcome;
}

/** A mail about the subscription itself: the confirmation request and the welcome. */
export interface RecordMail {
  template: string;
  queuedAt: string;
  sentAt: string | null;
  outcome: MailOutcome;
}

export interface RecordImport {
  id: number;
  at: string;
  source: string;
  mode: ImportMode;
  line: number;
  outcome: RowOutcome | null;
  reason: string | null;
}

export interface RecordChange {
  at: string;
  kind: 'topics' | 'language' | 'paused' | 'resumed';
  detail: Record<string, unknown>;
  /** `subscriber`: through their own link; `firm`: by someone in the admin. */
  by: 'subscriber' | 'firm';
}

export interface RecordBounce {
  kind: MailEventKind;
  at: string;
  source: MailEventSource;
  /** The enhanced status code (RFC 3463), when the report had one. */
  status: string | null;
  /** The receiving server's reply, with the address taken out. */
  diagnostic: string | null;
  campaignId: number | null;
}

export interface SubscriberRecord {
  id: number;
  email: string;
  name: string | null;
  status: SubscriberStatus;
  lang: Lang;
  topics: string[];
  pausedUntil: string | null;
  /** When the address came onto the list; null for rows carried over from the earlier site without a date. */
  createdAt: string | null;
  /** The site's sign-up form, when they used it: the page it was on. */
  form: { page: string } | null;
  consent: {
    /** `form`: the sign-up form and its double opt-in; `consented`: the firm's record of consent (an import); `confirm`: an import that asked by mail; null: carried over from the earlier site. */
    mode: 'form' | ImportMode | null;
    /** The version of the consent wording they agreed to (the form's). */
    version: string | null;
    at: string | null;
    /** Where they consented, in the firm's words (an import with consent on record). */
    source: string | null;
  };
  confirmation: { sentAt: string | null; confirmedAt: string | null };
  imports: RecordImport[];
  issues: RecordIssue[];
  mail: RecordMail[];
  changes: RecordChange[];
  bounces: RecordBounce[];
  suppression: { reason: SuppressionReason; source: SuppressionSource; since: string } | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

interface SubscriberRow extends Record<string, unknown> {
  id: number;
  email: string;
  name: string | null;
  status: SubscriberStatus;
  lang: Lang;
  topics: string[];
  paused_until: Date | null;
  created_at: Date | null;
  source_page: string | null;
  consent_mode: ImportMode | null;
  consent_version: string | null;
  consented_at: Date | null;
  consent_source: string | null;
  confirmation_sent_at: Date | null;
  confirmed_at: Date | null;
}

interface OutboxRow extends Record<string, unknown> {
  template: string;
  campaign_id: number | null;
  subject: string | null;
  lang: Lang | null;
  created_at: Date;
  sent_at: Date | null;
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';
  events: MailEventKind[];
}

/** A report about a mail outranks its send status; the strongest report wins. */
export function outcomeOf(status: OutboxRow['status'], events: readonly MailEventKind[]): MailOutcome {
  if (events.includes('complaint')) return 'complained';
  if (events.includes('hard_bounce')) return 'bounced';
  if (events.includes('soft_bounce') && status !== 'sent') return 'soft_bounced';
  if (status === 'pending' || status === 'sending') return 'queued';
  return status;
}

async function subscriberRow(db: Queryable, id: number): Promise<SubscriberRow | undefined> {
  const [row] = await db.query<SubscriberRow>(
    `SELECT id, email, name, status, lang, topics, paused_until, created_at, source_page, consent_mode,
       consent_version, consented_at, consent_source, confirmation_sent_at, confirmed_at
     FROM subscribers WHERE id = $1`,
    [id],
  );
  return row;
}

async function mailOf(db: Queryable, id: number): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT o.template, o.campaign_id, c.subject, c.lang, o.created_at, o.sent_at, o.status,
       coalesce((SELECT array_agg(DISTINCT e.kind) FROM mail_events e WHERE e.outbox_id = o.id), '{}') AS events
     FROM outbox o LEFT JOIN campaigns c ON c.id = o.campaign_id
     WHERE o.subscriber_id = $1 ORDER BY o.created_at, o.id`,
    [id],
  );
}

async function importsOf(db: Queryable, id: number): Promise<RecordImport[]> {
  const rows = await db.query<{
    id: number;
    created_at: Date;
    source: string;
    mode: ImportMode;
    line: number;
    outcome: RowOutcome | null;
    reason: string | null;
  }>(
    `SELECT i.id, i.created_at, i.source, i.mode, r.line, r.outcome, r.reason
     FROM subscriber_import_rows r JOIN subscriber_imports i ON i.id = r.import_id
     WHERE r.subscriber_id = $1 ORDER BY i.created_at, i.id, r.line`,
    [id],
  );
  return rows.map(({ created_at, ...r }) => ({ ...r, at: iso(created_at)! }));
}

async function changesOf(db: Queryable, id: number): Promise<RecordChange[]> {
  const rows = await db.query<{
    at: Date;
    kind: RecordChange['kind'];
    detail: Record<string, unknown>;
    admin: boolean;
  }>(
    `SELECT at, kind, detail, admin_id IS NOT NULL AS admin FROM subscriber_changes
     WHERE subscriber_id = $1 ORDER BY at, id`,
    [id],
  );
  return rows.map((r) => ({
    at: iso(r.at)!,
    kind: r.kind,
    detail: r.detail,
    by: r.admin ? 'firm' : 'subscriber',
  }));
}

async function bouncesOf(db: Queryable, id: number, email: string): Promise<RecordBounce[]> {
  const rows = await db.query<{
    kind: MailEventKind;
    occurred_at: Date;
    source: MailEventSource;
    status: string | null;
    diagnostic: string | null;
    campaign_id: number | null;
  }>(
    `SELECT kind, occurred_at, source, status, diagnostic, campaign_id FROM mail_events
     WHERE subscriber_id = $1 OR email_hash = $2 ORDER BY occurred_at, id`,
    [id, emailHash(email)],
  );
  return rows.map((r) => ({
    kind: r.kind,
    at: iso(r.occurred_at)!,
    source: r.source,
    status: r.status,
    diagnostic: r.diagnostic,
    campaignId: r.campaign_id,
  }));
}

async function suppressionOf(db: Queryable, email: string): Promise<SubscriberRecord['suppression']> {
  const [row] = await db.query<{ reason: SuppressionReason; source: SuppressionSource; created_at: Date }>(
    'SELECT reason, source, created_at FROM mail_suppressions WHERE email_hash = $1',
    [emailHash(email)],
  );
  return row ? { reason: row.reason, source: row.source, since: iso(row.created_at)! } : null;
}

/** The subscriber's whole record, or undefined when there is no such subscriber (never was, or erased). */
export async function subscriberRecord(db: Queryable, id: number): Promise<SubscriberRecord | undefined> {
  const row = await subscriberRow(db, id);
  if (!row) return undefined;
  const [mail, imports, changes, bounces, suppression] = await Promise.all([
    mailOf(db, id),
    importsOf(db, id),
    changesOf(db, id),
    bouncesOf(db, id, row.email),
    suppressionOf(db, row.email),
  ]);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    status: row.status,
    lang: row.lang,
    topics: row.topics,
    pausedUntil: iso(row.paused_until),
    createdAt: iso(row.created_at),
    form: row.source_page === null ? null : { page: row.source_page },
    consent: {
      mode: row.consent_mode ?? (row.consent_version === null ? null : 'form'),
      version: row.consent_version,
      at: iso(row.consented_at),
      source: row.consent_source,
    },
    confirmation: { sentAt: iso(row.confirmation_sent_at), confirmedAt: iso(row.confirmed_at) },
    imports,
    issues: mail
      .filter((m) => m.template === 'campaign')
      .map((m) => ({
        campaignId: m.campaign_id,
        subject: m.subject,
        lang: m.lang,
        queuedAt: iso(m.created_at)!,
        sentAt: iso(m.sent_at),
        outcome: outcomeOf(m.status, m.events),
      })),
    mail: mail
      .filter((m) => m.template !== 'campaign')
      .map((m) => ({
        template: m.template,
        queuedAt: iso(m.created_at)!,
        sentAt: iso(m.sent_at),
        outcome: outcomeOf(m.status, m.events),
      })),
    changes,
    bounces,
    suppression,
  };
}
