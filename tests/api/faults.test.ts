/**
 * The short version of the soak's faults (`npm run bench:soak`, issue 35): the database refusing for a while,
 * SMTP dropping mid-campaign, and the database going away while a sent batch waits to be recorded or while the
 * next batch is claimed ahead. Each test reads what reached the database and, by Message-ID, what reached the
 * SMTP catcher: nothing lost, nothing twice. A worker killed mid-send is campaigns.test.ts's "a worker that
 * dies mid-batch …" here and a real SIGKILL in the soak.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { useDatabase } from '../../src/server/config.ts';
import { DbUnavailableError, type Db, type Tx } from '../../src/server/db/index.ts';
import { mailSettings } from '../../src/server/mail/settings.ts';
import { messageIdFor, processOutbox } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import { runWorker, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'faults@korvel.example', password: 'a fault-finding passphrase' };
let api: Api;
let mail: TestMail;
let token: string;
/** Called for every recipient the catcher is offered: where a test drops SMTP, or refuses one (a reply code). */
let onRecipient: ((recipient: string) => number | void) | undefined;

useMailApi(
  ADMIN,
  { keep: 0, refuse: (recipient) => onRecipient?.(recipient) ?? undefined },
  (started) => ({ api, mail, token } = started),
);
beforeEach(async () => {
  for (const table of ['outbox', 'campaigns', 'subscribers', 'inquiries', 'rate_limits'])
    await api.db.query(`DELETE FROM ${table}`);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  onRecipient = undefined;
  useDatabase(api.db);
  vi.restoreAllMocks();
  delete process.env.MAIL_RATE_PER_MINUTE;
});

/**
 * How long a test's outage lasts: counted in refused statements, never timed, so it ends at the same point on a
 * slow machine as on a fast one.
 */
interface Outage {
  /** How many statements are refused in all, the first included (Infinity: until the test stops using it). */
  refusals: number;
  /** The statements the outage refuses once it has begun (all, unless given). */
  refuses?: (sql: string) => boolean;
}

/**
 * `db` as seen through a connection that is refused from the first statement `startsAt` matches, as the pg
 * adapter reports ECONNREFUSED, for the statements and count `outage` names. A transaction cut off this way is
 * rolled back, as the server rolls back one whose connection dropped.
 */
function refusingFrom(db: Db, startsAt: (sql: string) => boolean, outage: Outage): Db {
  let begun = false;
  let refused = 0;
  const check = (sql: string) => {
    begun ||= startsAt(sql);
    if (!begun || refused >= outage.refusals || !(outage.refuses ?? (() => true))(sql)) return;
    refused += 1;
    throw new DbUnavailableError('connect ECONNREFUSED 127.0.0.1:5432');
  };
  const through = (tx: Tx): Tx => ({
    query: async (sql, params) => (check(sql), tx.query(sql, params)),
    exec: async (sql) => (check(sql), tx.exec(sql)),
  });
  return {
    kind: db.kind,
    query: async (sql, params) => (check(sql), db.query(sql, params)),
    transaction: async (fn) => (check('BEGIN'), db.transaction((tx) => fn(through(tx)))),
    close: () => db.close(),
  };
}

/** The Message-IDs of the outbox rows, as the worker sends them. */
async function expectedMessageIds(where = 'true'): Promise<string[]> {
  const rows = await api.db.query<{ key: string }>(
    `SELECT idempotency_key AS key FROM outbox WHERE ${where}`,
  );
  return rows.map((row) => messageIdFor(row.key, mailSettings().from)).sort();
}

/** `count` confirmed subscribers `<name><n>@list.example`, each with a welcome mail waiting in the outbox. */
async function welcomeMails(name: string, count: number): Promise<void> {
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT $1::text || n || '@list.example', 'confirmed', now(), now() FROM generate_series(1, $2::int) AS n`,
    [name, count],
  );
  await api.db.query(
    `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id)
     SELECT $1::text || '-welcome.' || id, 'newsletter-welcome', email, id FROM subscribers`,
    [name],
  );
}

/** Every Message-ID that arrived, once per arrival. */
const arrivals = () =>
  [...mail.catcher.deliveries()].flatMap(([id, times]) => Array<string>(times).fill(id)).sort();

const contact = (ip: string) =>
  api.call('POST', '/api/contact', {
    ip,
    json: {
      fullName: 'Jelena Petrović',
      company: 'Sava Vaccines',
      email: 'jelena@sava.example',
      subject: 'Clean utilities for a fill-finish line',
      message: 'We plan WFI and pure steam for a new line. Could we talk in December?',
      privacy: true,
      fillMs: 7000,
      source: '/contact',
    },
  });

describe('faults', () => {
  test('a database refusing mid-transaction: 503 with Retry-After, nothing half-written, and the retry is stored once', async () => {
    // The inquiry's row is written, then the connection goes before its mails are queued.
    useDatabase(refusingFrom(api.db, (sql) => sql.includes('INSERT INTO outbox'), { refusals: Infinity }));
    const refused = await contact('203.0.113.10');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await api.db.query('SELECT id FROM inquiries')).toHaveLength(0);
    expect(await api.db.query('SELECT id FROM outbox')).toHaveLength(0);

    // The database is back: the visitor's retry goes through.
    useDatabase(api.db);
    expect((await contact('203.0.113.10')).status).toBe(201);
    await api.settle();
    await runWorker(api.db);
    expect(await api.db.query('SELECT id FROM inquiries')).toHaveLength(1);
    expect(arrivals()).toEqual(await expectedMessageIds());
    expect(arrivals()).toHaveLength(2);
  });

  test('SMTP dropping mid-campaign: every copy arrives once when it is back', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '10000';
    await api.db.query(
      `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
       SELECT 'drop' || n || '@list.example', 'confirmed', now(), now() FROM generate_series(1, 80) AS n`,
    );
    const draft = await api.call('POST', '/api/campaigns', {
      token,
      json: { subject: 'Steam quality, measured', markdown: 'Dryness, superheat and NCG, in one page.' },
    });
    let offered = 0;
    let restarted: Promise<void> | undefined;
    onRecipient = () => {
      offered += 1;
      if (offered === 30) restarted = mail.catcher.stopSmtp().then(() => mail.catcher.startSmtp());
    };
    expect((await api.call('POST', `/api/campaigns/${draft.body.id}/send`, { token })).status).toBe(202);
    await api.settle();
    for (let run = 0; run < 5; run += 1) await runWorker(api.db);
    await restarted;
    for (let run = 0; run < 5; run += 1) await runWorker(api.db);

    expect(offered).toBeGreaterThan(30);
    expect(arrivals()).toEqual(await expectedMessageIds(`template = 'campaign'`));
    expect(arrivals()).toHaveLength(80);
    const [{ status }] = (await api.db.query<{ status: string }>('SELECT status FROM campaigns')) as [
      { status: string },
    ];
    expect(status).toBe('sent');
  });

  test('a database refusing while a sent batch is recorded: the worker records it once it is back, nobody gets a second copy', async () => {
    await welcomeMails('kept', 6);
    const recording = (sql: string) => sql.trimStart().startsWith('UPDATE outbox o SET status = r.status');
    // Its first two attempts are refused; the worker tries again until the third is taken. Only the record is
    // refused: the claim made meanwhile meeting the outage is the next test.
    const refusing = refusingFrom(api.db, recording, { refusals: 2, refuses: recording });
    const report = await processOutbox(refusing, { batchSize: 6 });
    expect(report).toMatchObject({ sent: 6 });
    // Were the batch still leased, the next worker would take it over once the lease ran out and send it again.
    await api.db.query(
      `UPDATE outbox SET lease_until = now() - interval '1 second' WHERE status = 'sending'`,
    );
    await runWorker(api.db);
    expect(arrivals()).toEqual(await expectedMessageIds());
    expect(arrivals()).toHaveLength(6);
  });

  test('a record the database rejects outright ends the run with that error while the batch’s last mails are still out', async () => {
    await welcomeMails('rejected', 6);
    // The record is rejected (not an outage the worker waits out) once the last address is offered: its mail's
    // outcome then comes after the failure. A recorder that took it again would spin forever on a settled promise.
    let lastOffered: () => void = () => undefined;
    const offeredAll = new Promise<void>((resolve) => (lastOffered = resolve));
    onRecipient = (recipient) => (recipient === 'rejected6@list.example' ? lastOffered() : undefined);
    const recording = (sql: string) => sql.trimStart().startsWith('UPDATE outbox o SET status = r.status');
    const rejecting: Db = {
      ...api.db,
      query: async (sql, params) => {
        if (!recording(sql)) return api.db.query(sql, params);
        await offeredAll;
        throw new Error('canceling statement due to statement timeout');
      },
    };
    await expect(processOutbox(rejecting, { batchSize: 6 })).rejects.toThrow('statement timeout');
    expect(arrivals()).toHaveLength(6);
  });

  test('a database refusing once while a send-time hard bounce is applied: the address still goes on the suppression list', async () => {
    await welcomeMails('blip', 1);
    onRecipient = (recipient) => (recipient === 'blip1@list.example' ? 550 : undefined);
    const event = (sql: string) => sql.includes('INSERT INTO mail_events');
    const report = await processOutbox(refusingFrom(api.db, event, { refusals: 1 }), { batchSize: 6 });
    expect(report).toMatchObject({ sent: 0, failed: 1 });
    // The row is `failed` already, so nothing would apply the bounce later: the worker waits the outage out.
    const suppressed = await api.db.query<{ reason: string }>(
      'SELECT reason FROM mail_suppressions WHERE email = $1',
      ['blip1@list.example'],
    );
    expect(suppressed).toEqual([{ reason: 'hard_bounce' }]);
    const [subscriber] = await api.db.query<{ status: string }>('SELECT status FROM subscribers');
    expect(subscriber?.status).toBe('bounced');
  });

  test('a database refusing the claim made ahead while a batch is out: the batch is recorded, the error is the run’s, never an unhandled rejection', async () => {
    await welcomeMails('ahead', 12);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The second claim is the one made while the first batch is sent; the statement after it (the first batch's
      // record, when it comes later) meets the outage too.
      let claims = 0;
      const claim = (sql: string) => sql.trimStart().startsWith('UPDATE outbox SET') && (claims += 1) === 2;
      await expect(
        processOutbox(refusingFrom(api.db, claim, { refusals: 2 }), { batchSize: 6 }),
      ).rejects.toThrow(DbUnavailableError);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    const byStatus = await api.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM outbox GROUP BY status ORDER BY status',
    );
    expect(byStatus).toEqual([
      { status: 'pending', n: 6 },
      { status: 'sent', n: 6 },
    ]);
    await runWorker(api.db);
    expect(arrivals()).toEqual(await expectedMessageIds());
    expect(arrivals()).toHaveLength(12);
  });

  test('a failed claim made ahead still lets the previous batch’s hard bounce reach the suppression list before the run ends', async () => {
    await welcomeMails('bounce', 12);
    onRecipient = (recipient) => (recipient === 'bounce1@list.example' ? 550 : undefined);
    // The second claim is made while the first batch (the refused address alone) is sent; it alone is refused.
    let claims = 0;
    const claim = (sql: string) =>
      sql.trimStart().startsWith('UPDATE outbox SET') && sql.includes('WHERE id IN') && (claims += 1) === 2;
    const refusing = refusingFrom(api.db, claim, { refusals: 1 });
    // The suppression takes a while to write, so a run that did not wait for it would end first.
    let suppressedAt = Infinity;
    const slowSuppression = (tx: Tx): Tx => ({
      query: async (sql, params) => {
        if (!sql.includes('INSERT INTO mail_suppressions')) return tx.query(sql, params);
        await new Promise((resolve) => setTimeout(resolve, 300));
        try {
          return await tx.query(sql, params);
        } finally {
          suppressedAt = Date.now();
        }
      },
      exec: (sql) => tx.exec(sql),
    });
    const db: Db = {
      ...refusing,
      transaction: (fn) => refusing.transaction((tx) => fn(slowSuppression(tx))),
    };
    await expect(processOutbox(db, { batchSize: 1 })).rejects.toThrow(DbUnavailableError);
    // A function's process may end with its reply: a bounce still on its way then would be lost.
    expect(suppressedAt).toBeLessThanOrEqual(Date.now());
    const suppressed = await api.db.query<{ reason: string }>(
      'SELECT reason FROM mail_suppressions WHERE email = $1',
      ['bounce1@list.example'],
    );
    expect(suppressed).toEqual([{ reason: 'hard_bounce' }]);
  });
});
