/**
 * The four webhook verifiers on their own: each provider's published sample, signed as the provider signs it,
 * is accepted once and normalised; a wrong signature, a certificate from another host, a stale timestamp or a
 * replayed token is refused; a missing secret fails closed. No network: SNS certificates come from a fake.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeEach, describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/server/config.ts';
import { HttpError } from '../../src/server/http.ts';
import { WebhookRefusedError, type WebhookInput } from '../../src/server/mail/providers/common.ts';
import { mailgunProvider } from '../../src/server/mail/providers/mailgun.ts';
import { postmarkProvider } from '../../src/server/mail/providers/postmark.ts';
import { createSesProvider, isSnsUrl } from '../../src/server/mail/providers/ses.ts';
import { sendgridProvider } from '../../src/server/mail/providers/sendgrid.ts';
import {
  basicAuth,
  fakeSns,
  mailgunDelivery,
  sample,
  sendgridHeaders,
  signSns,
  snsNotification,
  SNS_TOPIC,
  WEBHOOK_ENV,
  type FakeSns,
} from '../support/mail-webhooks.ts';

const now = new Date();
const input = (body: string, headers: Record<string, string> = {}, env: NodeJS.ProcessEnv = WEBHOOK_ENV) =>
  ({ headers: new Headers(headers), body, now, env }) satisfies WebhookInput;

async function refusal(promise: Promise<unknown>): Promise<WebhookRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookRefusedError);
  expect((error as WebhookRefusedError).status).toBe(401);
  return error as WebhookRefusedError;
}

describe('SES via SNS', () => {
  let sns: FakeSns;
  let ses: ReturnType<typeof createSesProvider>;
  beforeEach(() => {
    sns = fakeSns();
    ses = createSesProvider(sns);
  });
  const body = (message: unknown) => JSON.stringify(message);

  test.each(['1', '2'] as const)(
    'accepts a bounce signed with SignatureVersion %s and reads it',
    async (version) => {
      const delivery = await ses.verify(input(body(snsNotification(sample('ses-bounce.json'), { version }))));
      expect(delivery.events).toEqual([
        {
          source: 'ses',
          kind: 'hard_bounce',
          eventId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
          messageId: 'custom-message-ID',
          recipient: 'jane@example.com',
          status: '5.1.1',
          diagnostic: 'smtp; 550 5.1.1 <jane@example.com>... User',
          at: new Date('2016-01-27T14:59:38.237Z'),
        },
      ]);
      expect(sns.fetched).toEqual([
        'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem',
      ]);
    },
  );

  test('reads a complaint, a transient bounce as soft, and a delivery as nothing', async () => {
    const complaint = await ses.verify(input(body(snsNotification(sample('ses-complaint.json')))));
    expect(complaint.events).toMatchObject([
      { source: 'ses', kind: 'complaint', recipient: 'richard@example.com', messageId: 'custom-message-ID' },
    ]);
    const transient = sample('ses-bounce.json');
    transient.bounce.bounceType = 'Transient';
    transient.bounce.bounceSubType = 'MailboxFull';
    transient.bounce.bouncedRecipients[0].status = '4.2.2';
    const soft = await ses.verify(input(body(snsNotification(transient))));
    expect(soft.events).toMatchObject([{ kind: 'soft_bounce', status: '4.2.2' }]);
    const delivered = { notificationType: 'Delivery', mail: sample('ses-bounce.json').mail, delivery: {} };
    expect((await ses.verify(input(body(snsNotification(delivered))))).events).toEqual([]);
  });

  test('fetches a certificate once and keeps it', async () => {
    await ses.verify(input(body(snsNotification(sample('ses-bounce.json'), { messageId: 'a' }))));
    await ses.verify(input(body(snsNotification(sample('ses-bounce.json'), { messageId: 'b' }))));
    expect(sns.fetched).toHaveLength(1);
  });

  test('refuses a message signed with another key (forged signature)', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = signSns(snsNotification(sample('ses-bounce.json')), '1', other);
    await refusal(ses.verify(input(body(forged))));
  });

  test('refuses a message changed after signing', async () => {
    const signed = snsNotification(sample('ses-bounce.json'));
    const changed = sample('ses-bounce.json');
    changed.bounce.bouncedRecipients[0].emailAddress = 'someone.else@example.com';
    await refusal(ses.verify(input(body({ ...signed, Message: JSON.stringify(changed) }))));
  });

  test.each([
    'https://sns.us-west-2.amazonaws.com.evil.example/cert.pem',
    'https://evil.example/sns.us-west-2.amazonaws.com/cert.pem',
    'http://sns.us-west-2.amazonaws.com/SimpleNotificationService-x.pem',
    'https://sns.us-west-2.amazonaws.com:8443/SimpleNotificationService-x.pem',
    'https://user@sns.us-west-2.amazonaws.com/SimpleNotificationService-x.pem',
    'https://sns.amazonaws.com/SimpleNotificationService-x.pem',
    'https://s3.us-west-2.amazonaws.com/SimpleNotificationService-x.pem',
    'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-x.txt',
  ])('refuses a certificate at %s without fetching it', async (url) => {
    const forged = signSns({ ...snsNotification(sample('ses-bounce.json')), SigningCertURL: url });
    await refusal(ses.verify(input(body(forged))));
    expect(sns.fetched).toEqual([]);
  });

  test('accepts certificate and subscribe URLs only on sns.<region>.amazonaws.com', () => {
    expect(
      isSnsUrl('https://sns.eu-central-1.amazonaws.com/SimpleNotificationService-abc.pem', 'certificate'),
    ).toBe(true);
    expect(isSnsUrl('https://sns.us-gov-west-1.amazonaws.com/a.pem', 'certificate')).toBe(true);
    expect(isSnsUrl('https://sns.eu-central-1.amazonaws.com/?Action=ConfirmSubscription', 'subscribe')).toBe(
      true,
    );
    expect(isSnsUrl('https://sns.eu-central-1.amazonaws.com.evil.example/?Action=x', 'subscribe')).toBe(
      false,
    );
  });

  test('refuses a stale message (a replay of an old capture) and one from the future', async () => {
    const old = snsNotification(sample('ses-bounce.json'), { now: new Date(now.getTime() - 61 * 60_000) });
    expect((await refusal(ses.verify(input(body(old))))).reason).toMatch(/stale/);
    const ahead = snsNotification(sample('ses-bounce.json'), { now: new Date(now.getTime() + 5 * 60_000) });
    await refusal(ses.verify(input(body(ahead))));
  });

  test('a replayed message verifies again with the same event id, so applying it twice changes nothing', async () => {
    const message = body(snsNotification(sample('ses-bounce.json')));
    const first = await ses.verify(input(message));
    const again = await ses.verify(input(message));
    expect(again.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
  });

  test('refuses a topic other than the configured one, and an unknown SignatureVersion', async () => {
    const foreign = signSns({
      ...snsNotification(sample('ses-bounce.json')),
      TopicArn: 'arn:aws:sns:us-west-2:999999999999:Other',
    });
    await refusal(ses.verify(input(body(foreign))));
    const v3 = { ...snsNotification(sample('ses-bounce.json')), SignatureVersion: '3' };
    await refusal(ses.verify(input(body(v3))));
    expect(sns.fetched).toEqual([]);
  });

  test('accepts any of several configured topics', async () => {
    const env = { ...WEBHOOK_ENV, SES_SNS_TOPIC_ARN: `arn:aws:sns:eu-west-1:1:Bounces, ${SNS_TOPIC}` };
    const delivery = await ses.verify(input(body(snsNotification(sample('ses-complaint.json'))), {}, env));
    expect(delivery.events).toHaveLength(1);
  });

  test('a verified SubscriptionConfirmation asks for its SubscribeURL to be visited', async () => {
    const confirmation = signSns(sample('sns-subscription-confirmation.json'), '2');
    confirmation.Timestamp = now.toISOString();
    const delivery = await ses.verify(input(body(signSns(confirmation, '2'))));
    expect(delivery).toEqual({
      events: [],
      confirm: { url: confirmation.SubscribeURL, topicArn: SNS_TOPIC },
    });
  });

  test('a SubscriptionConfirmation whose SubscribeURL leaves AWS is refused', async () => {
    const confirmation = {
      ...sample('sns-subscription-confirmation.json'),
      Timestamp: now.toISOString(),
      SubscribeURL: 'https://evil.example/?Action=ConfirmSubscription',
    };
    await expect(ses.verify(input(body(signSns(confirmation))))).rejects.toMatchObject({ status: 400 });
  });

  test('fails closed without SES_SNS_TOPIC_ARN', async () => {
    const env = { ...WEBHOOK_ENV, SES_SNS_TOPIC_ARN: '' };
    await expect(
      ses.verify(input(body(snsNotification(sample('ses-bounce.json'))), {}, env)),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  test('an unreachable certificate is a 503 to retry, never an acceptance', async () => {
    const broken = createSesProvider({
      fetchCertificate: async () => {
        throw new Error('connect ETIMEDOUT');
      },
      confirmSubscription: async () => undefined,
    });
    await expect(
      broken.verify(input(body(snsNotification(sample('ses-bounce.json'))))),
    ).rejects.toMatchObject({
      status: 503,
    });
  });
});

describe('Postmark', () => {
  test('accepts the Bounce sample behind the right credentials, keeping its 64-bit ID exact', async () => {
    const raw = JSON.stringify(sample('postmark-bounce.json')).replace(
      '"ID":4323372036854776000',
      '"ID":4323372036854775807',
    );
    const delivery = await postmarkProvider.verify(input(raw, { authorization: basicAuth() }));
    expect(delivery.events).toEqual([
      {
        source: 'postmark',
        kind: 'hard_bounce',
        eventId: '4323372036854775807',
        messageId: '883953f4-6105-42a2-a16a-77a8eac79483',
        recipient: 'john@example.com',
        status: undefined,
        diagnostic: 'Test bounce details',
        at: new Date('2019-11-05T16:33:54.907Z'),
      },
    ]);
  });

  test('reads a SpamComplaint, and the Message-ID carried as metadata', async () => {
    const complaint = sample('postmark-spam-complaint.json');
    complaint.Metadata['message-id'] = '<issue-7.42@korvel.example>';
    const delivery = await postmarkProvider.verify(
      input(JSON.stringify(complaint), { authorization: basicAuth() }),
    );
    expect(delivery.events).toMatchObject([
      {
        kind: 'complaint',
        eventId: '42',
        messageId: '<issue-7.42@korvel.example>',
        recipient: 'john@example.com',
      },
    ]);
  });

  test.each([
    ['no credentials', undefined],
    ['a wrong password', basicAuth(undefined, 'guess')],
    ['a wrong user', basicAuth('someone', undefined)],
    ['another scheme', 'Bearer abc'],
  ])('refuses %s with a Basic challenge', async (_name, authorization) => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const error = await refusal(
      postmarkProvider.verify(input(JSON.stringify(sample('postmark-bounce.json')), headers)),
    );
    expect(error.extra.headers?.['www-authenticate']).toMatch(/^Basic realm=/);
  });

  test('fails closed without its credentials configured', async () => {
    const env = { ...WEBHOOK_ENV, POSTMARK_WEBHOOK_PASSWORD: ' ' };
    await expect(
      postmarkProvider.verify(
        input(JSON.stringify(sample('postmark-bounce.json')), { authorization: basicAuth() }, env),
      ),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  test('bad JSON behind the right credentials is a 400', async () => {
    await expect(
      postmarkProvider.verify(input('{"ID":', { authorization: basicAuth() })),
    ).rejects.toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
  });
});

describe('Mailgun', () => {
  const eventData = (name: string) => sample(name)['event-data'];

  test('accepts failed/permanent and complained, signed now, and hands back the token', async () => {
    const failed = await mailgunProvider.verify(
      input(mailgunDelivery(eventData('mailgun-failed-permanent.json'), { token: 't'.repeat(50) })),
    );
    expect(failed.events).toEqual([
      {
        source: 'mailgun',
        kind: 'hard_bounce',
        eventId: 'G9Bn5sl1TC6nu79C8C0bwg',
        messageId: '20130503192659.13651.20287@sandbox.mailgun.org',
        recipient: 'alice@example.com',
        status: undefined,
        diagnostic: '605 Not delivering to previously bounced address',
        at: new Date(1521233195375.624),
      },
    ]);
    expect(failed.nonce?.value).toBe('t'.repeat(50));
    const complained = await mailgunProvider.verify(
      input(mailgunDelivery(eventData('mailgun-complained.json'))),
    );
    expect(complained.events).toMatchObject([{ kind: 'complaint', eventId: '-Agny091SquKnsrW2NEKUA' }]);
  });

  test('a temporary failure is soft; a delivery reports nothing', async () => {
    const temporary = {
      ...eventData('mailgun-failed-permanent.json'),
      severity: 'temporary',
      reason: 'generic',
    };
    expect((await mailgunProvider.verify(input(mailgunDelivery(temporary)))).events).toMatchObject([
      { kind: 'soft_bounce' },
    ]);
    const delivered = { ...eventData('mailgun-complained.json'), event: 'delivered' };
    expect((await mailgunProvider.verify(input(mailgunDelivery(delivered)))).events).toEqual([]);
  });

  test('refuses the published sample as it stands (signed with Mailgun’s key, years ago)', async () => {
    await refusal(mailgunProvider.verify(input(JSON.stringify(sample('mailgun-failed-permanent.json')))));
  });

  test('refuses a signature under another key, and a changed token', async () => {
    await refusal(
      mailgunProvider.verify(
        input(mailgunDelivery(eventData('mailgun-complained.json'), { key: 'key-other' })),
      ),
    );
    const signed = JSON.parse(mailgunDelivery(eventData('mailgun-complained.json')));
    signed.signature.token = 'x'.repeat(50);
    await refusal(mailgunProvider.verify(input(JSON.stringify(signed))));
  });

  test('refuses a timestamp older than five minutes', async () => {
    const old = Math.floor(now.getTime() / 1000) - 5 * 60 - 2;
    const error = await refusal(
      mailgunProvider.verify(
        input(mailgunDelivery(eventData('mailgun-complained.json'), { timestamp: old })),
      ),
    );
    expect(error.reason).toMatch(/stale/);
    const fresh = Math.floor(now.getTime() / 1000) - 4 * 60;
    await expect(
      mailgunProvider.verify(
        input(mailgunDelivery(eventData('mailgun-complained.json'), { timestamp: fresh })),
      ),
    ).resolves.toBeDefined();
  });

  test('the token of a replay is the same nonce, kept past the signature’s window', async () => {
    const delivery = mailgunDelivery(eventData('mailgun-complained.json'));
    const first = await mailgunProvider.verify(input(delivery));
    const replay = await mailgunProvider.verify(input(delivery));
    expect(replay.nonce).toEqual(first.nonce);
    const signedAt = Number(JSON.parse(delivery).signature.timestamp) * 1000;
    expect(first.nonce!.expiresAt.getTime()).toBeGreaterThan(signedAt + 5 * 60_000);
  });

  test('fails closed without MAILGUN_SIGNING_KEY', async () => {
    await expect(
      mailgunProvider.verify(input(mailgunDelivery(eventData('mailgun-complained.json')), {}, {})),
    ).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('SendGrid', () => {
  const batch = JSON.stringify(sample('sendgrid-events.json'));

  test('accepts a signed batch and reads the bounce and the spam report, skipping "processed"', async () => {
    const delivery = await sendgridProvider.verify(input(batch, sendgridHeaders(batch)));
    expect(delivery.events).toEqual([
      {
        source: 'sendgrid',
        kind: 'hard_bounce',
        eventId: '6g4ZI7SA-xmRDv57GoPIPw==',
        messageId: '<14c5d75ce93.dfd.64b469@ismtpd-555>',
        recipient: 'example@test.com',
        status: '5.0.0',
        diagnostic: '500 unknown recipient',
        at: new Date(1513299569_000),
      },
      {
        source: 'sendgrid',
        kind: 'complaint',
        eventId: '37nvH5QBz858KGVYCM4uOA==',
        messageId: '<14c5d75ce93.dfd.64b469@ismtpd-555>',
        recipient: 'example@test.com',
        status: undefined,
        diagnostic: undefined,
        at: new Date(1513299569_000),
      },
    ]);
  });

  test('refuses a signature by another key, a changed body and a missing signature', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    await refusal(sendgridProvider.verify(input(batch, sendgridHeaders(batch, { key: other }))));
    const headers = sendgridHeaders(batch);
    await refusal(sendgridProvider.verify(input(batch.replace('bounce', 'delivered'), headers)));
    await refusal(sendgridProvider.verify(input(batch)));
    const garbled = { ...headers, 'x-twilio-email-event-webhook-signature': 'bm90IERFUg==' };
    await refusal(sendgridProvider.verify(input(batch, garbled)));
  });

  test('refuses a stale timestamp, even with a valid signature over it', async () => {
    const old = Math.floor(now.getTime() / 1000) - 6 * 60;
    const error = await refusal(
      sendgridProvider.verify(input(batch, sendgridHeaders(batch, { timestamp: old }))),
    );
    expect(error.reason).toMatch(/stale/);
  });

  test('refuses a fresh timestamp put on an old signature', async () => {
    const old = Math.floor(now.getTime() / 1000) - 6 * 60;
    const headers = sendgridHeaders(batch, { timestamp: old });
    headers['x-twilio-email-event-webhook-timestamp'] = String(Math.floor(now.getTime() / 1000));
    await refusal(sendgridProvider.verify(input(batch, headers)));
  });

  test('fails closed without a key, and refuses a key that is not P-256', async () => {
    await expect(sendgridProvider.verify(input(batch, sendgridHeaders(batch), {}))).rejects.toBeInstanceOf(
      ConfigError,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    await expect(
      sendgridProvider.verify(input(batch, sendgridHeaders(batch), { SENDGRID_WEBHOOK_PUBLIC_KEY: rsa })),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  test('a verified body that is not an array of events is a 400', async () => {
    const body = '{"event":"bounce"}';
    const error = await sendgridProvider.verify(input(body, sendgridHeaders(body))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
  });
});
