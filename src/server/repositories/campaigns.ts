/**
 * Newsletter issues ("campaigns"): drafts the admin edits, and the send that snapshots the confirmed
 * subscribers of that moment into the outbox, one row per recipient keyed `campaign:<id>:<subscriber>`, so a
 * second send, a retried request or two workers can never queue or send a second copy. A campaign is `sent`
 * once none of its rows waits any more ({@link settleCampaigns}).
 */
import type { NewsletterTopic } from '../../content/constants.ts';
import type { Lang } from '../../i18n/lang.ts';
import type { Queryable } from '../db/index.ts';

export const CAMPAIGN_STATUSES = ['draft', 'sending', 'sent', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The recipients' copies by state: waiting (or being sent), delivered, given up on. */
export interface CampaignCounts {
  queued: number;
  sent: number;
  failed: number;
}

/**
 * What became of an issue's copies: `sent` were handed to the relay (delivered or refused), `accepted` taken
 * by it; bounces and complaints are counted per copy from every source (the SMTP answer, a report, a
 * webhook), unsubscribes from the issue's own unsubscribe links. Rates are shares of `sent` (bounces) or of
 * `accepted` (complaints, unsubscribes), null before anything was sent.
 */
export interface IssueDelivery {
  sent: number;
  accepted: number;
  hardBounces: number;
  softBounces: number;
  complaints: number;
  unsubscribes: number;
  rates: {
    hardBounces: number | null;
    softBounces: number | null;
    complaints: number | null;
    unsubscribes: number | null;
  };
}

export interface CampaignContent {
  subject: string;
  preheader: string;
  markdown: string;
  /** `blog/<slug>` or `news/<slug>`, in the order they are shown. */
  articles: string[];
  /** The issue's language: it is written in it and goes to the confirmed subscribers of it only. */
  lang: Lang;
  /** The topics it is for: it reaches readers who follow one of them; none means every reader of its language. */
  topics: NewsletterTopic[];
}

export interface Campaign extends CampaignContent {
  id: number;
  status: CampaignStatus;
  /** How many confirmed subscribers the send snapshotted; null for a draft. */
  recipients: number | null;
  counts: CampaignCounts;
  /** Copies not sent because the campaign was cancelled or the address left the list meanwhile. */
  skipped: number;
  delivery: IssueDelivery;
  createdAt: string;
  updatedAt: string;
  sendStartedAt: string | null;
  finishedAt: string | null;
  /**
   * When a draft is to start sending by itself; after a scheduled start, the moment it was planned for (a send
   * started by hand clears it). Null when the issue was never scheduled.
   */
  scheduledAt: string | null;
  /** Seconds between the planned and the actual start of an issue the schedule started; null otherwise. */
  startDelaySeconds: number | null;
  /** Whether the issue is listed in the public archive once sent. */
  inArchive: boolean;
  /** The issue this draft was duplicated from. */
  duplicatedFrom: number | null;
}

/** A copy that could not be delivered, as the admin sees it. */
export interface CampaignFailure {
  id: number;
  /** Null once the row's personal data has been purged (30 days on). */
  recipient: string | null;
  error: string | null;
  attempts: number;
}

interface CampaignRow extends Record<string, unknown> {
  id: number;
  subject: string;
  preheader: string;
  markdown: string;
  articles: string[];
  lang: Lang;
  topics: NewsletterTopic[];
  status: CampaignStatus;
  recipients: number | null;
  created_at: Date;
  updated_at: Date;
  send_started_at: Date | null;
  finished_at: Date | null;
  scheduled_at: Date | null;
  in_archive: boolean;
  duplicated_from: number | null;
}

const COLUMNS = `id, subject, preheader, markdown, articles, lang, topics, status, recipients, created_at,
  updated_at, send_started_at, finished_at, scheduled_at, in_archive, duplicated_from`;

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

interface Tally extends CampaignCounts {
  skipped: number;
  accepted: number;
  hard: number;
  soft: number;
  complaints: number;
  unsubscribes: number;
}
interface TallyRow extends Tally, Record<string, unknown> {
  campaign_id: number;
}
const NO_COPIES: Tally = {
  queued: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  accepted: 0,
  hard: 0,
  soft: 0,
  complaints: 0,
  unsubscribes: 0,
};

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** {@link IssueDelivery} from a campaign's tally. */
function deliveryOf(tally: Tally): IssueDelivery {
  const sent = tally.sent + tally.failed;
  return {
    sent,
    accepted: tally.sent,
    hardBounces: tally.hard,
    softBounces: tally.soft,
    complaints: tally.complaints,
    unsubscribes: tally.unsubscribes,
    rates: {
      hardBounces: share(tally.hard, sent),
      softBounces: share(tally.soft, sent),
      complaints: share(tally.complaints, tally.sent),
      unsubscribes: share(tally.unsubscribes, tally.sent),
    },
  };
}

const toCampaign = (row: CampaignRow, tally: Tally = NO_COPIES): Campaign => ({
  id: row.id,
  subject: row.subject,
  preheader: row.preheader,
  markdown: row.markdown,
  articles: row.articles,
  lang: row.lang,
  topics: row.topics,
  status: row.status,
  recipients: row.recipients,
  counts: { queued: tally.queued, sent: tally.sent, failed: tally.failed },
  skipped: tally.skipped,
  delivery: deliveryOf(tally),
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
  sendStartedAt: iso(row.send_started_at),
  finishedAt: iso(row.finished_at),
  scheduledAt: iso(row.scheduled_at),
  startDelaySeconds: startDelay(row),
  inArchive: row.in_archive,
  duplicatedFrom: row.duplicated_from,
});

/** Whole seconds from the planned to the actual start, for an issue the schedule started. */
function startDelay(row: CampaignRow): number | null {
  if (!row.scheduled_at || !row.send_started_at) return null;
  const ms = new Date(row.send_started_at).getTime() - new Date(row.scheduled_at).getTime();
  return Math.max(0, Math.round(ms / 1000));
}

/**
 * Copies per state for each campaign (test copies are not counted), with the copies that bounced or drew a
 * complaint (each copy once, whatever reported it) and the unsubscribes from its links.
 */
async function tallies(db: Queryable, ids: readonly number[]): Promise<Map<number, Tally>> {
  const byId = new Map<number, Tally>();
  if (ids.length === 0) return byId;
  const rows = await db.query<TallyRow>(
    `WITH copies AS (
       SELECT campaign_id,
         count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS queued,
         count(*) FILTER (WHERE status = 'sent')::int AS sent,
         count(*) FILTER (WHERE status = 'failed')::int AS failed,
         count(*) FILTER (WHERE status = 'cancelled')::int AS skipped
       FROM outbox WHERE campaign_id = ANY($1::int[]) AND template = 'campaign'
       GROUP BY campaign_id),
     events AS (
       SELECT campaign_id,
         count(DISTINCT coalesce(outbox_id::text, id::text)) FILTER (WHERE kind = 'hard_bounce')::int AS hard,
         count(DISTINCT coalesce(outbox_id::text, id::text)) FILTER (WHERE kind = 'soft_bounce')::int AS soft,
         count(DISTINCT coalesce(outbox_id::text, id::text)) FILTER (WHERE kind = 'complaint')::int AS complaints
       FROM mail_events WHERE campaign_id = ANY($1::int[])
       GROUP BY campaign_id),
     unsubscribes AS (
       SELECT campaign_id, sum(events)::int AS unsubscribes FROM insight_newsletter
       WHERE campaign_id = ANY($1::int[]) AND event = 'unsubscribe'
       GROUP BY campaign_id)
     SELECT c.campaign_id, c.queued, c.sent, c.failed, c.skipped,
       c.sent AS accepted, coalesce(e.hard, 0) AS hard, coalesce(e.soft, 0) AS soft,
       coalesce(e.complaints, 0) AS complaints, coalesce(u.unsubscribes, 0) AS unsubscribes
     FROM copies c LEFT JOIN events e USING (campaign_id) LEFT JOIN unsubscribes u USING (campaign_id)`,
    [ids],
  );
  for (const { campaign_id, ...tally } of rows) byId.set(campaign_id, tally);
  return byId;
}

async function withTallies(db: Queryable, rows: readonly CampaignRow[]): Promise<Campaign[]> {
  const byId = await tallies(
    db,
    rows.filter((row) => row.status !== 'draft').map((row) => row.id),
  );
  return rows.map((row) => toCampaign(row, byId.get(row.id)));
}

export async function createCampaign(
  db: Queryable,
  content: CampaignContent,
  adminId: number,
  options: { scheduledAt?: Date | null; duplicatedFrom?: number } = {},
): Promise<Campaign> {
  const [row] = await db.query<CampaignRow>(
    `INSERT INTO campaigns (subject, preheader, markdown, articles, lang, topics, created_by, scheduled_at,
       duplicated_from)
     VALUES ($1, $2, $3, $4::text[], $5, $6::text[], $7, $8, $9) RETURNING ${COLUMNS}`,
    [
      content.subject,
      content.preheader,
      content.markdown,
      content.articles,
      content.lang,
      content.topics,
      adminId,
      options.scheduledAt ?? null,
      options.duplicatedFrom ?? null,
    ],
  );
  return toCampaign(row!);
}

/**
 * A new draft with the content of any issue (sent, sending, cancelled or a draft), unscheduled; undefined when
 * there is no such issue.
 */
export async function duplicateCampaign(
  db: Queryable,
  id: number,
  adminId: number,
): Promise<Campaign | undefined> {
  const [row] = await db.query<CampaignRow>(
    `INSERT INTO campaigns (subject, preheader, markdown, articles, lang, topics, created_by, duplicated_from)
     SELECT subject, preheader, markdown, articles, lang, topics, $2, id FROM campaigns WHERE id = $1
     RETURNING ${COLUMNS}`,
    [id, adminId],
  );
  return row && toCampaign(row);
}

/** Lists or unlists an issue in the public archive (any state: only sent issues are shown). */
export async function setInArchive(
  db: Queryable,
  id: number,
  inArchive: boolean,
): Promise<Campaign | undefined> {
  const rows = await db.query<CampaignRow>(
    `UPDATE campaigns SET in_archive = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, inArchive],
  );
  return (await withTallies(db, rows))[0];
}

/** Newest first, one page. */
export async function listCampaigns(
  db: Queryable,
  paging: { page?: number; pageSize?: number } = {},
): Promise<{ rows: Campaign[]; total: number }> {
  const [count] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM campaigns');
  const pageSize = paging.pageSize ?? 20;
  const rows = await db.query<CampaignRow>(
    `SELECT ${COLUMNS} FROM campaigns ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [pageSize, ((paging.page ?? 1) - 1) * pageSize],
  );
  return { rows: await withTallies(db, rows), total: count?.total ?? 0 };
}

export async function findCampaign(db: Queryable, id: number): Promise<Campaign | undefined> {
  const rows = await db.query<CampaignRow>(`SELECT ${COLUMNS} FROM campaigns WHERE id = $1`, [id]);
  return (await withTallies(db, rows))[0];
}

/** The undelivered copies of a campaign with their last error, most recent first. */
export async function campaignFailures(db: Queryable, id: number, limit = 100): Promise<CampaignFailure[]> {
  return db.query<CampaignFailure & Record<string, unknown>>(
    `SELECT id, recipient, last_error AS error, attempts FROM outbox
     WHERE campaign_id = $1 AND template = 'campaign' AND status = 'failed'
     ORDER BY id DESC LIMIT $2`,
    [id, limit],
  );
}

/** A change that only a draft allows was asked of a campaign in another state. */
export type NotDraft = { notDraft: CampaignStatus };

async function stateOf(db: Queryable, id: number): Promise<NotDraft | undefined> {
  const [row] = await db.query<{ status: CampaignStatus }>('SELECT status FROM campaigns WHERE id = $1', [
    id,
  ]);
  return row && { notDraft: row.status };
}

/**
 * Changes a draft. `scheduledAt`: a moment schedules or reschedules it, null unschedules it, absent leaves the
 * schedule as it is. Returns the draft with the schedule it had before, so the caller can log the change.
 */
export async function updateDraft(
  db: Queryable,
  id: number,
  patch: Partial<CampaignContent> & { scheduledAt?: Date | null },
): Promise<(Campaign & { scheduledBefore: string | null }) | NotDraft | undefined> {
  const [row] = await db.query<CampaignRow & { scheduled_before: Date | null }>(
    `UPDATE campaigns c SET subject = coalesce($2, c.subject), preheader = coalesce($3, c.preheader),
       markdown = coalesce($4, c.markdown), articles = coalesce($5::text[], c.articles), lang = coalesce($6, c.lang),
       topics = coalesce($9::text[], c.topics),
       scheduled_at = CASE WHEN $7 THEN $8::timestamptz ELSE c.scheduled_at END,
       updated_at = now()
     FROM (SELECT id, scheduled_at FROM campaigns WHERE id = $1 FOR UPDATE) AS before
     WHERE c.id = before.id AND c.status = 'draft'
     RETURNING ${COLUMNS.replace(/(\w+)/g, 'c.$1')}, before.scheduled_at AS scheduled_before`,
    [
      id,
      patch.subject ?? null,
      patch.preheader ?? null,
      patch.markdown ?? null,
      patch.articles ?? null,
      patch.lang ?? null,
      patch.scheduledAt !== undefined,
      patch.scheduledAt ?? null,
      patch.topics ?? null,
    ],
  );
  return row ? { ...toCampaign(row), scheduledBefore: iso(row.scheduled_before) } : stateOf(db, id);
}

export async function deleteDraft(db: Queryable, id: number): Promise<true | NotDraft | undefined> {
  const rows = await db.query(`DELETE FROM campaigns WHERE id = $1 AND status = 'draft' RETURNING id`, [id]);
  return rows.length > 0 ? true : stateOf(db, id);
}

/** The send found nobody to send to; the transaction rolls back and the campaign stays a draft. */
export class NoRecipients extends Error {
  override readonly name = 'NoRecipients';
  /** The issue's language, which has no confirmed subscriber. */
  readonly lang: Lang;
  /** The issue's topics (none: every topic). */
  readonly topics: readonly NewsletterTopic[];
  constructor(lang: Lang, topics: readonly NewsletterTopic[] = []) {
    super(`There are no confirmed subscribers of language ${lang} to send to.`);
    this.lang = lang;
    this.topics = topics;
  }
}

/**
 * Who an issue of `lang` for `topics` reaches at this moment, as a condition on `subscribers s` (both arguments
 * are SQL: a column of the campaign or a parameter): confirmed, of the issue's language, not paused, and following
 * one of its topics (an issue without topics is for everyone; a subscriber without topics follows all). The
 * audience count and the send's snapshot share it, so the number the send dialog shows is the number queued.
 */
const audienceOf = (lang: string, topics: string) => `s.status = 'confirmed' AND s.lang = ${lang}
  AND (s.paused_until IS NULL OR s.paused_until <= now())
  AND (cardinality(${topics}::text[]) = 0 OR cardinality(s.topics) = 0 OR s.topics && ${topics}::text[])`;

/** How many subscribers a send of the campaign would queue now; undefined when there is no such campaign. */
export async function audienceCount(db: Queryable, id: number): Promise<number | undefined> {
  const [row] = await db.query<{ count: number | null }>(
    `SELECT (SELECT count(*)::int FROM subscribers s WHERE ${audienceOf('c.lang', 'c.topics')}) AS count
     FROM campaigns c WHERE c.id = $1`,
    [id],
  );
  return row ? (row.count ?? 0) : undefined;
}

/**
 * Moves a draft to `sending` and queues one copy per subscriber of its audience at this moment ({@link
 * audienceOf}), in one statement. Call inside a transaction: two sends of one campaign serialise on the campaign
 * row, and the second finds it no longer a draft. Throws {@link NoRecipients} when the audience is empty. A send by hand clears the draft's schedule;
 * `{ scheduled: true }` (the scheduled worker) starts the draft only while it is still scheduled for a moment
 * that has come, and keeps that moment.
 */
export async function startSending(
  tx: Queryable,
  id: number,
  { scheduled = false } = {},
): Promise<{ recipients: number } | NotDraft | undefined> {
  const started = await tx.query<{ id: number; lang: Lang; topics: NewsletterTopic[] }>(
    scheduled
      ? `UPDATE campaigns SET status = 'sending', send_started_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'draft' AND scheduled_at <= now() RETURNING id, lang, topics`
      : `UPDATE campaigns SET status = 'sending', send_started_at = now(), updated_at = now(), scheduled_at = NULL
         WHERE id = $1 AND status = 'draft' RETURNING id, lang, topics`,
    [id],
  );
  const [campaign] = started;
  if (!campaign) return stateOf(tx, id);
  const [queued] = await tx.query<{ recipients: number }>(
    `WITH queued AS (
       INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id, campaign_id)
       SELECT 'campaign:' || $1::int || ':' || s.id, 'campaign', s.email, s.id, $1::int
       FROM subscribers s WHERE ${audienceOf('$2', '$3')}
       ORDER BY s.id
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS recipients FROM queued`,
    [id, campaign.lang, campaign.topics],
  );
  const recipients = queued?.recipients ?? 0;
  if (recipients === 0) throw new NoRecipients(campaign.lang, campaign.topics);
  await tx.query('UPDATE campaigns SET recipients = $2 WHERE id = $1', [id, recipients]);
  return { recipients };
}

/** A sent issue as the public archive lists it. */
export interface ArchivedIssue {
  id: number;
  subject: string;
  preheader: string;
  sentAt: Date;
}

/** The sent issues of a language that are listed in the public archive, newest first. */
export async function archivedIssues(db: Queryable, lang: Lang, limit = 500): Promise<ArchivedIssue[]> {
  const rows = await db.query<{ id: number; subject: string; preheader: string; send_started_at: Date }>(
    `SELECT id, subject, preheader, send_started_at FROM campaigns
     WHERE status = 'sent' AND in_archive AND lang = $1
     ORDER BY send_started_at DESC, id DESC LIMIT $2`,
    [lang, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    subject: row.subject,
    preheader: row.preheader,
    sentAt: new Date(row.send_started_at),
  }));
}

/** A draft whose scheduled moment has come. */
export interface DueCampaign {
  id: number;
  lang: Lang;
  scheduledAt: Date;
}

/** The drafts due to start, the longest overdue first. */
export async function dueCampaigns(db: Queryable, limit = 20): Promise<DueCampaign[]> {
  const rows = await db.query<{ id: number; lang: Lang; scheduled_at: Date }>(
    `SELECT id, lang, scheduled_at FROM campaigns
     WHERE status = 'draft' AND scheduled_at <= now() ORDER BY scheduled_at, id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ id: row.id, lang: row.lang, scheduledAt: new Date(row.scheduled_at) }));
}

/**
 * Takes a draft that is still due off the schedule (it could not start); false when it started, was
 * unscheduled or moved to a later time meanwhile.
 */
export async function unscheduleDue(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE campaigns SET scheduled_at = NULL, updated_at = now()
     WHERE id = $1 AND status = 'draft' AND scheduled_at <= now() RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/**
 * Stops a campaign that is sending: its copies that have not gone out are cancelled (a copy a worker holds
 * right now is checked again before it is handed to the SMTP server). Call inside a transaction.
 */
export async function cancelSending(
  db: Queryable,
  id: number,
): Promise<{ cancelled: number } | NotDraft | undefined> {
  const stopped = await db.query(
    `UPDATE campaigns SET status = 'cancelled', finished_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'sending' RETURNING id`,
    [id],
  );
  if (stopped.length === 0) return stateOf(db, id);
  const rows = await db.query(
    `UPDATE outbox SET status = 'cancelled', lease_until = NULL, last_error = 'the campaign was cancelled',
       failure_kind = NULL
     WHERE campaign_id = $1 AND template = 'campaign' AND status = 'pending' RETURNING id`,
    [id],
  );
  return { cancelled: rows.length };
}

/** Campaigns whose every copy is settled (sent, failed or skipped) become `sent`; returns their ids. */
export async function settleCampaigns(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `UPDATE campaigns c SET status = 'sent', finished_at = now(), updated_at = now()
     WHERE c.status = 'sending' AND NOT EXISTS (
       SELECT 1 FROM outbox o
       WHERE o.campaign_id = c.id AND o.template = 'campaign' AND o.status IN ('pending', 'sending'))
     RETURNING id`,
  );
  return rows.map((row) => row.id);
}

/** What a copy needs at send time: the campaign's content and whether it may still go out. */
export interface CampaignForMail extends CampaignContent {
  id: number;
  status: CampaignStatus;
  /** ISO time of the last change: an issue is rendered once per version. */
  updatedAt: string;
}

export async function campaignForMail(db: Queryable, id: number): Promise<CampaignForMail | undefined> {
  const [row] = await db.query<CampaignRow>(`SELECT ${COLUMNS} FROM campaigns WHERE id = $1`, [id]);
  return row && { ...toCampaign(row), updatedAt: iso(row.updated_at)! };
}
