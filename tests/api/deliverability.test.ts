/**
 * Bounces and complaints over real SMTP and a real database: an issue sent to a list where the catcher refuses
 * some addresses (550 5.1.1, 452 4.2.2), what a later event does through applyMailEvent (matched by VERP token,
 * Message-ID or address; applied once; unknown mail changes nothing), the soft-bounce threshold, and what a
 * suppressed address still receives.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { MailEvent } from '../../src/server/mail/events.ts';
import { emailHash } from '../../src/server/mail/hash.ts';
import { verpToken } from '../../src/server/mail/links.ts';
import { applyMailEvent } from '../../src/server/mail/suppression.ts';
import { messageIdFor } from '../../src/server/mail/worker.ts';
import { applyRetention } from '../../src/server/retention.ts';
import { type Api } from './support/harness.ts';
import { dueNow, mailTo, NOTIFY_TO, runWorker, useMailApi, type TestMail } from './support/mail.ts';

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
  { refuse: (rcpt) => ({ [GONE]: 550, [FULL]: 452 })[rcpt], keepRaw: true },
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
    // A complaint arriving before the click voids that link: only a new sign-up brings the address back.
    await applyMailEvent(
      api.db,
      event({ eventId: 'again', kind: 'complaint', recipient: 'ines@reader.example' }),
    );
    expect((await api.call('GET', link)).status).toBe(410);
    expect((await api.call('POST', link)).status).toBe(410);
    expect(await statusOf('ines@reader.example')).toBe('complained');
    await api.db.query(`UPDATE subscribers SET confirmation_sent_at = now() - interval '2 hours'`);
    await api.call('POST', '/api/newsletter', {
      ip: `192.0.2.${ip++}`,
      json: { email: 'ines@reader.example', consent: true, source: '/blog/gmp' },
    });
    await api.settle();
    const [, second] = mailTo(mail.catcher, 'ines@reader.example');
    const fresh = /https:\/\/site\.korvel\.test(\/newsletter\/confirm\?token=[\w.-]+)/.exec(
      second!.text,
    )![1]!;
    expect((await api.call('POST', fresh)).status).toBe(200);
    expect(await statusOf('ines@reader.example')).toBe('confirmed');
    expect(await suppressionOf('ines@reader.example')).toBeUndefined();
    const [lift] = await api.db.query<{ target: string }>(
      `SELECT target FROM activity_log WHERE action = 'suppression.lift' AND actor_id IS NULL ORDER BY id DESC LIMIT 1`,
    );
    expect(lift!.target).toMatch(
      /^suppression \d+: complaint, lifted by the confirmation of subscriber \d+$/,
    );
  });
});

describe('POST /api/mail/inbound', () => {
  const SECRET = 'inbound-secret-for-the-api-tests-0123456789';
  const fixture = (name: string, values: Record<string, string>) =>
    Object.entries(values).reduce(
      (text, [key, value]) => text.replaceAll(`{{${key}}}`, value),
      readFileSync(new URL(`../fixtures/mail-reports/${name}.eml`, import.meta.url), 'utf8'),
    );
  const post = (body: string, headers: Record<string, string> = {}) =>
    api.call('POST', '/api/mail/inbound', {
      body,
      headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}`, ...headers },
    });

  /** A sent issue copy to `email`, and the values a report about it carries. */
  async function reportValues(email: string) {
    await addSubscribers([email]);
    await sendIssue();
    const row = await copyTo(email);
    return {
      RECIPIENT: email,
      RETURN_PATH: `bounces+${verpToken(row.id)}@korvel.example`,
      MESSAGE_ID: messageIdFor(row.key, FROM),
      FEEDBACK_TO: 'fbl@korvel.example',
    };
  }

  beforeEach(() => {
    process.env.MAIL_INBOUND_SECRET = SECRET;
  });
  afterEach(() => {
    delete process.env.MAIL_INBOUND_SECRET;
  });

  test('a Postfix DSN (550 5.1.1) suppresses the address once, however often it is posted', async () => {
    const report = fixture('dsn-hard-postfix', await reportValues('jan@list.example'));
    const first = await post(report);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      events: [{ kind: 'hard_bounce', recipient: 'jan@list.example', outcome: 'applied' }],
    });
    expect(await suppressionOf('jan@list.example')).toMatchObject({ reason: 'hard_bounce', source: 'dsn' });
    expect(await statusOf('jan@list.example')).toBe('bounced');
    const again = await post(report);
    expect(again.body.events[0].outcome).toBe('duplicate');
  });

  test('a DSN found by its Message-ID alone (no VERP address) still maps to its copy', async () => {
    const values = await reportValues('kim@list.example');
    const report = fixture('dsn-hard-postfix', { ...values, RETURN_PATH: 'bounces@korvel.example' });
    expect((await post(report)).body.events[0].outcome).toBe('applied');
    const [event] = await api.db.query<{ outbox_id: number }>('SELECT outbox_id FROM mail_events');
    expect(event!.outbox_id).toBe((await copyTo('kim@list.example')).id);
  });

  test('a Gmail DSN for a full mailbox (552 5.2.2) is a soft bounce that suppresses nobody yet', async () => {
    const report = fixture('dsn-soft-gmail', await reportValues('lea@list.example'));
    const reply = await post(report);
    expect(reply.body.events).toEqual([
      { kind: 'soft_bounce', recipient: 'lea@list.example', outcome: 'applied' },
    ]);
    expect(await suppressionOf('lea@list.example')).toBeUndefined();
    const [event] = await api.db.query<{ status: string; kind: string }>(
      'SELECT status, kind FROM mail_events',
    );
    expect(event).toEqual({ status: '5.2.2', kind: 'soft_bounce' });
  });

  test('an ARF complaint (RFC 5965) marks the subscriber complained', async () => {
    const report = fixture('arf-complaint', await reportValues('mia@list.example'));
    expect((await post(report)).body.events).toEqual([
      { kind: 'complaint', recipient: 'mia@list.example', outcome: 'applied' },
    ]);
    expect(await statusOf('mia@list.example')).toBe('complained');
    expect(await suppressionOf('mia@list.example')).toMatchObject({ reason: 'complaint', source: 'arf' });
  });

  test.each([
    ['year 0', '0000-01-01T00:00:00Z'],
    ['5000 BC', '-005000-01-01T00:00:00Z'],
  ])(
    'an ARF complaint dated %s is applied as of now, not a 500 the relay posts again',
    async (_, arrival) => {
      const report = fixture('arf-complaint', await reportValues('ole@list.example')).replace(
        'Arrival-Date: Sat, 28 Nov 2026 10:15:01 +0000',
        `Arrival-Date: ${arrival}`,
      );
      const reply = await post(report);
      expect(reply.status).toBe(200);
      expect(reply.body.events).toEqual([
        { kind: 'complaint', recipient: 'ole@list.example', outcome: 'applied' },
      ]);
      expect(await statusOf('ole@list.example')).toBe('complained');
      const [recorded] = await api.db.query<{ recent: boolean }>(
        `SELECT occurred_at > now() - interval '10 minutes' AS recent FROM mail_events WHERE kind = 'complaint'`,
      );
      expect(recorded).toEqual({ recent: true });
    },
  );

  test('a report about a mail that is not ours answers 200 and changes nothing', async () => {
    const before = await snapshot();
    const report = fixture('dsn-hard-postfix', {
      RECIPIENT: 'someone@elsewhere.example',
      RETURN_PATH: 'bounces@elsewhere.example',
      MESSAGE_ID: '<abc.123@elsewhere.example>',
    });
    const reply = await post(report);
    expect(reply.status).toBe(200);
    expect(reply.body.events[0].outcome).toBe('unknown');
    expect(await snapshot()).toBe(before);
  });

  test('a wrong or missing secret, another body or no secret configured is refused and changes nothing', async () => {
    const report = fixture('dsn-hard-postfix', await reportValues('nia@list.example'));
    const before = await snapshot();
    expect((await post(report, { authorization: 'Bearer not-the-secret' })).status).toBe(401);
    expect((await post(report, { authorization: '' })).status).toBe(401);
    expect((await post(report, { 'content-type': 'application/json' })).status).toBe(415);
    const plain = await post('From: a@b.example\r\nSubject: hello\r\n\r\nJust a letter.\r\n');
    expect(plain.status).toBe(422);
    expect(plain.body.error.code).toBe('not_a_report');
    expect((await post('x'.repeat(2 * 1024 * 1024 + 1))).status).toBe(413);
    delete process.env.MAIL_INBOUND_SECRET;
    expect((await post(report)).status).toBe(503);
    expect(await snapshot()).toBe(before);
  });
});

describe('the suppression list', () => {
  test('owner and editor read and search it; sales may not; the owner lifts a bounce, not a complaint (logged)', async () => {
    await api.createAdmin('editor@korvel.example', ADMIN.password, 'editor');
    await api.createAdmin('sales@korvel.example', ADMIN.password, 'sales');
    const editor = await api.login('editor@korvel.example', ADMIN.password);
    const sales = await api.login('sales@korvel.example', ADMIN.password);
    await addSubscribers(['olga@list.example', 'pia@list.example']);
    await applyMailEvent(
      api.db,
      event({ recipient: 'olga@list.example', status: '5.1.1', diagnostic: '550 5.1.1 no such user' }),
    );
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'pia@list.example' }));

    const list = await api.call('GET', '/api/suppressions', { token: editor });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body.map((s: { email: string }) => s.email).sort()).toEqual([
      'olga@list.example',
      'pia@list.example',
    ]);
    const olga = list.body.find((s: { email: string }) => s.email === 'olga@list.example');
    expect(olga).toMatchObject({
      reason: 'hard_bounce',
      source: 'postmark',
      detail: '550 5.1.1 no such user',
    });
    const search = await api.call('GET', '/api/suppressions?q=OLGA&reason=hard_bounce', { token });
    expect(search.body).toHaveLength(1);
    expect((await api.call('GET', '/api/suppressions?reason=nope', { token })).status).toBe(400);
    expect((await api.call('GET', '/api/suppressions', { token: sales })).status).toBe(403);
    expect((await api.call('GET', '/api/suppressions')).status).toBe(401);

    const pia = list.body.find((s: { email: string }) => s.email === 'pia@list.example');
    expect((await api.call('DELETE', `/api/suppressions/${olga.id}`, { token: editor })).status).toBe(403);
    expect((await api.call('DELETE', `/api/suppressions/${pia.id}`, { token })).status).toBe(409);
    expect((await api.call('DELETE', '/api/suppressions/999999', { token })).status).toBe(404);
    expect((await api.call('DELETE', '/api/suppressions/x', { token })).status).toBe(400);
    const lifted = await api.call('DELETE', `/api/suppressions/${olga.id}`, { token });
    expect(lifted.status).toBe(200);
    expect(await suppressionOf('olga@list.example')).toBeUndefined();
    expect(await statusOf('olga@list.example')).toBe('confirmed');
    const [log] = await api.db.query<{ actor_email: string; target: string }>(
      `SELECT actor_email, target FROM activity_log WHERE action = 'suppression.lift' AND actor_id IS NOT NULL`,
    );
    expect(log).toEqual({ actor_email: ADMIN.email, target: `suppression ${olga.id}: hard_bounce` });
  });

  test('an unsubscribe shows without its address, and is found by the whole address', async () => {
    await api.db.query(`INSERT INTO mail_suppressions (email_hash) VALUES ($1)`, [
      emailHash('quit@list.example'),
    ]);
    const found = await api.call('GET', '/api/suppressions?q=quit@list.example', { token });
    expect(found.body).toEqual([
      expect.objectContaining({ email: null, reason: 'unsubscribe', source: 'link' }),
    ]);
    expect((await api.call('GET', '/api/suppressions?q=quit', { token })).body).toEqual([]);
  });
});

describe('DKIM', () => {
  const DKIM_ENV = ['DKIM_PRIVATE_KEY', 'DKIM_SELECTOR', 'DKIM_DOMAIN'] as const;
  afterEach(() => {
    for (const name of DKIM_ENV) delete process.env[name];
  });

  /** The firm's notice of a contact message, as it arrived at the catcher. */
  async function notice(): Promise<string> {
    expect((await contact('rita@plant.example')).status).toBe(201);
    await api.settle();
    const [caught] = mailTo(mail.catcher, NOTIFY_TO);
    expect(caught?.raw).toBeDefined();
    return caught!.raw!;
  }

  test('signs every mail when the three variables are set; mailauth verifies it with the published key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    process.env.DKIM_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    process.env.DKIM_SELECTOR = 'k2026';
    process.env.DKIM_DOMAIN = 'korvel.example';
    const raw = await notice();
    // The DNS TXT record the README tells the firm to publish, answered by a resolver of the test's own.
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const lookups: string[] = [];
    const resolver = async (name: string, type: string) => {
      lookups.push(`${type} ${name}`);
      if (type === 'TXT' && name === 'k2026._domainkey.korvel.example') return [[record]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    };
    const verified = await dkimVerify(Buffer.from(raw), { resolver });
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0]!.status.result).toBe('pass');
    expect(verified.results[0]!.signingDomain).toBe('korvel.example');
    expect(lookups).toEqual(['TXT k2026._domainkey.korvel.example']);

    // One changed character in the signed body fails the signature.
    const tampered = raw.replace('Clean steam generator', 'Clean steam generatorX');
    expect(tampered).not.toBe(raw);
    const failed = await dkimVerify(Buffer.from(tampered), { resolver });
    expect(failed.results[0]!.status.result).toBe('fail');
  });

  test('leaves mail unsigned without the variables', async () => {
    const raw = await notice();
    expect(raw).not.toMatch(/^DKIM-Signature:/im);
  });
});

describe('what the firm sees', () => {
  test('each issue shows sent, accepted, bounces, complaints and unsubscribes with rates', async () => {
    await addSubscribers(['s1@list.example', 's2@list.example', 's3@list.example', GONE, FULL]);
    const id = await sendIssue();
    const copy = await copyTo('s1@list.example');
    await applyMailEvent(api.db, event({ kind: 'complaint', messageId: messageIdFor(copy.key, FROM) }));
    // The same copy reported twice by two sources still counts once.
    await applyMailEvent(
      api.db,
      event({ source: 'arf', kind: 'complaint', returnPathToken: verpToken(copy.id) }),
    );
    await api.db.query(
      `INSERT INTO insight_newsletter (day, campaign_id, event, url, events) VALUES (current_date, $1, 'unsubscribe', '', 1)`,
      [id],
    );
    const issue = await api.call('GET', `/api/campaigns/${id}`, { token });
    expect(issue.body.delivery).toEqual({
      sent: 4,
      accepted: 3,
      hardBounces: 1,
      softBounces: 1,
      complaints: 1,
      unsubscribes: 1,
      rates: { hardBounces: 0.25, softBounces: 0.25, complaints: 1 / 3, unsubscribes: 1 / 3 },
    });
    const list = await api.call('GET', '/api/campaigns', { token });
    expect(list.body.find((c: { id: number }) => c.id === id).delivery.hardBounces).toBe(1);
  });

  test('the last 30 days: rates, warnings above 2 % bounces and 0.1 % complaints', async () => {
    const empty = await api.call('GET', '/api/deliverability', { token });
    expect(empty.body).toMatchObject({
      days: 30,
      sent: 0,
      bounceRate: null,
      complaintRate: null,
      warnings: { bounces: false, complaints: false },
      sendNeedsConfirmation: false,
      thresholds: { bounceWarning: 0.02, complaintWarning: 0.001, complaintConfirm: 0.003 },
    });
    await addSubscribers(['t1@list.example', 't2@list.example', 't3@list.example', GONE]);
    await sendIssue();
    const reply = await api.call('GET', '/api/deliverability', { token });
    expect(reply.body).toMatchObject({
      sent: 4,
      accepted: 3,
      hardBounces: 1,
      bounceRate: 0.25,
      complaintRate: 0,
      warnings: { bounces: true, complaints: false },
    });
    expect((await api.call('GET', '/api/deliverability?x=1', { token })).status).toBe(400);
    expect((await api.call('GET', '/api/deliverability')).status).toBe(401);
  });

  test('above 0.3 % complaints only the owner sends an issue, with an explicit confirmation that is logged', async () => {
    await api.createAdmin('editor2@korvel.example', ADMIN.password, 'editor');
    const editor = await api.login('editor2@korvel.example', ADMIN.password);
    await addSubscribers(['u1@list.example', 'u2@list.example']);
    await sendIssue('Before the complaint');
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'u1@list.example' }));
    expect((await api.call('GET', '/api/deliverability', { token })).body.sendNeedsConfirmation).toBe(true);
    await addSubscribers(['u3@list.example']);

    const created = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, subject: 'After' } });
    const send = (as: string, json?: unknown) =>
      api.call('POST', `/api/campaigns/${created.body.id}/send`, {
        token: as,
        ...(json !== undefined && { json }),
      });
    const unconfirmed = await send(token);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.error.code).toBe('complaints_need_confirmation');
    const byEditor = await send(editor, { confirmComplaints: true });
    expect([byEditor.status, byEditor.body.error.code]).toEqual([409, 'complaints_need_owner']);
    expect((await send(token, { confirmComplaints: 'yes' })).status).toBe(400);
    expect((await send(token, { other: true })).status).toBe(400);
    expect((await api.call('GET', `/api/campaigns/${created.body.id}`, { token })).body.status).toBe('draft');

    const confirmed = await send(token, { confirmComplaints: true });
    expect(confirmed.status).toBe(202);
    const [log] = await api.db.query<{ actor_email: string; target: string }>(
      `SELECT actor_email, target FROM activity_log WHERE action = 'campaign.send_over_complaints' ORDER BY id DESC LIMIT 1`,
    );
    expect(log).toEqual({
      actor_email: ADMIN.email,
      target: `campaign ${created.body.id}, complaints 50.00 % over 30 days`,
    });
  });

  test('the subscriber list shows and filters bounced and complained addresses', async () => {
    await addSubscribers(['v1@list.example', 'v2@list.example', 'v3@list.example']);
    await applyMailEvent(api.db, event({ recipient: 'v1@list.example' }));
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'v2@list.example' }));
    const bounced = await api.call('GET', '/api/newsletter?status=bounced', { token });
    expect(bounced.body.map((s: { email: string; status: string }) => [s.email, s.status])).toEqual([
      ['v1@list.example', 'bounced'],
    ]);
    const complained = await api.call('GET', '/api/newsletter?status=complained', { token });
    expect(complained.body.map((s: { email: string }) => s.email)).toEqual(['v2@list.example']);
    expect((await api.call('GET', '/api/newsletter?status=gone', { token })).status).toBe(400);
    // An unsubscribe deletes the row: the contract's filter is accepted and finds nobody.
    const unsubscribed = await api.call('GET', '/api/newsletter?status=unsubscribed', { token });
    expect([unsubscribed.status, unsubscribed.body, unsubscribed.headers.get('x-total-count')]).toEqual([
      200,
      [],
      '0',
    ]);
    // …after the same checks as every other filter: a bad language or page is still a 400.
    for (const query of ['status=unsubscribed&lang=fr', 'status=unsubscribed&page=0'])
      expect((await api.call('GET', `/api/newsletter?${query}`, { token })).status, query).toBe(400);
  });
});

describe('privacy', () => {
  test('unsubscribing after a complaint keeps the suppression but only the hash of the address', async () => {
    await addSubscribers(['wes@reader.example']);
    await sendIssue();
    const [issue] = mailTo(mail.catcher, 'wes@reader.example');
    await applyMailEvent(api.db, event({ kind: 'complaint', recipient: 'wes@reader.example' }));
    const link = /https:\/\/site\.korvel\.test(\/newsletter\/unsubscribe\?token=[\w.-]+)/.exec(
      issue!.text,
    )![1]!;
    expect((await api.call('GET', link)).status).toBe(200);
    expect((await api.call('POST', link)).status).toBe(200);
    expect(await statusOf('wes@reader.example')).toBeUndefined();
    expect(await suppressionOf('wes@reader.example')).toMatchObject({ reason: 'complaint', email: null });
  });

  test('a bounce keeps the hash and the reply 30 days, its record 400 days', async () => {
    const insert = (id: string, ago: string) =>
      api.db.query(
        `INSERT INTO mail_events (source, event_id, kind, email_hash, diagnostic, subscriber_id, occurred_at, received_at)
         VALUES ('dsn', $1, 'hard_bounce', $2, '550 5.1.1 (recipient) unknown', 7, now(), now() - $3::interval)`,
        [id, emailHash(`${id}@list.example`), ago],
      );
    await insert('fresh', '29 days 23 hours');
    await insert('month', '30 days 1 minute');
    await insert('ancient', '400 days 1 minute');
    await applyRetention(api.db);
    const rows = await api.db.query<{
      event_id: string;
      email_hash: string | null;
      diagnostic: string | null;
    }>('SELECT event_id, email_hash, diagnostic FROM mail_events ORDER BY event_id');
    expect(rows).toEqual([
      {
        event_id: 'fresh',
        email_hash: emailHash('fresh@list.example'),
        diagnostic: '550 5.1.1 (recipient) unknown',
      },
      { event_id: 'month', email_hash: null, diagnostic: null },
    ]);
  });
});
