/**
 * The activity log: an append-only table of security and data events (who, what, on what, when, from which
 * network). The database refuses UPDATE and DELETE of rows younger than 400 days (db/migrations/0008_team.sql);
 * the retention job deletes the older ones. Text is stored with control characters escaped, so a CR/LF in an
 * e-mail, a name or a target can never start a line of its own in an export or a log viewer. Refusals anyone
 * can cause without a valid token are tallied instead ({@link tallyRefusal}): one row per network, action and
 * hour with a count, so a flood of them stays a few rows.
 */
import type { Db, Queryable } from '../db/index.ts';
import { truncatedAddress } from '../client-address.ts';

export const ACTIVITY_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.mfa',
  'auth.mfa_failed',
  'auth.sign_out',
  'auth.sessions_revoked',
  'auth.password_changed',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.locked',
  'account.factor_added',
  'account.factor_removed',
  'account.recovery_codes',
  'http.401',
  'http.403',
  'http.429',
  'team.invite',
  'team.invite_resent',
  'team.invite_accepted',
  'team.role',
  'team.status',
  'team.delete',
  'team.reset_factors',
  'subscriber.delete',
  'subscriber.erase',
  'subscriber.export',
  'subscribers.export',
  'subscribers.import',
  'subscribers.import_cancel',
  'campaign.test',
  'campaign.send',
  'meeting.confirm',
  'meeting.decline',
  'meeting.cancelled_by_visitor',
  'meeting.rescheduled',
  'suppression.add',
  'suppression.lift',
  'suppressions.export',
  'campaign.send_over_complaints',
  'campaign.schedule',
  'campaign.reschedule',
  'campaign.unschedule',
  'campaign.scheduled_start',
  'campaign.schedule_failed',
  'campaign.duplicate',
  'campaign.archive',
  'content.save',
  'content.submit',
  'content.publish',
  'content.translate',
  'content.upload',
  'content.settings',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export interface NewActivity {
  /** The signed-in account, or null for an anonymous caller. */
  actor: { id: number; email: string } | null;
  action: ActivityAction;
  /** What the event was about: an account's e-mail, `subscriber 12`, `GET /api/team`. */
  target?: string | null;
  /** The caller's IP address; only its network is stored. */
  ip?: string;
}

export interface ActivityEntry {
  /** Negative for a tally of refusals. */
  id: number;
  at: Date;
  actor: { id: number; email: string } | null;
  action: string;
  target: string | null;
  client: string;
  /** How many events the entry stands for: 1, or a tally's count (its `at` is the latest of them). */
  count: number;
}

const TARGET_MAX = 300;

/**
 * Text safe to store and show: C0/C1 controls and the Unicode line and paragraph separators become `\xNN` or
 * `\uNNNN`, so the value reads as what was sent and never breaks a line.
 */
export function escapeControls(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]/gu, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

export async function recordActivity(db: Queryable, entry: NewActivity, at = new Date()): Promise<void> {
  const target = entry.target == null ? null : clip(escapeControls(entry.target), TARGET_MAX);
  await db.query(
    `INSERT INTO activity_log (at, actor_id, actor_email, action, target, client) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      at,
      entry.actor?.id ?? null,
      entry.actor ? clip(escapeControls(entry.actor.email), 254) : null,
      entry.action,
      target,
      truncatedAddress(entry.ip),
    ],
  );
}

/** A tally covers the refusals of one network and action in this many seconds. */
export const TALLY_WINDOW_SECONDS = 3600;
/** Networks with a tally row of their own per action and window; refusals from more share the row `other`. */
export const TALLY_NETWORKS = 20;
const SAMPLE_MAX = 120;

/**
 * Counts a refusal that anyone can cause without a valid token (a 401, a 429, a failed sign-in for an unknown
 * address or a locked account) in its network's tally for the hour, at most TALLY_NETWORKS networks a window
 * and action with a row of their own. Almost every refusal of a flood adds to a row that exists (its network's,
 * or `other` once the window has its networks): one statement. Only a refusal that may add a row takes a
 * transaction-scoped advisory lock of its window and action first, so that parallel refusals from new networks
 * cannot each count the rows before the other's is written and pass the limit together (22 rows for 20 seats
 * in a CI run on PostgreSQL).
 */
export async function tallyRefusal(
  db: Db,
  entry: { action: ActivityAction; target?: string | null; ip?: string },
  at = new Date(),
): Promise<void> {
  const window = new Date(
    Math.floor(at.getTime() / (TALLY_WINDOW_SECONDS * 1000)) * TALLY_WINDOW_SECONDS * 1000,
  );
  const client = truncatedAddress(entry.ip);
  const counted = await db.query(
    `UPDATE refusal_tallies AS t SET count = t.count + 1, last_at = greatest(t.last_at, $4)
      WHERE t.window_start = $1 AND t.action = $3
        AND (t.client = $2
             OR (t.client = 'other'
                 AND NOT EXISTS (SELECT 1 FROM refusal_tallies
                                  WHERE window_start = $1 AND action = $3 AND client = $2)
                 AND (SELECT count(*) FROM refusal_tallies
                       WHERE window_start = $1 AND action = $3 AND client <> 'other') >= $5))
      RETURNING 1`,
    [window, client, entry.action, at, TALLY_NETWORKS],
  );
  if (counted.length > 0) return;
  const sample = entry.target == null ? null : clip(escapeControls(entry.target), SAMPLE_MAX);
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('refusal_tallies'), hashtext($1))`, [
      `${window.toISOString()} ${entry.action}`,
    ]);
    await tx.query(
      `INSERT INTO refusal_tallies AS t (window_start, client, action, count, first_at, last_at, sample)
       SELECT $1, CASE WHEN EXISTS (SELECT 1 FROM refusal_tallies
                                    WHERE window_start = $1 AND action = $3 AND client = $2)
                         OR (SELECT count(*) FROM refusal_tallies
                              WHERE window_start = $1 AND action = $3 AND client <> 'other') < $6
                       THEN $2 ELSE 'other' END,
              $3, 1, $4, $4, $5
       ON CONFLICT (window_start, action, client) DO UPDATE
         SET count = t.count + 1, last_at = greatest(t.last_at, EXCLUDED.last_at)`,
      [window, client, entry.action, at, sample, TALLY_NETWORKS],
    );
  });
}

export interface ActivityQuery {
  page: number;
  pageSize: number;
  action?: string;
  actorId?: number;
}

interface Row extends Record<string, unknown> {
  id: number | string;
  at: Date;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  client: string;
  count: number;
  total: number;
}

/** The log's rows and the refusal tallies as one list (a tally has no actor). */
const ENTRIES = `(SELECT id, at, actor_id, actor_email, action, target, client, 1 AS count FROM activity_log
  UNION ALL
  SELECT -id, last_at, NULL, NULL, action, sample, client, count FROM refusal_tallies) AS e
  WHERE ($1::text IS NULL OR action = $1) AND ($2::int IS NULL OR actor_id = $2)`;

/** Newest first, one page, with the number of matching rows. */
export async function listActivity(
  db: Queryable,
  query: ActivityQuery,
): Promise<{ rows: ActivityEntry[]; total: number }> {
  const rows = await db.query<Row>(
    `SELECT id, at, actor_id, actor_email, action, target, client, count, count(*) OVER ()::int AS total
     FROM ${ENTRIES}
     ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`,
    [query.action ?? null, query.actorId ?? null, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const total =
    rows[0]?.total ??
    (
      await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${ENTRIES}`, [
        query.action ?? null,
        query.actorId ?? null,
      ])
    )[0]!.total;
  return {
    total,
    rows: rows.map((row) => ({
      id: Number(row.id),
      at: new Date(row.at),
      actor: row.actor_id === null ? null : { id: row.actor_id, email: row.actor_email ?? '' },
      action: row.action,
      target: row.target,
      client: row.client,
      count: Number(row.count),
    })),
  };
}
