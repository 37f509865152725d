import { NEWSLETTER_TOPICS, type NewsletterTopic } from '../../content/constants.ts';
import type { Lang } from '../../i18n/lang.ts';
import type { Queryable } from '../db/index.ts';
import { addressTag } from '../mail/links.ts';
import { emailHash } from '../mail/hash.ts';
import { recordActivity } from './activity.ts';
import { liftByConfirmation } from './suppressions.ts';

/**
 * `bounced`: the address bounced for good (or soft-bounced repeatedly); `complained`: its owner marked an issue
 * as spam. Both are suppressed (src/server/mail/suppression.ts) and come back only by signing up and confirming.
 */
export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'bounced', 'complained'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/**
 * What the admin list shows: SPEC's three fields plus `status`. `created_temp` is the sign-up time, null for
 * rows imported without a date.
 */
export interface Subscriber {
  id: number;
  email: string;
  created_temp: string | null;
  status: SubscriberStatus;
}

/** A row as mail needs it. */
export interface StoredSubscriber {
  id: number;
  email: string;
  status: SubscriberStatus;
  /** The language of the page they signed up on: their mail and the issues they receive are in it. */
  lang: Lang;
}

export const SUBSCRIBER_SORTS = ['id', '-id', 'email', '-email', 'created_temp', '-created_temp'] as const;
export type SubscriberSort = (typeof SUBSCRIBER_SORTS)[number];

// Fixed SQL per sort key: the client picks from this table, it never supplies SQL.
const ORDER_BY: Record<SubscriberSort, string> = {
  id: 'id ASC',
  '-id': 'id DESC',
  email: 'lower(email) ASC, id ASC',
  '-email': 'lower(email) DESC, id DESC',
  created_temp: 'created_at ASC NULLS FIRST, id ASC',
  '-created_temp': 'created_at DESC NULLS LAST, id DESC',
};

export interface SubscriberQuery {
  /** Case-insensitive substring of the e-mail address. */
  q?: string;
  status?: SubscriberStatus;
  /** Only the subscribers of this language (the admin counts an issue's recipients with it). */
  lang?: Lang;
  sort?: SubscriberSort;
  /** 1-based; with `pageSize`, one page. Without both, every row. */
  page?: number;
  pageSize?: number;
}

/** `%`, `_` and `\` match literally in the search text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface SubscriberRow extends Record<string, unknown> {
  id: number;
  email: string;
  created_at: Date | null;
  status: SubscriberStatus;
}

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  created_temp: row.created_at ? new Date(row.created_at).toISOString() : null,
  status: row.status,
});

/** The WHERE clause of a list query and its parameters, numbered from $1. */
function filterOf(query: SubscriberQuery): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.q) {
    params.push(likePattern(query.q));
    conditions.push(`email ILIKE $${params.length} ESCAPE '\\'`);
  }
  if (query.status) {
    params.push(query.status);
    conditions.push(`status = $${params.length}`);
  }
  if (query.lang) {
    params.push(query.lang);
    conditions.push(`lang = $${params.length}`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export async function listSubscribers(
  db: Queryable,
  query: SubscriberQuery = {},
): Promise<{ rows: Subscriber[]; total: number }> {
  const { where, params: filter } = filterOf(query);
  const order = ORDER_BY[query.sort ?? 'id'];
  if (query.page === undefined && query.pageSize === undefined) {
    const rows = await db.query<SubscriberRow>(
      `SELECT id, email, created_at, status FROM subscribers ${where} ORDER BY ${order}`,
      filter,
    );
    return { rows: rows.map(toSubscriber), total: rows.length };
  }
  const pageSize = query.pageSize ?? 50;
  const offset = ((query.page ?? 1) - 1) * pageSize;
  const n = filter.length;
  const rows = await db.query<SubscriberRow & { total: number }>(
    `SELECT id, email, created_at, status, count(*) OVER ()::int AS total FROM subscribers ${where}
     ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...filter, pageSize, offset],
  );
  // Past the last page the window function has no row to report on; count separately.
  const total =
    rows[0]?.total ??
    (await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM subscribers ${where}`, filter))[0]!
      .total;
  return { rows: rows.map(toSubscriber), total };
}

export interface SignUp {
  email: string;
  consentVersion: string;
  sourcePage: string;
  /** The language of the page the form was on. */
  lang: Lang;
  /** The topics ticked on the form (all unless the reader unticked some). */
  topics: readonly NewsletterTopic[];
}

/** A confirmation mail is sent to one address at most once an hour, however often it is signed up. */
export const CONFIRMATION_INTERVAL_MINUTES = 60;

/**
 * Records a sign-up as `pending` with its consent (time, page, wording version) and language. A new address, or
 * a pending one whose last confirmation mail is an hour old, is due a confirmation mail (in the language of this
 * latest sign-up); a confirmed address is left as it is, language included, since the neutral reply must not
 * let anyone change another person's subscription. A bounced or complained address signing up again is pending
 * again and due a confirmation mail: it is back on the list only once that is confirmed. Concurrent sign-ups of one address meet at the unique index on lower(email): one row, one mail.
 * @returns the subscriber id and the confirmation's send time when a mail is due (its idempotency key).
 */
export async function recordSignUp(
  db: Queryable,
  entry: SignUp,
): Promise<{ subscriberId: number; confirmationSentAt: Date } | undefined> {
  type Due = { id: number; confirmation_sent_at: Date };
  const inserted = await db.query<Due>(
    `INSERT INTO subscribers (email, status, consent_version, source_page, lang, topics, consented_at,
       confirmation_sent_at)
     VALUES ($1, 'pending', $2, $3, $4, $5::text[], now(), now())
     ON CONFLICT ((lower(email))) DO NOTHING RETURNING id, confirmation_sent_at`,
    [entry.email, entry.consentVersion, entry.sourcePage, entry.lang, entry.topics],
  );
  const [due] = inserted.length
    ? inserted
    : await db.query<Due>(
        `UPDATE subscribers
         SET status = 'pending', consent_version = $2, source_page = $3, lang = $4, topics = $5::text[],
           consented_at = now(), confirmation_sent_at = now()
         WHERE lower(email) = lower($1) AND status IN ('pending', 'bounced', 'complained')
           AND (confirmation_sent_at IS NULL
             OR confirmation_sent_at <= now() - make_interval(mins => ${CONFIRMATION_INTERVAL_MINUTES}))
         RETURNING id, confirmation_sent_at`,
        [entry.email, entry.consentVersion, entry.sourcePage, entry.lang, entry.topics],
      );
  return due && { subscriberId: due.id, confirmationSentAt: new Date(due.confirmation_sent_at) };
}

export async function findSubscriber(db: Queryable, id: number): Promise<StoredSubscriber | undefined> {
  const [row] = await db.query<StoredSubscriber & Record<string, unknown>>(
    'SELECT id, email, status, lang FROM subscribers WHERE id = $1',
    [id],
  );
  return row;
}

/** `gone`: no row with this id and address any more (unsubscribed, expired, or never this address). */
export type LinkOutcome = 'done' | 'already' | 'gone';

/** Locks the row a link token names, if it still belongs to the address the token was made for. */
async function lockForLink(db: Queryable, id: number, tag: string): Promise<StoredSubscriber | undefined> {
  const [row] = await db.query<StoredSubscriber & Record<string, unknown>>(
    'SELECT id, email, status, lang FROM subscribers WHERE id = $1 FOR UPDATE',
    [id],
  );
  return row && addressTag(row.email) === tag ? row : undefined;
}

/**
 * Confirms a pending sign-up (run inside a transaction, with the welcome mail queued in the same one). A link
 * from before a bounce or complaint confirms nothing: the address is back only after a new sign-up.
 */
export async function confirmSubscriber(db: Queryable, id: number, tag: string): Promise<LinkOutcome> {
  const row = await lockForLink(db, id, tag);
  if (!row) return 'gone';
  if (row.status === 'confirmed') return 'already';
  if (row.status !== 'pending') return 'gone';
  await db.query(`UPDATE subscribers SET status = 'confirmed', confirmed_at = now() WHERE id = $1`, [id]);
  // Confirming anew lifts an earlier unsubscribe, bounce or complaint; the log keeps the last two.
  const lifted = await liftByConfirmation(db, row.email);
  if (lifted && lifted.reason !== 'unsubscribe') {
    await recordActivity(db, {
      actor: null,
      action: 'suppression.lift',
      target: `suppression ${lifted.id}: ${lifted.reason}, lifted by the confirmation of subscriber ${id}`,
    });
  }
  return 'done';
}

/**
 * Unsubscribes: deletes the row, keeps only a one-way hash of the address so nothing reaches it again,
 * and cancels its mail that has not gone out. Run inside a transaction.
 */
export async function unsubscribe(db: Queryable, id: number, tag: string): Promise<LinkOutcome> {
  const row = await lockForLink(db, id, tag);
  if (!row) return 'gone';
  await db.query('DELETE FROM subscribers WHERE id = $1', [id]);
  await forgetImportedAddress(db, id);
  // A bounce or complaint that already suppresses the address stays, but without the address itself: after an
  // unsubscribe only its hash is kept.
  await db.query(
    `INSERT INTO mail_suppressions (email_hash) VALUES ($1)
     ON CONFLICT (email_hash) DO UPDATE SET email = NULL`,
    [emailHash(row.email)],
  );
  await db.query(
    `UPDATE outbox SET status = 'cancelled', last_error = 'the address unsubscribed'
     WHERE subscriber_id = $1 AND status = 'pending'`,
    [id],
  );
  return 'done';
}

/** What the preference page shows and changes. */
export interface Preferences {
  id: number;
  email: string;
  lang: Lang;
  /** The topics followed; every topic when the row has none stored (see migration 0019). */
  topics: NewsletterTopic[];
  /** Until when issues skip the reader; null when they are not paused (or the pause has run out). */
  pausedUntil: Date | null;
}

/** How long a pause from the preference page lasts. */
export const PAUSE_MONTHS = 3;

interface PreferencesRow extends Record<string, unknown> {
  id: number;
  email: string;
  status: SubscriberStatus;
  lang: Lang;
  topics: NewsletterTopic[];
  paused_until: Date | null;
}

const PREFERENCE_COLUMNS = `id, email, status, lang, topics,
  CASE WHEN paused_until > now() THEN paused_until END AS paused_until`;

/** In NEWSLETTER_TOPICS order, with an empty list read as "every topic". */
const effectiveTopics = (topics: readonly string[]): NewsletterTopic[] =>
  NEWSLETTER_TOPICS.filter((topic) => topics.length === 0 || topics.includes(topic));

const toPreferences = (row: PreferencesRow): Preferences => ({
  id: row.id,
  email: row.email,
  lang: row.lang,
  topics: effectiveTopics(row.topics),
  pausedUntil: row.paused_until ? new Date(row.paused_until) : null,
});

/**
 * The preferences of the confirmed subscriber a link token names, if the row still belongs to the address the
 * token was made for; `lock` holds the row for a change (inside a transaction).
 */
export async function findPreferences(
  db: Queryable,
  id: number,
  tag: string,
  lock = false,
): Promise<Preferences | undefined> {
  const [row] = await db.query<PreferencesRow>(
    `SELECT ${PREFERENCE_COLUMNS} FROM subscribers WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row && row.status === 'confirmed' && addressTag(row.email) === tag ? toPreferences(row) : undefined;
}

/** A reader's change on the preference page: new topics and language, a three-month pause, or its end. */
export type PreferenceChange =
  { kind: 'save'; topics: readonly NewsletterTopic[]; lang: Lang } | { kind: 'pause' } | { kind: 'resume' };

const sameTopics = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((topic) => b.includes(topic));

/**
 * Applies a reader's change to the row a link token names and writes one `subscriber_changes` row for each thing
 * that actually changed (nothing for a save that changes nothing). Run inside a transaction.
 * @returns the preferences after the change, or undefined when the link names no confirmed subscriber any more.
 */
export async function changePreferences(
  tx: Queryable,
  id: number,
  tag: string,
  change: PreferenceChange,
): Promise<Preferences | undefined> {
  const before = await findPreferences(tx, id, tag, true);
  if (!before) return undefined;
  const log = (kind: string, detail: object) =>
    tx.query(`INSERT INTO subscriber_changes (subscriber_id, kind, detail) VALUES ($1, $2, $3::jsonb)`, [
      id,
      kind,
      JSON.stringify(detail),
    ]);
  if (change.kind === 'save') {
    const topics = effectiveTopics(change.topics);
    if (!sameTopics(topics, before.topics)) {
      await tx.query('UPDATE subscribers SET topics = $2::text[] WHERE id = $1', [id, topics]);
      await log('topics', { from: before.topics, to: topics });
    }
    if (change.lang !== before.lang) {
      await tx.query('UPDATE subscribers SET lang = $2 WHERE id = $1', [id, change.lang]);
      await log('language', { from: before.lang, to: change.lang });
    }
  } else if (change.kind === 'pause') {
    const [row] = await tx.query<{ paused_until: Date }>(
      `UPDATE subscribers SET paused_until = now() + make_interval(months => ${PAUSE_MONTHS}) WHERE id = $1
       RETURNING paused_until`,
      [id],
    );
    await log('paused', { until: new Date(row!.paused_until).toISOString() });
  } else if (before.pausedUntil) {
    await tx.query('UPDATE subscribers SET paused_until = NULL WHERE id = $1', [id]);
    await log('resumed', {});
  }
  return findPreferences(tx, id, tag);
}

/**
 * An import's report keeps no address or name of a subscriber who unsubscribed; with `email` (an erasure), not in
 * the rows that name the address without being linked to the subscriber either (repeats, refusals).
 */
async function forgetImportedAddress(db: Queryable, id: number, email?: string): Promise<void> {
  await db.query(
    `UPDATE subscriber_import_rows SET email = NULL, name = NULL, consent_source = NULL
     WHERE subscriber_id = $1 OR lower(email) = lower($2)`,
    [id, email ?? null],
  );
}

/** Mail about a subscription that an erasure empties even where only the address names the person. */
const NEWSLETTER_TEMPLATES = ['campaign', 'newsletter-confirm', 'newsletter-welcome'];

/**
 * Erases a subscriber at their request (GDPR Art. 17), in one transaction with the caller's log entry: deletes
 * the row (their preference changes go with it), takes their address and name out of every import report, empties
 * their newsletter mail (the address and content; mail not yet sent is cancelled) and unlinks it and their
 * bounces and complaints from them, keeping only the counts each issue shows. What stays is the one-way hash of
 * the address on the suppression list, reason `erased`, so no import or send reaches it again; only the person's
 * own new sign-up, once confirmed, lifts it.
 * @returns false when no row had this id (already erased, or never existed).
 */
export async function eraseSubscriber(db: Queryable, id: number): Promise<boolean> {
  const [row] = await db.query<{ email: string }>('DELETE FROM subscribers WHERE id = $1 RETURNING email', [
    id,
  ]);
  if (!row) return false;
  const hash = emailHash(row.email);
  await forgetImportedAddress(db, id, row.email);
  await db.query(
    `UPDATE outbox SET
       status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END,
       last_error = CASE WHEN status = 'pending' THEN 'the address was erased' END,
       recipient = NULL, params = '{}', subscriber_id = NULL, purged_at = coalesce(purged_at, now())
     WHERE subscriber_id = $1 OR (lower(recipient) = lower($2) AND template = ANY($3::text[]))`,
    [id, row.email, NEWSLETTER_TEMPLATES],
  );
  await db.query(
    'UPDATE mail_events SET subscriber_id = NULL, email_hash = NULL WHERE subscriber_id = $1 OR email_hash = $2',
    [id, hash],
  );
  await db.query(
    `INSERT INTO mail_suppressions (email_hash, reason, source) VALUES ($1, 'erased', 'admin')
     ON CONFLICT (email_hash) DO UPDATE SET reason = 'erased', source = 'admin', email = NULL, detail = NULL,
       created_at = now()`,
    [hash],
  );
  return true;
}
