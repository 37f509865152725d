/**
 * The retention periods of the privacy policy (src/content/legal/privacy-policy.mdx), applied by the same
 * scheduled worker that sends mail. tests/api/retention.test.ts checks each period at its boundary, and
 * tests/unit/mail-copy.test.ts that the policy states these numbers.
 */
import type { Queryable } from './db/index.ts';
import { INSIGHT_TABLES } from './repositories/insight.ts';

export const RETENTION = {
  /** An unconfirmed newsletter sign-up is deleted this many days after its last confirmation mail (the link's life). */
  pendingSignUpDays: 7,
  /** Sent (or failed, or cancelled) mail keeps its recipient and content this many days, then only counts. */
  mailPersonalDataDays: 30,
  /** Mail rows without personal data are deleted after this many days. */
  mailRecordDays: 400,
  /** Contact messages: months after the inquiry was closed, or after it arrived if it never was. */
  contactMonths: 24,
  /** Meeting requests: months after the meeting date. */
  meetingMonths: 12,
  /** Rate-limit keys (hashed) with no event since: hours. */
  rateLimitHours: 24,
  /** Insight counters (daily aggregates, no personal data): months after their day. */
  insightMonths: 25,
  /**
   * Activity log entries and refusal tallies: days. db/migrations/0008_team.sql refuses to delete younger rows, so change both
   * together.
   */
  activityLogDays: 400,
  /** A contact import's rows (each address and name with what became of it, the report): days after the upload. */
  importRowsDays: 30,
  /** Ended admin sessions, sign-in tickets, and used, revoked or expired account links: days after they ended. */
  accountRecordDays: 1,
} as const;

export interface RetentionReport {
  pendingSignUps: number;
  mailPurged: number;
  mailDeleted: number;
  inquiries: number;
  rateLimitWindows: number;
  insightRows: number;
  activityEntries: number;
  accountRecords: number;
  importRows: number;
}

async function count(db: Queryable, sql: string): Promise<number> {
  return (await db.query(`${sql} RETURNING 1`)).length;
}

/** Deletes the insight counters of days more than {@link RETENTION.insightMonths} months ago. */
async function insightRows(db: Queryable): Promise<number> {
  let deleted = 0;
  for (const table of INSIGHT_TABLES) {
    deleted += await count(
      db,
      `DELETE FROM ${table} WHERE day < (now() AT TIME ZONE 'UTC')::date - make_interval(months => ${RETENTION.insightMonths})`,
    );
  }
  return deleted;
}

/** Deletes and empties what has outlived its period. Each statement stands alone; rerunning is harmless. */
export async function applyRetention(db: Queryable): Promise<RetentionReport> {
  const r = RETENTION;
  return {
    pendingSignUps: await count(
      db,
      // Counted from the last confirmation mail, whose link lives as long: an import's mails leave at the send
      // rate, hours after the rows were added, and a repeated sign-up sends a new one.
      `DELETE FROM subscribers s WHERE status = 'pending'
       AND coalesce(confirmation_sent_at, consented_at, created_at)
         < now() - make_interval(days => ${r.pendingSignUpDays})
       AND NOT EXISTS (
         SELECT 1 FROM outbox o WHERE o.subscriber_id = s.id AND o.template = 'newsletter-confirm'
         AND (o.status IN ('pending', 'sending')
           OR o.sent_at >= now() - make_interval(days => ${r.pendingSignUpDays})))`,
    ),
    mailPurged:
      (await count(
        db,
        `UPDATE outbox SET recipient = NULL, params = '{}', last_error = NULL, purged_at = now()
         WHERE purged_at IS NULL AND status IN ('sent', 'failed', 'cancelled')
         AND created_at < now() - make_interval(days => ${r.mailPersonalDataDays})`,
      )) +
      // A bounce or complaint keeps the address's hash and the server's reply as long as the mail's own data;
      // the suppression it led to is kept on the suppression list, not here.
      (await count(
        db,
        `UPDATE mail_events SET email_hash = NULL, diagnostic = NULL, subscriber_id = NULL
         WHERE (email_hash IS NOT NULL OR diagnostic IS NOT NULL OR subscriber_id IS NOT NULL)
         AND received_at < now() - make_interval(days => ${r.mailPersonalDataDays})`,
      )),
    mailDeleted:
      (await count(
        db,
        `DELETE FROM outbox WHERE purged_at IS NOT NULL
         AND created_at < now() - make_interval(days => ${r.mailRecordDays})`,
      )) +
      (await count(
        db,
        `DELETE FROM mail_events WHERE received_at < now() - make_interval(days => ${r.mailRecordDays})`,
      )),
    inquiries: await count(
      db,
      `DELETE FROM inquiries WHERE
         (kind = 'contact' AND coalesce(handled_at, created_at) < now() - make_interval(months => ${r.contactMonths}))
         OR (kind = 'meeting' AND meeting_start < now() - make_interval(months => ${r.meetingMonths}))`,
    ),
    rateLimitWindows: await count(
      db,
      `DELETE FROM rate_limits WHERE last_hit_at < now() - make_interval(hours => ${r.rateLimitHours})`,
    ),
    insightRows: await insightRows(db),
    activityEntries:
      (await count(
        db,
        `DELETE FROM activity_log WHERE at < now() - make_interval(days => ${r.activityLogDays})`,
      )) +
      // The refusal tallies are the log's too, and kept as long.
      (await count(
        db,
        `DELETE FROM refusal_tallies WHERE last_at < now() - make_interval(days => ${r.activityLogDays})`,
      )),
    accountRecords:
      (await count(
        db,
        `DELETE FROM admin_sessions
         WHERE least(expires_at, coalesce(revoked_at, expires_at), last_seen_at + interval '30 minutes')
           < now() - make_interval(days => ${r.accountRecordDays})`,
      )) +
      (await count(
        db,
        `DELETE FROM admin_mfa_tickets WHERE expires_at < now() - make_interval(days => ${r.accountRecordDays})`,
      )) +
      (await count(
        db,
        `DELETE FROM admin_links
         WHERE least(expires_at, coalesce(used_at, expires_at), coalesce(revoked_at, expires_at))
           < now() - make_interval(days => ${r.accountRecordDays})`,
      )),
    // The job itself (its counts and source, no address) stays: imported subscribers name it as their source.
    importRows: await count(
      db,
      `DELETE FROM subscriber_import_rows r USING subscriber_imports i
       WHERE r.import_id = i.id AND i.created_at < now() - make_interval(days => ${r.importRowsDays})`,
    ),
  };
}
