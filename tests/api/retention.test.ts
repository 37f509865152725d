/**
 * The retention periods the privacy policy states, as the scheduled worker applies them: each row just
 * past its period goes, each row just inside it stays.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyRetention, RETENTION } from '../../src/server/retention.ts';
import { startApi, type Api } from './support/harness.ts';

let api: Api;

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

const ago = (interval: string) => `now() - interval '${interval}'`;

async function exists(table: string, where: string, params: unknown[] = []): Promise<boolean> {
  return (await api.db.query(`SELECT 1 FROM ${table} WHERE ${where}`, params)).length > 0;
}

describe('applyRetention', () => {
  test(`deletes sign-ups still unconfirmed after ${RETENTION.pendingSignUpDays} days, keeps younger and confirmed ones`, async () => {
    await api.db.query(
      `INSERT INTO subscribers (email, status, consented_at, created_at) VALUES
         ('old.pending@reader.example', 'pending', ${ago('7 days 1 minute')}, ${ago('7 days 1 minute')}),
         ('new.pending@reader.example', 'pending', ${ago('6 days 23 hours')}, ${ago('6 days 23 hours')}),
         ('old.confirmed@reader.example', 'confirmed', ${ago('400 days')}, ${ago('400 days')})`,
    );
    const report = await applyRetention(api.db);
    expect(report.pendingSignUps).toBe(1);
    expect(await exists('subscribers', `email = 'old.pending@reader.example'`)).toBe(false);
    expect(await exists('subscribers', `email = 'new.pending@reader.example'`)).toBe(true);
    expect(await exists('subscribers', `email = 'old.confirmed@reader.example'`)).toBe(true);
  });

  test('counts an unconfirmed address’s days from its last confirmation mail, which an import sends at the send rate', async () => {
    const [queued, late, expired] = await api.db.query<{ id: number }>(
      `INSERT INTO subscribers (email, status, consent_mode, created_at, confirmation_sent_at) VALUES
         ('queued@import.example', 'pending', 'confirm', ${ago('8 days')}, ${ago('8 days')}),
         ('late@import.example', 'pending', 'confirm', ${ago('8 days')}, ${ago('8 days')}),
         ('expired@import.example', 'pending', 'confirm', ${ago('9 days')}, ${ago('9 days')})
       RETURNING id`,
    );
    // Still waiting for its turn; sent six days ago (its link works one more day); sent eight days ago.
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id, status, created_at, sent_at) VALUES
         ('c:queued', 'newsletter-confirm', 'queued@import.example', $1, 'pending', ${ago('8 days')}, NULL),
         ('c:late', 'newsletter-confirm', 'late@import.example', $2, 'sent', ${ago('8 days')}, ${ago('6 days')}),
         ('c:expired', 'newsletter-confirm', 'expired@import.example', $3, 'sent', ${ago('9 days')}, ${ago('8 days')})`,
      [queued!.id, late!.id, expired!.id],
    );
    await applyRetention(api.db);
    expect(await exists('subscribers', `email = 'queued@import.example'`)).toBe(true);
    expect(await exists('subscribers', `email = 'late@import.example'`)).toBe(true);
    expect(await exists('subscribers', `email = 'expired@import.example'`)).toBe(false);
  });

  test(`empties mail of its personal data after ${RETENTION.mailPersonalDataDays} days and deletes the empty rows after ${RETENTION.mailRecordDays}`, async () => {
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, params, status, created_at) VALUES
         ('r:old', 'contact-ack', 'old@plant.example', '{"note":"x"}', 'sent', ${ago('30 days 1 minute')}),
         ('r:new', 'contact-ack', 'new@plant.example', '{"note":"x"}', 'sent', ${ago('29 days 23 hours')}),
         ('r:waiting', 'contact-ack', 'wait@plant.example', '{}', 'pending', ${ago('31 days')})`,
    );
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, status, created_at, purged_at)
       VALUES ('r:ancient', 'contact-ack', NULL, 'sent', ${ago('401 days')}, ${ago('371 days')})`,
    );
    await applyRetention(api.db);
    const rows = await api.db.query<{ idempotency_key: string; recipient: string | null; params: unknown }>(
      `SELECT idempotency_key, recipient, params FROM outbox WHERE idempotency_key LIKE 'r:%' ORDER BY idempotency_key`,
    );
    expect(rows).toEqual([
      { idempotency_key: 'r:new', recipient: 'new@plant.example', params: { note: 'x' } },
      { idempotency_key: 'r:old', recipient: null, params: {} },
      { idempotency_key: 'r:waiting', recipient: 'wait@plant.example', params: {} },
    ]);
  });

  test(`deletes contact messages ${RETENTION.contactMonths} months after they were closed (or arrived), meetings ${RETENTION.meetingMonths} months after the date`, async () => {
    const insert = (
      name: string,
      kind: string,
      created: string,
      handled: string | null,
      meeting: string | null,
    ) =>
      api.db.query(
        `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version, created_at, handled_at,
           meeting_start, meeting_status)
         VALUES ($1, $2, 'keep@plant.example', 'Subject', CASE WHEN $1 = 'contact' THEN 'Message' END,
           'privacy-2026-11', ${created}, ${handled ?? 'NULL'}, ${meeting ?? 'NULL'},
           CASE WHEN $1 = 'meeting' THEN 'confirmed' END)`,
        [kind, name],
      );
    await insert('closed long ago', 'contact', ago('30 months'), ago('24 months 1 day'), null);
    await insert('closed recently', 'contact', ago('30 months'), ago('23 months'), null);
    await insert('never closed, old', 'contact', ago('24 months 1 day'), null, null);
    await insert('never closed, young', 'contact', ago('23 months'), null, null);
    await insert('meeting long past', 'meeting', ago('13 months'), null, ago('12 months 1 day'));
    await insert('meeting within the year', 'meeting', ago('13 months'), null, ago('11 months'));
    const report = await applyRetention(api.db);
    expect(report.inquiries).toBe(3);
    const left = await api.db.query<{ full_name: string }>(
      'SELECT full_name FROM inquiries ORDER BY full_name',
    );
    expect(left.map((r) => r.full_name)).toEqual([
      'closed recently',
      'meeting within the year',
      'never closed, young',
    ]);
  });

  test(`prunes rate-limit keys idle for more than ${RETENTION.rateLimitHours} hours`, async () => {
    await api.db.query(
      `INSERT INTO rate_limits (scope, key, hits, last_hit_at) VALUES
         ('signup-ip', 'old', ARRAY[${ago('25 hours')}], ${ago('25 hours')}),
         ('signup-ip', 'new', ARRAY[${ago('23 hours')}], ${ago('23 hours')})`,
    );
    await applyRetention(api.db);
    const keys = await api.db.query<{ key: string }>(`SELECT key FROM rate_limits WHERE scope = 'signup-ip'`);
    expect(keys.map((k) => k.key)).toEqual(['new']);
  });
});

describe('the team’s records', () => {
  test('the privacy policy states the periods applied here', () => {
    const policy = readFileSync('src/content/legal/privacy-policy.mdx', 'utf8');
    expect(policy).toContain(`we delete each one after **${RETENTION.activityLogDays} days**`);
    expect(policy).toContain(`**${RETENTION.accountRecordDays} day after it ended**`);
  });

  test(`deletes activity log entries after ${RETENTION.activityLogDays} days and keeps younger ones`, async () => {
    // The log refuses to lose young rows, so old ones are written as old.
    await api.db.query(
      `INSERT INTO activity_log (at, action, target) VALUES
         (${ago('400 days 1 minute')}, 'auth.sign_in', 'retention-old'),
         (${ago('399 days 23 hours')}, 'auth.sign_in', 'retention-young')`,
    );
    const report = await applyRetention(api.db);
    expect(report.activityEntries).toBe(1);
    expect(await exists('activity_log', `target = 'retention-old'`)).toBe(false);
    expect(await exists('activity_log', `target = 'retention-young'`)).toBe(true);
  });

  test(`deletes sessions, tickets and links ${RETENTION.accountRecordDays} day after they ended`, async () => {
    await api.createAdmin('retained@korvel.example', 'a retention passphrase');
    const [{ id }] = (await api.db.query<{ id: number }>(
      `SELECT id FROM admins WHERE email = 'retained@korvel.example'`,
    )) as [{ id: number }];
    await api.db.query(
      `INSERT INTO admin_sessions (id, admin_id, level, created_at, last_seen_at, expires_at) VALUES
         ('00000000-0000-4000-8000-000000000001', $1, 'full', ${ago('2 days')}, ${ago('2 days')}, ${ago('1 day 16 hours')}),
         ('00000000-0000-4000-8000-000000000002', $1, 'full', ${ago('1 hour')}, ${ago('1 minute')}, now() + interval '7 hours')`,
      [id],
    );
    await api.db.query(
      `INSERT INTO admin_links (admin_id, purpose, token_hash, created_at, expires_at, used_at) VALUES
         ($1, 'reset', repeat('a', 64), ${ago('3 days')}, ${ago('3 days')} + interval '30 minutes', ${ago('3 days')}),
         ($1, 'invite', repeat('b', 64), ${ago('1 hour')}, now() + interval '71 hours', NULL)`,
      [id],
    );
    await applyRetention(api.db);
    expect(await exists('admin_sessions', `id = '00000000-0000-4000-8000-000000000001'`)).toBe(false);
    expect(await exists('admin_sessions', `id = '00000000-0000-4000-8000-000000000002'`)).toBe(true);
    expect(await exists('admin_links', `token_hash = repeat('a', 64)`)).toBe(false);
    expect(await exists('admin_links', `token_hash = repeat('b', 64)`)).toBe(true);
  });
});
