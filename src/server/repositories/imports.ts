/**
 * Contact imports (db/migrations/0017_subscriber_import.sql): the job, its rows, and applying them to the list in
 * chunks. Each chunk is one transaction that locks the job, so a cancel waits for the chunk in hand and the next
 * one sees it; a chunk sets its rows' outcomes with the subscribers it writes, so a run that dies and is taken
 * over never applies a row twice. An address on the suppression list, or whose subscriber bounced or complained,
 * is never subscribed by an import: its row is rejected with the reason.
 */
import type { NewsletterTopic } from '../../content/constants.ts';
import type { Lang } from '../../i18n/lang.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { ImportRow } from '../import-file.ts';
import { emailHash } from '../mail/hash.ts';
import { enqueueMail } from './outbox.ts';
import type { SubscriberStatus } from './subscribers.ts';
import type { SuppressionReason } from './suppressions.ts';

/** `consented`: the firm holds each person's consent; `confirm`: the import asks for it by the double opt-in. */
export const IMPORT_MODES = ['consented', 'confirm'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export type ImportState = 'running' | 'done' | 'cancelled';
export type RowOutcome = 'added' | 'updated' | 'skipped' | 'rejected';

/** Rows applied per transaction: large enough to be fast, small enough for a cancel to stop within a second. */
export const IMPORT_CHUNK = 1000;
/** How long a run holds a job before the scheduled worker may take it over. */
export const IMPORT_LEASE_SECONDS = 120;

export interface NewImport {
  createdBy: number;
  mode: ImportMode;
  source: string;
  rows: readonly ImportRow[];
}

/** Stores the job and its rows (those refused or repeated with their outcome already); returns its id. */
export async function createImport(db: Db, entry: NewImport): Promise<number> {
  return db.transaction(async (tx) => {
    const [job] = await tx.query<{ id: number }>(
      `INSERT INTO subscriber_imports (created_by, mode, source, total, skipped, rejected)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        entry.createdBy,
        entry.mode,
        entry.source,
        entry.rows.length,
        entry.rows.filter((r) => r.outcome === 'skipped').length,
        entry.rows.filter((r) => r.outcome === 'rejected').length,
      ],
    );
    const id = job!.id;
    for (let from = 0; from < entry.rows.length; from += 5000) {
      const chunk = entry.rows.slice(from, from + 5000);
      await tx.query(
        `INSERT INTO subscriber_import_rows
           (import_id, line, email, name, lang, topics, consented_at, consent_source, outcome, reason)
         SELECT $1, r.line, r.email, r.name, r.lang, r.topics::text[], r.consented_at, r.consent_source, r.outcome,
           r.reason
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[],
           $9::text[], $10::text[]) AS r (line, email, name, lang, topics, consented_at, consent_source, outcome,
           reason)`,
        [
          id,
          chunk.map((r) => r.line),
          chunk.map((r) => r.email),
          chunk.map((r) => r.name),
          chunk.map((r) => r.lang),
          // A Postgres array literal per row; topic ids are lower-case words with hyphens, nothing to quote.
          chunk.map((r) => `{${r.topics.join(',')}}`),
          chunk.map((r) => r.consentedAt),
          chunk.map((r) => r.consentSource),
          chunk.map((r) => r.outcome ?? null),
          chunk.map((r) => r.reason ?? null),
        ],
      );
    }
    await tx.query(
      `UPDATE subscriber_imports SET processed = skipped + rejected,
         state = CASE WHEN skipped + rejected = total THEN 'done' ELSE state END,
         finished_at = CASE WHEN skipped + rejected = total THEN now() END
       WHERE id = $1`,
      [id],
    );
    return id;
  });
}

/** What the progress poll shows. */
export interface ImportStatus {
  id: number;
  state: ImportState;
  mode: ImportMode;
  source: string;
  createdAt: string;
  total: number;
  processed: number;
  added: number;
  updated: number;
  skipped: number;
  /** Each refused row, by line. */
  rejected: Array<{ line: number; reason: string }>;
}

interface ImportRowDb extends Record<string, unknown> {
  id: number;
  state: ImportState;
  mode: ImportMode;
  source: string;
  created_at: Date;
  total: number;
  processed: number;
  added: number;
  updated: number;
  skipped: number;
}

export async function importStatus(db: Queryable, id: number): Promise<ImportStatus | undefined> {
  const [job] = await db.query<ImportRowDb>(
    `SELECT id, state, mode, source, created_at, total, processed, added, updated, skipped
     FROM subscriber_imports WHERE id = $1`,
    [id],
  );
  if (!job) return undefined;
  const rejected = await db.query<{ line: number; reason: string }>(
    `SELECT line, reason FROM subscriber_import_rows WHERE import_id = $1 AND outcome = 'rejected' ORDER BY line`,
    [id],
  );
  return {
    id: job.id,
    state: job.state,
    mode: job.mode,
    source: job.source,
    createdAt: new Date(job.created_at).toISOString(),
    total: job.total,
    processed: job.processed,
    added: job.added,
    updated: job.updated,
    skipped: job.skipped,
    rejected: rejected.map(({ line, reason }) => ({ line, reason })),
  };
}

/** One line of the report: every row of the file, with what became of it. */
export interface ReportLine extends Record<string, unknown> {
  line: number;
  email: string | null;
  outcome: RowOutcome | null;
  reason: string | null;
}

export async function importReport(db: Queryable, id: number): Promise<ReportLine[]> {
  return db.query<ReportLine>(
    'SELECT line, email, outcome, reason FROM subscriber_import_rows WHERE import_id = $1 ORDER BY line',
    [id],
  );
}

/**
 * Takes the job for this run if it is running and no other run holds it (or the other's lease lapsed).
 * @returns whether this run now holds it.
 */
export async function leaseImport(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE subscriber_imports SET lease_until = now() + make_interval(secs => ${IMPORT_LEASE_SECONDS})
     WHERE id = $1 AND state = 'running' AND (lease_until IS NULL OR lease_until < now()) RETURNING id`,
    [id],
  );
  return rows.length === 1;
}

/** Jobs still running whose run is gone (its lease lapsed, or it never took one): the worker's to finish. */
export async function abandonedImports(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT id FROM subscriber_imports
     WHERE state = 'running' AND (lease_until IS NULL OR lease_until < now()) ORDER BY id`,
  );
  return rows.map((row) => row.id);
}

interface WaitingRow extends Record<string, unknown> {
  line: number;
  email: string;
  name: string | null;
  lang: Lang;
  topics: NewsletterTopic[];
  consented_at: Date | null;
  consent_source: string | null;
}

interface ExistingRow extends Record<string, unknown> {
  id: number;
  key: string;
  status: SubscriberStatus;
  name: string | null;
  topics: string[];
}

/** Words for a suppressed address in the report. */
const SUPPRESSED: Record<SuppressionReason, string> = {
  unsubscribe: 'unsubscribed earlier: only the person can subscribe again',
  hard_bounce: 'the address bounced: it is on the suppression list',
  soft_bounce: 'the address bounced repeatedly: it is on the suppression list',
  complaint: 'the person marked a newsletter as spam: it is on the suppression list',
  erased: 'the person had their data erased: only the person can subscribe again',
};

interface Decision {
  row: WaitingRow;
  outcome: RowOutcome;
  reason: string | null;
  subscriberId: number | null;
}

/**
 * Applies the next {@link IMPORT_CHUNK} waiting rows of a running job, in one transaction.
 * @returns false when nothing is left to do (the job is done, cancelled or gone).
 */
export async function applyImportChunk(db: Db, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [job] = await tx.query<{ mode: ImportMode; source: string; state: ImportState }>(
      'SELECT mode, source, state FROM subscriber_imports WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!job || job.state !== 'running') return false;
    const waiting = await tx.query<WaitingRow>(
      `SELECT line, email, name, lang, topics, consented_at, consent_source FROM subscriber_import_rows
       WHERE import_id = $1 AND outcome IS NULL ORDER BY line LIMIT ${IMPORT_CHUNK}`,
      [id],
    );
    if (waiting.length === 0) {
      await tx.query(
        `UPDATE subscriber_imports SET state = 'done', finished_at = now(), lease_until = NULL WHERE id = $1`,
        [id],
      );
      return false;
    }
    const decisions = await decide(tx, id, job.mode, job.source, waiting);
    await recordDecisions(tx, id, decisions);
    await tx.query(
      `UPDATE subscriber_imports SET lease_until = now() + make_interval(secs => ${IMPORT_LEASE_SECONDS})
       WHERE id = $1`,
      [id],
    );
    return true;
  });
}

/** Decides each waiting row against the list and the suppression list, and writes the subscribers. */
async function decide(
  tx: Queryable,
  id: number,
  mode: ImportMode,
  source: string,
  waiting: readonly WaitingRow[],
): Promise<Decision[]> {
  const keys = waiting.map((row) => row.email.toLowerCase());
  const existing = new Map(
    (
      await tx.query<ExistingRow>(
        `SELECT id, lower(email) AS key, status, name, topics FROM subscribers
         WHERE lower(email) = ANY($1::text[]) FOR UPDATE`,
        [keys],
      )
    ).map((row) => [row.key, row]),
  );
  const suppressed = new Map(
    (
      await tx.query<{ email_hash: string; reason: SuppressionReason }>(
        'SELECT email_hash, reason FROM mail_suppressions WHERE email_hash = ANY($1::text[])',
        [keys.map(emailHash)],
      )
    ).map((row) => [row.email_hash, row.reason]),
  );
  const decisions: Decision[] = [];
  const fresh: WaitingRow[] = [];
  const changed: Array<{ row: WaitingRow; subscriber: ExistingRow; confirm: boolean }> = [];
  for (const row of waiting) {
    const key = row.email.toLowerCase();
    const reason = suppressed.get(emailHash(key));
    const subscriber = existing.get(key);
    const decision = (outcome: RowOutcome, why: string | null) =>
      decisions.push({ row, outcome, reason: why, subscriberId: subscriber?.id ?? null });
    if (reason) decision('rejected', SUPPRESSED[reason]);
    else if (subscriber?.status === 'bounced') decision('rejected', SUPPRESSED.hard_bounce);
    else if (subscriber?.status === 'complained') decision('rejected', SUPPRESSED.complaint);
    else if (!subscriber) fresh.push(row);
    else {
      const confirm = mode === 'consented' && subscriber.status === 'pending';
      const fills =
        (subscriber.name === null && row.name !== null) ||
        (subscriber.topics.length === 0 && row.topics.length > 0);
      if (confirm || fills) {
        changed.push({ row, subscriber, confirm });
        decision(
          'updated',
          confirm ? 'was waiting for confirmation; confirmed by the consent on record' : null,
        );
      } else
        decision(
          'skipped',
          subscriber.status === 'pending' ? 'already waiting for confirmation' : 'already subscribed',
        );
    }
  }
  await updateExisting(tx, id, source, changed);
  const added = await insertFresh(tx, id, mode, source, fresh);
  for (const row of fresh) {
    const subscriberId = added.get(row.email.toLowerCase());
    decisions.push(
      subscriberId === undefined
        ? { row, outcome: 'skipped', reason: 'already subscribed', subscriberId: null }
        : { row, outcome: 'added', reason: null, subscriberId },
    );
  }
  if (mode === 'confirm' && added.size > 0) {
    await enqueueMail(
      tx,
      fresh.flatMap((row) => {
        const subscriberId = added.get(row.email.toLowerCase());
        return subscriberId === undefined
          ? []
          : [
              {
                key: `newsletter-import:${id}:${subscriberId}`,
                template: 'newsletter-confirm' as const,
                to: row.email,
                subscriberId,
                // The mail says the firm asks, rather than thanking them for a sign-up they never made.
                params: { invited: true },
                paced: true,
              },
            ];
      }),
    );
  }
  return decisions;
}

/** Fills a known subscriber's missing name and topics; with `confirm`, confirms them with the consent on record. */
async function updateExisting(
  tx: Queryable,
  id: number,
  source: string,
  changed: ReadonlyArray<{ row: WaitingRow; subscriber: ExistingRow; confirm: boolean }>,
): Promise<void> {
  if (changed.length === 0) return;
  await tx.query(
    `UPDATE subscribers s SET
       name = coalesce(s.name, c.name),
       topics = CASE WHEN cardinality(s.topics) = 0 THEN c.topics::text[] ELSE s.topics END,
       status = CASE WHEN c.confirm THEN 'confirmed' ELSE s.status END,
       confirmed_at = CASE WHEN c.confirm THEN now() ELSE s.confirmed_at END,
       consented_at = CASE WHEN c.confirm THEN c.consented_at ELSE s.consented_at END,
       consent_mode = CASE WHEN c.confirm THEN 'consented' ELSE s.consent_mode END,
       consent_source = CASE WHEN c.confirm THEN coalesce(c.consent_source, $2) ELSE s.consent_source END,
       import_id = CASE WHEN c.confirm THEN $1 ELSE s.import_id END
     FROM unnest($3::int[], $4::text[], $5::text[], $6::bool[], $7::timestamptz[], $8::text[])
       AS c (id, name, topics, confirm, consented_at, consent_source)
     WHERE s.id = c.id`,
    [
      id,
      source,
      changed.map((c) => c.subscriber.id),
      changed.map((c) => c.row.name),
      changed.map((c) => `{${c.row.topics.join(',')}}`),
      changed.map((c) => c.confirm),
      changed.map((c) => c.row.consented_at),
      changed.map((c) => c.row.consent_source),
    ],
  );
}

/**
 * Adds new addresses: confirmed with their consent on record, or pending with a confirmation mail to come. An
 * address that a sign-up added meanwhile is left to it (the unique index on lower(email)).
 * @returns the new subscribers' ids by lower-cased address.
 */
async function insertFresh(
  tx: Queryable,
  id: number,
  mode: ImportMode,
  source: string,
  fresh: readonly WaitingRow[],
): Promise<Map<string, number>> {
  if (fresh.length === 0) return new Map();
  const consented = mode === 'consented';
  const rows = await tx.query<{ id: number; key: string }>(
    `INSERT INTO subscribers (email, status, lang, name, topics, consented_at, confirmed_at, confirmation_sent_at,
       consent_mode, consent_source, import_id)
     SELECT f.email, $2, f.lang, f.name, f.topics::text[], f.consented_at,
       CASE WHEN $2 = 'confirmed' THEN now() END, CASE WHEN $2 = 'pending' THEN now() END, $3,
       coalesce(f.consent_source, $4), $1
     FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[])
       AS f (email, lang, name, topics, consented_at, consent_source)
     ON CONFLICT ((lower(email))) DO NOTHING RETURNING id, lower(email) AS key`,
    [
      id,
      consented ? 'confirmed' : 'pending',
      mode,
      source,
      fresh.map((r) => r.email),
      fresh.map((r) => r.lang),
      fresh.map((r) => r.name),
      fresh.map((r) => `{${r.topics.join(',')}}`),
      fresh.map((r) => r.consented_at),
      fresh.map((r) => r.consent_source),
    ],
  );
  return new Map(rows.map((row) => [row.key, row.id]));
}

/** Writes the chunk's outcomes onto its rows and adds them to the job's counters. */
async function recordDecisions(tx: Queryable, id: number, decisions: readonly Decision[]): Promise<void> {
  await tx.query(
    `UPDATE subscriber_import_rows r SET outcome = d.outcome, reason = d.reason, subscriber_id = d.subscriber_id
     FROM unnest($2::int[], $3::text[], $4::text[], $5::int[]) AS d (line, outcome, reason, subscriber_id)
     WHERE r.import_id = $1 AND r.line = d.line`,
    [
      id,
      decisions.map((d) => d.row.line),
      decisions.map((d) => d.outcome),
      decisions.map((d) => d.reason),
      decisions.map((d) => d.subscriberId),
    ],
  );
  const count = (outcome: RowOutcome) => decisions.filter((d) => d.outcome === outcome).length;
  await tx.query(
    `UPDATE subscriber_imports SET processed = processed + $2, added = added + $3, updated = updated + $4,
       skipped = skipped + $5, rejected = rejected + $6
     WHERE id = $1`,
    [id, decisions.length, count('added'), count('updated'), count('skipped'), count('rejected')],
  );
}

/**
 * Cancels a running job: rows not yet applied stay unapplied, and its confirmation mails that have not gone out
 * are cancelled (those addresses stay pending and lapse like any unconfirmed sign-up).
 * @returns false when the job is not running (done, cancelled already, or unknown).
 */
export async function cancelImport(db: Db, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE subscriber_imports SET state = 'cancelled', finished_at = now(), lease_until = NULL
       WHERE id = $1 AND state = 'running' RETURNING id`,
      [id],
    );
    if (rows.length === 0) return false;
    await tx.query(
      `UPDATE outbox SET status = 'cancelled', last_error = 'the import was cancelled'
       WHERE idempotency_key LIKE $1 AND status = 'pending'`,
      [`newsletter-import:${id}:%`],
    );
    return true;
  });
}
