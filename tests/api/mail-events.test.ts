/**
 * POST /api/mail/events/{provider} through real HTTP: an issue is sent to the local catcher, and the bounces
 * and complaints the providers publish as samples, rewritten to name those copies (their Message-ID as the
 * catcher parsed it) and signed with the tests' keys, change the subscriber once. Each sample is also sent
 * forged (wrong signature or credentials, a certificate from another host, a stale timestamp, a replayed
 * token): 401 and the database exactly as before. Not configured 503, bad JSON 400, too large 413.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { emailHash } from '../../src/server/mail/hash.ts';
import { useSnsHttp } from '../../src/server/mail/providers/index.ts';
import { MAIL_EVENTS_MAX_BYTES } from '../../src/server/mail/webhooks.ts';
import {
  basicAuth,
  fakeSns,
  mailgunDelivery,
  sample,
  sendgridHeaders,
  signSns,
  snsNotification,
  WEBHOOK_ENV,
  type FakeSns,
} from '../support/mail-webhooks.ts';
import type { Api } from './support/harness.ts';
import { runWorker, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'owner@korvel.example', password: 'webhook owner passphrase' };
let api: Api;
let mail: TestMail;
let token: string;
let sns: FakeSns;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

/** What an event may change, emptied before each test. */
const RESET_TABLES = [
  'mail_events',
  'mail_webhook_nonces',
  'outbox',
  'campaigns',
  'subscribers',
  'mail_suppressions',
];

const saved = Object.fromEntries(Object.keys(WEBHOOK_ENV).map((name) => [name, process.env[name]]));
beforeAll(() => {
  Object.assign(process.env, WEBHOOK_ENV);
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  useSnsHttp();
});
beforeEach(async () => {
  sns = fakeSns();
  useSnsHttp(sns);
  for (const table of RESET_TABLES) await api.db.query(`DELETE FROM ${table}`);
});

/**
 * Sends one issue to `emails` (confirmed subscribers) through the worker to the catcher and returns each
 * address's Message-ID as the catcher's mail parser read it from the copy that arrived.
 */
async function sendIssue(emails: string[]): Promise<Record<string, string>> {
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
    [emails],
  );
  const draft = await api.call('POST', '/api/campaigns', {
    token,
    json: { subject: 'Cleanroom notes', markdown: 'Three findings from this year’s inspections.' },
  });
  expect(draft.status).toBe(201);
  expect((await api.call('POST', `/api/campaigns/${draft.body.id}/send`, { token })).status).toBe(202);
  await api.settle();
  await runWorker(api.db);
  const copies = mail.catcher.messages().filter((m) => m.subject === 'Cleanroom notes');
  expect(copies.map((m) => m.envelope.to[0]).sort()).toEqual([...emails].sort());
  return Object.fromEntries(copies.map((m) => [m.envelope.to[0]!, m.messageId!]));
}

const post = (provider: string, body: string, headers: Record<string, string> = {}) =>
  api.call('POST', `/api/mail/events/${provider}`, {
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

const statusOf = async (email: string) =>
  (
    await api.db.query<{ status: string }>('SELECT status FROM subscribers WHERE lower(email) = lower($1)', [
      email,
    ])
  )[0]?.status;

const suppressionOf = async (email: string) =>
  (
    await api.db.query<{ reason: string; source: string }>(
      'SELECT reason, source FROM mail_suppressions WHERE email_hash = $1',
      [emailHash(email)],
    )
  )[0];

/** Everything an event may change, to show that a refused or unknown one changed nothing. */
const snapshot = async () =>
  JSON.stringify(
    await Promise.all(
      [
        'mail_events',
        'mail_suppressions',
        'subscribers',
        'activity_log',
        'mail_webhook_nonces',
        'outbox',
      ].map((table) => api.db.query(`SELECT * FROM ${table} ORDER BY 1`)),
    ),
  );

/** Sends a refused delivery and checks the refusal and that nothing changed. */
async function refused(
  provider: string,
  body: string,
  headers: Record<string, string> = {},
  status = 401,
): Promise<void> {
  const before = await snapshot();
  const reply = await post(provider, body, headers);
  expect(reply.status, reply.text).toBe(status);
  if (status === 401)
    expect(reply.body.error).toEqual({ code: 'unverified', message: 'The event could not be verified.' });
  expect(await snapshot()).toBe(before);
}

const now = () => new Date().toISOString();
const seconds = () => Math.floor(Date.now() / 1000);

/** The SES samples, rewritten to name `email`'s copy. */
function sesBounce(email: string, messageId: string) {
  const ses = sample('ses-bounce.json');
  ses.mail.commonHeaders.messageId = messageId;
  ses.mail.destination = [email];
  ses.bounce.bouncedRecipients[0].emailAddress = email;
  ses.bounce.bouncedRecipients[0].diagnosticCode = `smtp; 550 5.1.1 <${email}>... User unknown`;
  ses.bounce.timestamp = now();
  return ses;
}
function sesComplaint(email: string, messageId: string) {
  const ses = sample('ses-complaint.json');
  ses.mail.commonHeaders.messageId = messageId;
  ses.complaint.complainedRecipients[0].emailAddress = email;
  ses.complaint.timestamp = now();
  return ses;
}

describe('SES via SNS', () => {
  test('a bounce and a complaint, each once valid: the subscribers are bounced and complained, once', async () => {
    const ids = await sendIssue(['jane@plant.example', 'richard@plant.example', 'mary@plant.example']);
    const bounce = JSON.stringify(
      snsNotification(sesBounce('jane@plant.example', ids['jane@plant.example']!), { messageId: 'sns-1' }),
    );
    const headers = { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' };
    const first = await post('ses', bounce, headers);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: 1, applied: 1, duplicate: 0, unknown: 0 });
    expect(await statusOf('jane@plant.example')).toBe('bounced');
    expect(await suppressionOf('jane@plant.example')).toEqual({ reason: 'hard_bounce', source: 'ses' });

    // SNS delivers at least once: the same message again is answered 200 and changes nothing.
    const before = await snapshot();
    const again = await post('ses', bounce, headers);
    expect(again.body).toEqual({ received: 1, applied: 0, duplicate: 1, unknown: 0 });
    expect(await snapshot()).toBe(before);

    const complaint = snsNotification(sesComplaint('richard@plant.example', ids['richard@plant.example']!), {
      messageId: 'sns-2',
      version: '2',
    });
    const second = await post('ses', JSON.stringify(complaint), headers);
    expect(second.body).toEqual({ received: 1, applied: 1, duplicate: 0, unknown: 0 });
    expect(await statusOf('richard@plant.example')).toBe('complained');
    expect(await suppressionOf('richard@plant.example')).toEqual({ reason: 'complaint', source: 'ses' });
    expect(await statusOf('mary@plant.example')).toBe('confirmed');
    expect(sns.fetched).toHaveLength(1);
  });

  test('forged: another key, a changed message, a certificate off AWS, stale, another topic → 401, nothing changed', async () => {
    const ids = await sendIssue(['jane@plant.example']);
    const ses = sesBounce('jane@plant.example', ids['jane@plant.example']!);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await refused('ses', JSON.stringify(signSns(snsNotification(ses), '1', other)));
    const changed = snsNotification(ses);
    await refused('ses', JSON.stringify({ ...changed, Subject: 'Changed after signing' }));
    const offAws = signSns({
      ...snsNotification(ses),
      SigningCertURL: 'https://sns.us-west-2.amazonaws.com.attacker.example/SimpleNotificationService-1.pem',
    });
    await refused('ses', JSON.stringify(offAws));
    const stale = snsNotification(ses, { now: new Date(Date.now() - 2 * 60 * 60_000) });
    await refused('ses', JSON.stringify(stale));
    const foreign = signSns({
      ...snsNotification(ses),
      TopicArn: 'arn:aws:sns:us-west-2:999999999999:Other',
    });
    await refused('ses', JSON.stringify(foreign));
    expect(sns.fetched.every((url) => url.startsWith('https://sns.us-west-2.amazonaws.com/'))).toBe(true);
    expect(await statusOf('jane@plant.example')).toBe('confirmed');
  });

  test('a SubscriptionConfirmation is verified and confirmed by visiting its SubscribeURL; a forged one is not', async () => {
    const confirmation = { ...sample('sns-subscription-confirmation.json'), Timestamp: now() };
    const headers = { 'x-amz-sns-message-type': 'SubscriptionConfirmation' };
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await refused('ses', JSON.stringify(signSns(confirmation, '1', other)), headers);
    expect(sns.confirmed).toEqual([]);
    const reply = await post('ses', JSON.stringify(signSns(confirmation)), headers);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ received: 0, applied: 0, duplicate: 0, unknown: 0 });
    expect(sns.confirmed).toEqual([confirmation.SubscribeURL]);
  });

  test('SNS unreachable while confirming → 503 to be sent again', async () => {
    useSnsHttp({
      ...sns,
      confirmSubscription: async () => {
        throw new Error('connect ETIMEDOUT');
      },
    });
    const confirmation = { ...sample('sns-subscription-confirmation.json'), Timestamp: now() };
    const reply = await post('ses', JSON.stringify(signSns(confirmation)));
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('60');
  });
});

describe('Postmark', () => {
  /** Postmark's bounce IDs are 64-bit: written as digits, beyond what a double holds exactly. */
  const bounceFor = (email: string, messageId: string, id = '7000000000000000001') =>
    JSON.stringify({
      ...sample('postmark-bounce.json'),
      ID: 0,
      Email: email,
      BouncedAt: now(),
      Metadata: { 'message-id': messageId },
    }).replace('"ID":0', `"ID":${id}`);

  test('Bounce and SpamComplaint behind basic auth, each once valid; a repeat changes nothing', async () => {
    const ids = await sendIssue(['john@plant.example', 'ana@plant.example']);
    const auth = { authorization: basicAuth() };
    const bounce = bounceFor('john@plant.example', ids['john@plant.example']!);
    expect((await post('postmark', bounce, auth)).body).toEqual({
      received: 1,
      applied: 1,
      duplicate: 0,
      unknown: 0,
    });
    expect(await statusOf('john@plant.example')).toBe('bounced');
    expect((await post('postmark', bounce, auth)).body).toMatchObject({ applied: 0, duplicate: 1 });
    // The neighbouring ID rounds to the same double, and is another event all the same.
    const neighbour = bounceFor('john@plant.example', ids['john@plant.example']!, '7000000000000000002');
    expect((await post('postmark', neighbour, auth)).body).toMatchObject({ applied: 1, duplicate: 0 });
    const events = await api.db.query<{ event_id: string }>(
      `SELECT event_id FROM mail_events WHERE source = 'postmark' ORDER BY event_id`,
    );
    expect(events.map((e) => e.event_id)).toEqual(['7000000000000000001', '7000000000000000002']);

    const complaint = JSON.stringify({
      ...sample('postmark-spam-complaint.json'),
      Email: 'ana@plant.example',
      BouncedAt: now(),
      Metadata: { 'message-id': ids['ana@plant.example'] },
    });
    expect((await post('postmark', complaint, auth)).body).toMatchObject({ applied: 1 });
    expect(await statusOf('ana@plant.example')).toBe('complained');
    expect(await suppressionOf('ana@plant.example')).toEqual({ reason: 'complaint', source: 'postmark' });
  });

  test('forged: no credentials, a wrong password → 401 with a Basic challenge, nothing changed', async () => {
    const ids = await sendIssue(['john@plant.example']);
    const bounce = bounceFor('john@plant.example', ids['john@plant.example']!);
    await refused('postmark', bounce);
    await refused('postmark', bounce, { authorization: basicAuth(undefined, 'a guessed password') });
    const reply = await post('postmark', bounce);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Basic realm="mail-events"/);
    expect(await statusOf('john@plant.example')).toBe('confirmed');
  });
});

describe('Mailgun', () => {
  const failedFor = (email: string, messageId: string) => {
    const data = sample('mailgun-failed-permanent.json')['event-data'];
    Object.assign(data, { recipient: email, timestamp: Date.now() / 1000, reason: 'bounce' });
    data['delivery-status'] = {
      code: 550,
      message: '5.1.1 The email account does not exist.',
      description: '',
    };
    // Mailgun names the Message-ID without its angle brackets.
    data.message.headers['message-id'] = messageId.replace(/^<|>$/g, '');
    return data;
  };

  test('failed/permanent and complained, each once valid; a fresh signature on a repeated event changes nothing', async () => {
    const ids = await sendIssue(['alice@plant.example', 'bob@plant.example']);
    const failed = failedFor('alice@plant.example', ids['alice@plant.example']!);
    expect((await post('mailgun', mailgunDelivery(failed))).body).toEqual({
      received: 1,
      applied: 1,
      duplicate: 0,
      unknown: 0,
    });
    expect(await statusOf('alice@plant.example')).toBe('bounced');
    expect(await suppressionOf('alice@plant.example')).toEqual({ reason: 'hard_bounce', source: 'mailgun' });
    expect((await post('mailgun', mailgunDelivery(failed))).body).toMatchObject({ applied: 0, duplicate: 1 });

    const complained = sample('mailgun-complained.json')['event-data'];
    Object.assign(complained, { recipient: 'bob@plant.example', timestamp: Date.now() / 1000 });
    complained.message.headers['message-id'] = ids['bob@plant.example']!.replace(/^<|>$/g, '');
    expect((await post('mailgun', mailgunDelivery(complained))).body).toMatchObject({ applied: 1 });
    expect(await statusOf('bob@plant.example')).toBe('complained');
  });

  test('forged: the published signature, another key, older than five minutes, a replayed token → 401, nothing changed', async () => {
    const ids = await sendIssue(['alice@plant.example']);
    const failed = failedFor('alice@plant.example', ids['alice@plant.example']!);
    const published = sample('mailgun-failed-permanent.json');
    await refused('mailgun', JSON.stringify({ ...published, 'event-data': failed }));
    await refused('mailgun', mailgunDelivery(failed, { key: 'key-of-someone-else' }));
    await refused('mailgun', mailgunDelivery(failed, { timestamp: seconds() - 5 * 60 - 5 }));
    expect(await statusOf('alice@plant.example')).toBe('confirmed');

    // The real delivery once; its capture sent again (same token, still fresh) is refused and changes nothing.
    const delivery = mailgunDelivery(failed);
    expect((await post('mailgun', delivery)).status).toBe(200);
    await refused('mailgun', delivery);
    expect(await statusOf('alice@plant.example')).toBe('bounced');
  });

  test('one captured delivery sent ten times at once is accepted once', async () => {
    const ids = await sendIssue(['alice@plant.example']);
    const delivery = mailgunDelivery(failedFor('alice@plant.example', ids['alice@plant.example']!));
    const replies = await Promise.all(Array.from({ length: 10 }, () => post('mailgun', delivery)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(401)]);
    const [{ n }] = (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_events`)) as [
      { n: number },
    ];
    expect(n).toBe(1);
  });
});

describe('SendGrid', () => {
  /**
   * Sends an issue to two subscribers and returns SendGrid's sample batch naming their copies: `processed`
   * and a bounce for the first, a spam report for the second.
   */
  const issueBatch = async () => {
    const ids = await sendIssue(['example@plant.example', 'spam@plant.example']);
    const [processed, bounce, spam] = sample('sendgrid-events.json');
    const at = seconds();
    const first = { email: 'example@plant.example', 'smtp-id': ids['example@plant.example'], timestamp: at };
    Object.assign(processed, first);
    Object.assign(bounce, { ...first, reason: '550 5.1.1 unknown recipient' });
    Object.assign(spam, { email: 'spam@plant.example', 'smtp-id': ids['spam@plant.example'], timestamp: at });
    return JSON.stringify([processed, bounce, spam]);
  };

  test('a signed batch with a bounce and a spam report, once valid; the same batch again changes nothing', async () => {
    const batch = await issueBatch();
    expect((await post('sendgrid', batch, sendgridHeaders(batch))).body).toEqual({
      received: 2,
      applied: 2,
      duplicate: 0,
      unknown: 0,
    });
    expect(await statusOf('example@plant.example')).toBe('bounced');
    expect(await statusOf('spam@plant.example')).toBe('complained');
    expect(await suppressionOf('spam@plant.example')).toEqual({ reason: 'complaint', source: 'sendgrid' });
    const before = await snapshot();
    expect((await post('sendgrid', batch, sendgridHeaders(batch))).body).toMatchObject({
      applied: 0,
      duplicate: 2,
    });
    expect(await snapshot()).toBe(before);
  });

  test('forged: another key, a changed body, no signature, a stale timestamp → 401, nothing changed', async () => {
    const batch = await issueBatch();
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    await refused('sendgrid', batch, sendgridHeaders(batch, { key: other }));
    await refused('sendgrid', batch.replace('spamreport', 'open'), sendgridHeaders(batch));
    await refused('sendgrid', batch);
    await refused('sendgrid', batch, sendgridHeaders(batch, { timestamp: seconds() - 6 * 60 }));
    expect(await statusOf('example@plant.example')).toBe('confirmed');
  });
});

describe('every provider', () => {
  test('an event for a mail and address we never sent to → 200 unknown, nothing changed', async () => {
    await sendIssue(['known@plant.example']);
    const before = await snapshot();
    const stranger = 'stranger@elsewhere.example';
    const ses = await post(
      'ses',
      JSON.stringify(snsNotification(sesBounce(stranger, '<other.1@elsewhere.example>'))),
    );
    const data = sample('mailgun-complained.json')['event-data'];
    Object.assign(data, { recipient: stranger, timestamp: Date.now() / 1000 });
    const mailgun = await post('mailgun', mailgunDelivery(data));
    for (const reply of [ses, mailgun])
      expect(reply.body).toEqual({ received: 1, applied: 0, duplicate: 0, unknown: 1 });
    const nonces = await api.db.query('DELETE FROM mail_webhook_nonces RETURNING 1');
    expect(nonces).toHaveLength(1);
    expect(await snapshot()).toBe(before);
  });

  test('a provider whose secret is not set answers 503 and accepts nothing', async () => {
    const ids = await sendIssue(['jane@plant.example']);
    const messageId = ids['jane@plant.example']!;
    const bodies: [string, string, Record<string, string>][] = [
      ['ses', JSON.stringify(snsNotification(sesBounce('jane@plant.example', messageId))), {}],
      [
        'postmark',
        JSON.stringify({ ...sample('postmark-bounce.json'), Email: 'jane@plant.example' }),
        { authorization: basicAuth() },
      ],
      ['mailgun', mailgunDelivery(sample('mailgun-complained.json')['event-data']), {}],
    ];
    const batch = JSON.stringify(sample('sendgrid-events.json'));
    bodies.push(['sendgrid', batch, sendgridHeaders(batch)]);
    const names = [
      'SES_SNS_TOPIC_ARN',
      'POSTMARK_WEBHOOK_PASSWORD',
      'MAILGUN_SIGNING_KEY',
      'SENDGRID_WEBHOOK_PUBLIC_KEY',
    ];
    try {
      for (const name of names) delete process.env[name];
      for (const [provider, body, headers] of bodies) {
        await refused(provider, body, headers, 503);
        expect((await post(provider, body, headers)).body.error.code).toBe('server_not_configured');
      }
    } finally {
      Object.assign(process.env, WEBHOOK_ENV);
    }
    expect(sns.fetched).toEqual([]);
  });

  test('bad JSON → 400, over 1 MiB → 413, an unknown provider → 404, GET → 405', async () => {
    await refused('mailgun', '{"signature": ', {}, 400);
    await refused('postmark', 'not json', { authorization: basicAuth() }, 400);
    await refused('ses', '', {}, 400);
    const huge = `[${'{"event":"open"},'.repeat(MAIL_EVENTS_MAX_BYTES / 16)}{}]`;
    await refused('sendgrid', huge, sendgridHeaders(huge), 413);
    expect((await post('sparkpost', '{}')).status).toBe(404);
    expect((await api.call('GET', '/api/mail/events/ses')).status).toBe(405);
  });

  test('a verified body without the documented fields → 400 invalid_event', async () => {
    const body = JSON.stringify({ RecordType: 'Bounce', Type: 'HardBounce' });
    const reply = await post('postmark', body, { authorization: basicAuth() });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_event');
  });
});
