/**
 * Bounces and complaints over real SMTP and a real database: an issue sent to a list where the catcher refuses
 * some addresses (550 5.1.1, 452 4.2.2), what a later event does through applyMailEvent (matched by VERP token,
 * Message-ID or address; applied once; unknown mail changes nothing), the soft-bounce threshold, and what a
 * suppressed address still receives.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import type { MailEvent } from '../../src/server/mail/events.ts';
import { emailHash } from '../../src/server/mail/hash.ts';
import { verpToken } from '../../src/server/mail/links.ts';
import { applyMailEvent } from '../../src/server/mail/suppression.ts';
import { messageIdFor } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import { dueNow, mailTo, runWorker, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'owner@korvel.example', password: 'deliverability owner passphrase' };
const GONE = 'gone@list.example';
const FULL = 'full@list.example';
const FROM = 'Korvel Engineering <no-reply@korvel.example>';
let api: Api;
let mail: TestMail;
let token: string;
let ip = 1;

useMailApi(
  ADMIN,
  { refuse: (rcpt) => ({ [GONE]: 550, [FULL]: 452 })[rcpt] },
  (started) => ({ api, mail, token } = started),
);

beforeEach(async () => {
  for (const table of ['mail_events', 'outbox', 'campaigns', 'subscribers', 'mail_suppressions', 'inquiries'])
    await api.db.query(`DELETE FROM ${table}`);
});

const ISSUE = { subject: 'Cleanroom pressure cascades', markdown: 'Three cascades we keep redrawing.' };

/** Confirmed subscribers straight into the table. */
async function addSubscribers(emails: readonly string[]): Promise<void> {
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
    [emails],
  );
}

/** Writes and sends an issue, then runs the worker until nothing is due; returns the campaign id. */
async function sendIssue(subject = ISSUE.subject): Promise<number> {
  const created = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, subject } });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  expect((await api.call('POST', `/api/campaigns/${id}/send`, { token })).status).toBe(202);
  await api.settle();
  await runWorker(api.db);
  return id;
}

const statusOf = async (email: string) =>
  (
    await api.db.query<{ status: string }>('SELECT status FROM subscribers WHERE lower(email) = lower($1)', [
      email,
    ])
  )[0]?.status;

const suppressionOf = async (email: string) =>
  (
    await api.db.query<{ reason: string; source: string; email: string | null; detail: string | null }>(
      'SELECT reason, source, email, detail FROM mail_suppressions WHERE email_hash = $1',
      [emailHash(email)],
    )
  )[0];

/** Everything applyMailEvent may change, to show that an event changed nothing. */
const snapshot = async () =>
  JSON.stringify(
    await Promise.all(
      ['mail_events', 'mail_suppressions', 'subscribers', 'activity_log'].map((table) =>
        api.db.query(`SELECT * FROM ${table} ORDER BY 1`),
      ),
    ),
  );

/** The outbox row of the issue copy to `email`. */
async function copyTo(email: string): Promise<{ id: number; key: string; status: string; attempts: number }> {
  const [row] = await api.db.query<{ id: number; key: string; status: string; attempts: number }>(
    `SELECT id, idempotency_key AS key, status, attempts FROM outbox
     WHERE template = 'campaign' AND recipient = $1 ORDER BY id DESC LIMIT 1`,
    [email],
  );
  return row!;
}

const event = (overrides: Partial<MailEvent>): MailEvent => ({
  source: 'postmark',
  kind: 'hard_bounce',
  eventId: `event-${Math.random()}`,
  at: new Date(),
  ...overrides,
});

describe('an issue sent to a list with refused addresses', () => {
  test('suppresses a 550 5.1.1 at once, retries a 452 4.2.2, and the next issue leaves the bounced address out', async () => {
    await addSubscribers(['ana@list.example', GONE, FULL, 'bo@list.example']);
    const first = await sendIssue();
    expect(mailTo(mail.catcher, 'ana@list.example')).toHaveLength(1);
    expect(mailTo(mail.catcher, GONE)).toHaveLength(0);

    // The hard bounce: failed after one attempt, never retried; the address suppressed with reason and source.
    expect(await copyTo(GONE)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await statusOf(GONE)).toBe('bounced');
    expect(await suppressionOf(GONE)).toMatchObject({ reason: 'hard_bounce', source: 'smtp', email: GONE });
    expect((await suppressionOf(GONE))!.detail).toBe(
      '550 5.1.1 <(recipient)>: no such user here (refused by the local catcher)',
    );
    // The soft bounce: waiting for its retry, the subscriber still confirmed, nobody suppressed.
    expect(await copyTo(FULL)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await statusOf(FULL)).toBe('confirmed');
    expect(await suppressionOf(FULL)).toBeUndefined();
    const events = await api.db.query<{ kind: string; source: string; campaign_id: number; status: string }>(
      'SELECT kind, source, campaign_id, status FROM mail_events ORDER BY id',
    );
    expect(events).toEqual([
      { kind: 'hard_bounce', source: 'smtp', campaign_id: first, status: '5.1.1' },
      { kind: 'soft_bounce', source: 'smtp', campaign_id: first, status: '4.2.2' },
    ]);
    const log = await api.db.query<{ action: string; target: string }>(
      `SELECT action, target FROM activity_log WHERE action LIKE 'suppression.%'`,
    );
    expect(log).toHaveLength(1);
    expect(log[0]!.target).toMatch(/^suppression \d+: hard_bounce from smtp, subscriber \d+$/);

    // Every copy to a refused address went out with a return path of its own (VERP).
    const copy = mailTo(mail.catcher, 'ana@list.example')[0]!;
    const row = await copyTo('ana@list.example');
    expect(copy.envelope.from).toBe(`bounces+${verpToken(row.id)}@korvel.example`);
    expect(copy.envelope.from).not.toContain('ana');

    mail.catcher.clear();
    await sendIssue('A second issue');
    const second = mail.catcher.messages().filter((m) => m.subject === 'A second issue');
    expect(second.flatMap((m) => m.envelope.to).sort()).toEqual(['ana@list.example', 'bo@list.example']);
    const queued = await api.db.query('SELECT 1 FROM outbox WHERE recipient = $1 AND campaign_id <> $2', [
      GONE,
      first,
    ]);
    expect(queued).toHaveLength(0);
  });

  test('the 452 copy is retried as before, and a third soft-bouncing issue suppresses the address', async () => {
    await addSubscribers([FULL]);
    for (const subject of ['Soft one', 'Soft two']) await sendIssue(subject);
    expect(await suppressionOf(FULL)).toBeUndefined();
    // Retries of one copy count once: three more attempts at the same two copies change nothing.
    for (let i = 0; i < 3; i += 1) {
      await dueNow(api.db);
      await runWorker(api.db);
    }
    expect(await suppressionOf(FULL)).toBeUndefined();
    await sendIssue('Soft three');
    expect(await suppressionOf(FULL)).toMatchObject({ reason: 'soft_bounce', source: 'smtp' });
    expect(await statusOf(FULL)).toBe('bounced');
    // Its copies still waiting for a retry are cancelled with the suppression.
    const waiting = await api.db.query(`SELECT 1 FROM outbox WHERE recipient = $1 AND status = 'pending'`, [
      FULL,
    ]);
    expect(waiting).toHaveLength(0);
  });
});

describe('applyMailEvent', () => {
  test('maps an event by Message-ID, applies it once, and a complaint outranks the bounce', async () => {
    await addSubscribers(['carla@list.example']);
    await sendIssue();
    const row = await copyTo('carla@list.example');
    expect(row.status).toBe('sent');
    const bounce = event({ eventId: 'pm-1', messageId: messageIdFor(row.key, FROM), status: '5.1.1' });
    expect(await applyMailEvent(api.db, bounce)).toBe('applied');
    const after = await snapshot();
    expect(await applyMailEvent(api.db, bounce)).toBe('duplicate');
    expect(await snapshot()).toBe(after);
    expect(await statusOf('carla@list.example')).toBe('bounced');

    const complaint = event({ eventId: 'pm-2', kind: 'complaint', messageId: messageIdFor(row.key, FROM) });
    expect(await applyMailEvent(api.db, complaint)).toBe('applied');
    expect(await statusOf('carla@list.example')).toBe('complained');
    expect(await suppressionOf('carla@list.example')).toMatchObject({
      reason: 'complaint',
      source: 'postmark',
    });
    // The same event id from another source is another event.
    expect(await applyMailEvent(api.db, { ...complaint, source: 'mailgun' })).toBe('applied');
    expect(await statusOf('carla@list.example')).toBe('complained');
  });

  test('maps an event by VERP token; a forged token, a foreign Message-ID or an unknown address changes nothing', async () => {
    await addSubscribers(['dora@list.example']);
    await sendIssue();
    const row = await copyTo('dora@list.example');
    const before = await snapshot();
    const forged = `${row.id.toString(36)}-${'0'.repeat(20)}`;
    for (const unknown of [
      event({ returnPathToken: forged }),
      event({ messageId: `<${row.key.replaceAll(':', '.')}@elsewhere.example>` }),
      event({ messageId: '<0102018c-aaaa@email.amazonses.com>', recipient: 'stranger@else.example' }),
      event({ recipient: 'not an address' }),
      event({ eventId: '   ', recipient: 'dora@list.example' }),
    ])
      expect(await applyMailEvent(api.db, unknown)).toBe('unknown');
    expect(await snapshot()).toBe(before);

    expect(await applyMailEvent(api.db, event({ source: 'dsn', returnPathToken: verpToken(row.id) }))).toBe(
      'applied',
    );
    const [recorded] = await api.db.query<{ outbox_id: number }>('SELECT outbox_id FROM mail_events');
    expect(recorded!.outbox_id).toBe(row.id);
    expect(await suppressionOf('dora@list.example')).toMatchObject({ reason: 'hard_bounce', source: 'dsn' });
  });

  test('maps an event by the address as a last resort, to the latest mail or else the subscriber', async () => {
    await addSubscribers(['eva@list.example']);
    expect(await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'EVA@list.example' }))).toBe(
      'applied',
    );
    expect(await statusOf('eva@list.example')).toBe('complained');
  });

  test('three soft bounces of different mails suppress; a delivery between them starts the count again', async () => {
    await addSubscribers(['fay@list.example']);
    const soft = async (subject: string) => {
      await sendIssue(subject);
      const row = await copyTo('fay@list.example');
      return applyMailEvent(
        api.db,
        event({ kind: 'soft_bounce', source: 'ses', returnPathToken: verpToken(row.id), status: '4.2.2' }),
      );
    };
    expect(await soft('One')).toBe('applied');
    expect(await soft('Two')).toBe('applied');
    // A third issue is delivered (no report about it): the count starts again after it.
    await sendIssue('Delivered');
    expect(await soft('Three')).toBe('applied');
    expect(await soft('Four')).toBe('applied');
    expect(await suppressionOf('fay@list.example')).toBeUndefined();
    expect(await soft('Five')).toBe('applied');
    expect(await suppressionOf('fay@list.example')).toMatchObject({ reason: 'soft_bounce', source: 'ses' });
    expect(await statusOf('fay@list.example')).toBe('bounced');
  });
});

describe('a suppressed address', () => {
  const contact = (email: string) =>
    api.call('POST', '/api/contact', {
      ip: `203.0.113.${ip++}`,
      json: {
        fullName: 'Gita Rao',
        email,
        subject: 'Clean steam generator sizing',
        message: 'Can you size a clean steam generator for us?',
        privacy: true,
        fillMs: 9000,
        source: '/contact',
      },
    });

  test('gets no acknowledgement of a contact message, while the firm is still told', async () => {
    await addSubscribers(['gita@plant.example']);
    await applyMailEvent(api.db, event({ recipient: 'gita@plant.example' }));
    expect((await contact('gita@plant.example')).status).toBe(201);
    await api.settle();
    expect(mailTo(mail.catcher, 'gita@plant.example')).toHaveLength(0);
    expect(mail.catcher.messages().map((m) => m.subject)).toEqual([
      'Inquiry: Clean steam generator sizing (Gita Rao)',
    ]);
    const [ack] = await api.db.query<{ status: string; last_error: string }>(
      `SELECT status, last_error FROM outbox WHERE template = 'contact-ack'`,
    );
    expect(ack).toEqual({ status: 'cancelled', last_error: 'the address is suppressed: it bounced' });
  });

  test('gets no test copy of an issue', async () => {
    // The signed-in admin's own address, where test copies go, complained once.
    await addSubscribers([ADMIN.email]);
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: ADMIN.email }));
    const created = await api.call('POST', '/api/campaigns', { token, json: ISSUE });
    expect((await api.call('POST', `/api/campaigns/${created.body.id}/test`, { token })).status).toBe(202);
    await api.settle();
    await runWorker(api.db);
    expect(mailTo(mail.catcher, ADMIN.email)).toHaveLength(0);
    const [copy] = await api.db.query<{ status: string }>(
      `SELECT status FROM outbox WHERE template = 'campaign-test'`,
    );
    expect(copy!.status).toBe('cancelled');
  });

  test('signing up again brings a confirmation mail, and only confirming lifts a complaint (logged)', async () => {
    await addSubscribers(['ines@reader.example']);
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'ines@reader.example' }));
    const signUp = await api.call('POST', '/api/newsletter', {
      ip: `192.0.2.${ip++}`,
      json: { email: 'ines@reader.example', consent: true, source: '/blog/gmp' },
    });
    expect(signUp.status).toBe(202);
    await api.settle();
    const [confirmation] = mailTo(mail.catcher, 'ines@reader.example');
    expect(confirmation?.subject).toBe('Confirm your subscription to the Korvel newsletter');
    expect(await statusOf('ines@reader.example')).toBe('pending');
    expect(await suppressionOf('ines@reader.example')).toMatchObject({ reason: 'complaint' });

    const link = /https:\/\/site\.korvel\.test(\/newsletter\/confirm\?token=[\w.-]+)/.exec(
      confirmation!.text,
    )![1]!;
    expect((await api.call('POST', link)).status).toBe(200);
    expect(await statusOf('ines@reader.example')).toBe('confirmed');
    expect(await suppressionOf('ines@reader.example')).toBeUndefined();
    const [lift] = await api.db.query<{ target: string }>(
      `SELECT target FROM activity_log WHERE action = 'suppression.lift'`,
    );
    expect(lift!.target).toMatch(
      /^suppression \d+: complaint, lifted by the confirmation of subscriber \d+$/,
    );
  });
});
