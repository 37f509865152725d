/**
 * The insight counters (db/migrations/0010_insight.sql): upserts that add to a (day, dimension) row, and the
 * reads behind GET /api/insights. Days are UTC calendar days, passed in as `YYYY-MM-DD`.
 */
import type { Queryable } from '../db/index.ts';
import { percentile75, VITALS, vitalRating, type Vital, type VitalRating } from '../../lib/insight-vitals.ts';
import type { Conversion } from '../../lib/insight.ts';
import type { PageVisit } from '../insight/beacon.ts';

/** The UTC day of an instant. @example utcDay(new Date('2026-11-26T23:30:00Z')) // '2026-11-26' */
export const utcDay = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** The measurement tables, for the retention job and the schema test. */
export const INSIGHT_TABLES = [
  'insight_page_views',
  'insight_entries',
  'insight_conversions',
  'insight_searches',
  'insight_vitals',
  'insight_newsletter',
  'insight_day_rows',
] as const;

/**
 * What a day keeps of the values a visitor's browser names (issue 35): the entries (referring host and UTM
 * tags together) at most {@link ENTRY_ROWS_PER_DAY} distinct rows, the search queries at most
 * {@link SEARCHES_PER_DAY}; a value past its day's cap counts as {@link OTHER}, so a script sending beacons
 * with made-up values adds to counts, never to rows. The check is the row's own key lookup and the day's row
 * count, kept in `insight_day_rows` by the statement that adds a row.
 */
export const ENTRY_ROWS_PER_DAY = 500;
export const SEARCHES_PER_DAY = 200;
/** What a value past its day's cap is counted as; no referrer, tag or query of ours normalises to it. */
export const OTHER = '(other)';

/**
 * Adds one page visit to its counters in a single statement (one round trip, one transaction): the view,
 * the entry, a brochure download, the searches and the vitals histograms, each past the day's caps as
 * {@link OTHER}.
 */
export async function recordVisit(db: Queryable, visit: PageVisit, day = utcDay()): Promise<void> {
  const entry = visit.entry;
  await db.query(
    `WITH view AS (
       INSERT INTO insight_page_views AS t (day, path, device, views) VALUES ($1, $2, $3, 1)
       ON CONFLICT (day, path, device) DO UPDATE SET views = t.views + 1
     ), held AS (
       SELECT coalesce((SELECT "rows" FROM insight_day_rows WHERE day = $1 AND dimension = 'entries'), 0) AS entries,
              coalesce((SELECT "rows" FROM insight_day_rows WHERE day = $1 AND dimension = 'searches'), 0) AS searches
     ), combination AS (
       SELECT CASE WHEN held.entries < $15 OR EXISTS (SELECT 1 FROM insight_entries WHERE day = $1
                      AND referrer = $4 AND utm_source = $5 AND utm_medium = $6 AND utm_campaign = $7)
                   THEN ARRAY[$4, $5, $6, $7]::text[]
                   ELSE ARRAY['${OTHER}', '${OTHER}', '${OTHER}', '${OTHER}'] END AS v
       FROM held
     ), entry AS (
       INSERT INTO insight_entries AS t (day, referrer, utm_source, utm_medium, utm_campaign, entries)
       SELECT $1, v[1], v[2], v[3], v[4], 1 FROM combination WHERE $8::boolean
       ON CONFLICT (day, referrer, utm_source, utm_medium, utm_campaign) DO UPDATE SET entries = t.entries + 1
       RETURNING xmax = 0 AS created
     ), brochure AS (
       INSERT INTO insight_conversions AS t (day, kind, conversions) SELECT $1, 'brochure', 1 WHERE $9::boolean
       ON CONFLICT (day, kind) DO UPDATE SET conversions = t.conversions + 1
     ), search AS (
       INSERT INTO insight_searches AS t (day, query, results, searches)
       SELECT $1, q, max(r), count(*) FROM (
         SELECT CASE WHEN held.searches < $14 OR EXISTS (SELECT 1 FROM insight_searches WHERE day = $1 AND query = s.q)
                     THEN s.q ELSE '${OTHER}' END AS q, s.r
         FROM held, unnest($10::text[], $11::int[]) AS s (q, r)) AS kept
       GROUP BY q
       ON CONFLICT (day, query) DO UPDATE SET searches = t.searches + excluded.searches, results = excluded.results
       RETURNING xmax = 0 AS created
     ), added AS (
       INSERT INTO insight_day_rows AS t (day, dimension, "rows")
       SELECT $1, dimension, n FROM (
         SELECT 'entries' AS dimension, count(*) FILTER (WHERE created) AS n FROM entry
         UNION ALL SELECT 'searches', count(*) FILTER (WHERE created) FROM search) AS c
       WHERE n > 0
       ON CONFLICT (day, dimension) DO UPDATE SET "rows" = t."rows" + excluded."rows"
     )
     INSERT INTO insight_vitals AS t (day, path, metric, bucket, samples)
     SELECT $1, $2, m, b, 1 FROM unnest($12::text[], $13::int[]) AS v (m, b)
     ON CONFLICT (day, path, metric, bucket) DO UPDATE SET samples = t.samples + 1`,
    [
      day,
      visit.path,
      visit.device,
      entry?.referrer ?? '',
      entry?.source ?? '',
      entry?.medium ?? '',
      entry?.campaign ?? '',
      entry !== undefined,
      visit.brochure,
      visit.searches.map((s) => s.query),
      visit.searches.map((s) => s.results),
      visit.vitals.map((v) => v.metric),
      visit.vitals.map((v) => v.bucket),
      SEARCHES_PER_DAY,
      ENTRY_ROWS_PER_DAY,
    ],
  );
}

/** Adds one conversion of `kind` to today's counter. */
export async function countConversion(db: Queryable, kind: Conversion, day = utcDay()): Promise<void> {
  await db.query(
    `INSERT INTO insight_conversions AS t (day, kind, conversions) VALUES ($1, $2, 1)
     ON CONFLICT (day, kind) DO UPDATE SET conversions = t.conversions + 1`,
    [day, kind],
  );
}

/**
 * Adds one click on `url` (or, with `event: 'unsubscribe'` and no url, one unsubscribe) to an issue's
 * counter. Nothing is counted for an issue that no longer exists.
 */
export async function countNewsletterEvent(
  db: Queryable,
  campaignId: number,
  event: 'click' | 'unsubscribe',
  url = '',
  day = utcDay(),
): Promise<void> {
  await db.query(
    `INSERT INTO insight_newsletter AS t (day, campaign_id, event, url, events)
     SELECT $1, id, $3, $4, 1 FROM campaigns WHERE id = $2
     ON CONFLICT (day, campaign_id, event, url) DO UPDATE SET events = t.events + 1`,
    [day, campaignId, event, url],
  );
}

export interface InsightRange {
  /** First and last UTC day, inclusive, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

export interface VitalSummary {
  path: string;
  metric: Vital;
  p75: number;
  samples: number;
  rating: VitalRating;
}

export interface IssueSummary {
  id: number;
  subject: string;
  sentAt: string | null;
  delivered: number;
  clicks: number;
  unsubscribes: number;
  links: { url: string; clicks: number }[];
}

/** What the admin Overview shows for a range of days. */
export interface Insights extends InsightRange {
  days: { day: string; views: number; entries: number }[];
  pages: { path: string; views: number }[];
  devices: { device: string; views: number }[];
  referrers: { source: string; views: number }[];
  campaigns: { source: string; medium: string; campaign: string; views: number }[];
  conversions: Record<Conversion, number>;
  vitals: VitalSummary[];
  searches: { query: string; results: number; count: number }[];
  subscribers: { week: string; confirmed: number; unsubscribed: number }[];
  issues: IssueSummary[];
}

/** How many rows each top list returns. */
const TOP = 50;

const isoDay = (value: unknown) =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** Every day of the range, with zero where nothing was counted, so a chart's axis has no gaps. */
async function dailyViews(db: Queryable, { from, to }: InsightRange) {
  const rows = await db.query<{ day: unknown; views: number; entries: number }>(
    `SELECT d::date AS day,
       coalesce((SELECT sum(views) FROM insight_page_views WHERE day = d::date), 0)::int AS views,
       coalesce((SELECT sum(entries) FROM insight_entries WHERE day = d::date), 0)::int AS entries
     FROM generate_series($1::date, $2::date, interval '1 day') AS d ORDER BY d`,
    [from, to],
  );
  return rows.map((row) => ({ day: isoDay(row.day), views: row.views, entries: row.entries }));
}

async function vitalsIn(db: Queryable, { from, to }: InsightRange): Promise<VitalSummary[]> {
  const rows = await db.query<{ path: string; metric: Vital; bucket: number; samples: number }>(
    `SELECT path, metric, bucket::int AS bucket, sum(samples)::int AS samples FROM insight_vitals
     WHERE day BETWEEN $1 AND $2 GROUP BY path, metric, bucket`,
    [from, to],
  );
  const histograms = new Map<string, { path: string; metric: Vital; counts: Map<number, number> }>();
  for (const row of rows) {
    const key = `${row.path}\n${row.metric}`;
    const histogram = histograms.get(key) ?? { path: row.path, metric: row.metric, counts: new Map() };
    histogram.counts.set(row.bucket, row.samples);
    histograms.set(key, histogram);
  }
  return [...histograms.values()]
    .map(({ path, metric, counts }) => {
      const p75 = percentile75(metric, counts)!;
      const samples = [...counts.values()].reduce((sum, n) => sum + n, 0);
      return { path, metric, p75, samples, rating: vitalRating(metric, p75) };
    })
    .sort((a, b) => a.path.localeCompare(b.path) || VITALS.indexOf(a.metric) - VITALS.indexOf(b.metric));
}

/**
 * Subscriber growth per ISO week (Monday) from the list itself: confirmations of the addresses still on it
 * (`subscribers.confirmed_at`) and unsubscribes (`mail_suppressions` of reason `unsubscribe`, written when
 * someone leaves; bounces and complaints are suppressions too, but nobody chose to leave).
 */
async function subscriberWeeks(db: Queryable, { from, to }: InsightRange) {
  const rows = await db.query<{ week: unknown; confirmed: number; unsubscribed: number }>(
    `SELECT w::date AS week,
       (SELECT count(*) FROM subscribers WHERE status = 'confirmed'
          AND confirmed_at >= w AND confirmed_at < w + interval '7 days')::int AS confirmed,
       (SELECT count(*) FROM mail_suppressions WHERE reason = 'unsubscribe'
          AND created_at >= w AND created_at < w + interval '7 days')::int AS unsubscribed
     FROM generate_series(date_trunc('week', $1::date), $2::date, interval '7 days') AS w ORDER BY w`,
    [from, to],
  );
  return rows.map((row) => ({
    week: isoDay(row.week),
    confirmed: row.confirmed,
    unsubscribed: row.unsubscribed,
  }));
}

/** Issues whose sending started in the range, newest first, with delivered copies, clicks per link and unsubscribes. */
async function issuesIn(db: Queryable, { from, to }: InsightRange): Promise<IssueSummary[]> {
  const issues = await db.query<{
    id: number;
    subject: string;
    send_started_at: Date | null;
    delivered: number;
  }>(
    `SELECT c.id, c.subject, c.send_started_at,
       (SELECT count(*) FROM outbox o WHERE o.campaign_id = c.id AND o.template = 'campaign'
          AND o.status = 'sent')::int AS delivered
     FROM campaigns c
     WHERE c.status <> 'draft' AND c.send_started_at >= $1::date AND c.send_started_at < $2::date + 1
     ORDER BY c.send_started_at DESC, c.id DESC LIMIT ${TOP}`,
    [from, to],
  );
  if (issues.length === 0) return [];
  const events = await db.query<{ campaign_id: number; event: string; url: string; events: number }>(
    `SELECT campaign_id, event, url, sum(events)::int AS events FROM insight_newsletter
     WHERE campaign_id = ANY($1::int[]) GROUP BY campaign_id, event, url ORDER BY events DESC, url`,
    [issues.map((issue) => issue.id)],
  );
  return issues.map((issue) => {
    const own = events.filter((e) => e.campaign_id === issue.id);
    const links = own.filter((e) => e.event === 'click').map((e) => ({ url: e.url, clicks: e.events }));
    return {
      id: issue.id,
      subject: issue.subject,
      sentAt: issue.send_started_at ? new Date(issue.send_started_at).toISOString() : null,
      delivered: issue.delivered,
      clicks: links.reduce((sum, link) => sum + link.clicks, 0),
      unsubscribes: own.filter((e) => e.event === 'unsubscribe').reduce((sum, e) => sum + e.events, 0),
      links,
    };
  });
}

/** Everything the Overview shows for the days `from`…`to` (inclusive). */
export async function readInsights(db: Queryable, range: InsightRange): Promise<Insights> {
  const { from, to } = range;
  const between = 'day BETWEEN $1 AND $2';
  const [days, pages, devices, referrers, campaigns, conversionRows, vitals, searches, subscribers, issues] =
    await Promise.all([
      dailyViews(db, range),
      db.query<{ path: string; views: number }>(
        `SELECT path, sum(views)::int AS views FROM insight_page_views WHERE ${between}
         GROUP BY path ORDER BY views DESC, path LIMIT ${TOP}`,
        [from, to],
      ),
      db.query<{ device: string; views: number }>(
        `SELECT device, sum(views)::int AS views FROM insight_page_views WHERE ${between}
         GROUP BY device ORDER BY views DESC, device`,
        [from, to],
      ),
      db.query<{ source: string; views: number }>(
        `SELECT referrer AS source, sum(entries)::int AS views FROM insight_entries WHERE ${between}
         GROUP BY referrer ORDER BY views DESC, referrer LIMIT ${TOP}`,
        [from, to],
      ),
      db.query<{ source: string; medium: string; campaign: string; views: number }>(
        `SELECT utm_source AS source, utm_medium AS medium, utm_campaign AS campaign, sum(entries)::int AS views
         FROM insight_entries WHERE ${between} AND (utm_source <> '' OR utm_medium <> '' OR utm_campaign <> '')
         GROUP BY 1, 2, 3 ORDER BY views DESC, 1, 2, 3 LIMIT ${TOP}`,
        [from, to],
      ),
      db.query<{ kind: Conversion; conversions: number }>(
        `SELECT kind, sum(conversions)::int AS conversions FROM insight_conversions WHERE ${between} GROUP BY kind`,
        [from, to],
      ),
      vitalsIn(db, range),
      db.query<{ query: string; results: number; count: number }>(
        `SELECT query, (array_agg(results ORDER BY day DESC))[1]::int AS results, sum(searches)::int AS count
         FROM insight_searches WHERE ${between} GROUP BY query ORDER BY count DESC, query LIMIT 200`,
        [from, to],
      ),
      subscriberWeeks(db, range),
      issuesIn(db, range),
    ]);
  const conversions: Record<Conversion, number> = {
    contact: 0,
    meeting: 0,
    signup: 0,
    confirmed: 0,
    brochure: 0,
  };
  for (const row of conversionRows) conversions[row.kind] = row.conversions;
  return {
    from,
    to,
    days,
    pages,
    devices,
    referrers,
    campaigns,
    conversions,
    vitals,
    searches,
    subscribers,
    issues,
  };
}
