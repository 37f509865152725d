/**
 * Provider webhooks as the providers send them, signed with the tests' own keys: the published sample bodies
 * of tests/fixtures/mail-events, an SNS envelope signed with a throw-away certificate served by a fake SNS
 * network, Mailgun's HMAC, SendGrid's ECDSA signature and Postmark's basic auth. The unit tests, the API tests
 * and `npm run bench:events` build their deliveries here.
 */
import { createHmac, createSign, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SnsHttp } from '../../src/server/mail/providers/index.ts';

const FIXTURES = new URL('../fixtures/mail-events/', import.meta.url);

const samples = new Map<string, string>();

/** A published sample body, parsed (a fresh copy each call; the file is read once). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- samples are read and changed freely
export function sample(name: string): any {
  let text = samples.get(name);
  if (text === undefined) samples.set(name, (text = readFileSync(new URL(name, FIXTURES), 'utf8')));
  return JSON.parse(text);
}

export const SNS_KEY = readFileSync(new URL('sns-test-only.key.pem', FIXTURES), 'utf8');
export const SNS_CERT = readFileSync(new URL('sns-test-only.cert.pem', FIXTURES), 'utf8');
/** The certificate URL of AWS's own samples; the fake network serves the test certificate there. */
export const SNS_CERT_URL =
  'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem';
export const SNS_TOPIC = 'arn:aws:sns:us-west-2:123456789012:MyTopic';

export const POSTMARK_USER = 'postmark-hooks';
export const POSTMARK_PASSWORD = 'a long random password for the webhook URL';
export const MAILGUN_KEY = 'key-test-only-0123456789abcdef0123456789abcdef';
export const SENDGRID_KEYS = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
/** As SendGrid shows it: the public key, base64 DER (SPKI). */
export const SENDGRID_PUBLIC_KEY = SENDGRID_KEYS.publicKey
  .export({ format: 'der', type: 'spki' })
  .toString('base64');

/** The settings under which every provider accepts the tests' deliveries. */
export const WEBHOOK_ENV = {
  SES_SNS_TOPIC_ARN: SNS_TOPIC,
  POSTMARK_WEBHOOK_USER: POSTMARK_USER,
  POSTMARK_WEBHOOK_PASSWORD: POSTMARK_PASSWORD,
  MAILGUN_SIGNING_KEY: MAILGUN_KEY,
  SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC_KEY,
} as const;

/** A stand-in for SNS's hosts that records what the endpoint fetched and confirmed. */
export interface FakeSns extends SnsHttp {
  fetched: string[];
  confirmed: string[];
}

/** Serves `certificate` at every certificate URL; answers every SubscribeURL. */
export function fakeSns(certificate = SNS_CERT): FakeSns {
  const fake: FakeSns = {
    fetched: [],
    confirmed: [],
    fetchCertificate: async (url) => {
      fake.fetched.push(url);
      return certificate;
    },
    confirmSubscription: async (url) => {
      fake.confirmed.push(url);
    },
  };
  return fake;
}

const SIGNED_KEYS: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
};

/**
 * Signs an SNS envelope as SNS does (the string to sign written out here, independently of the server's),
 * with SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA).
 */
export function signSns(
  envelope: Record<string, string>,
  version: '1' | '2' = '1',
  key: string | KeyObject = SNS_KEY,
): Record<string, string> {
  const message: Record<string, string> = { ...envelope, SignatureVersion: version };
  const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
  for (const name of SIGNED_KEYS[message.Type!]!)
    if (message[name] !== undefined) signer.update(`${name}\n${message[name]}\n`);
  return { ...message, Signature: signer.sign(key, 'base64') };
}

/** AWS's sample notification carrying `ses` (an SES notification object) as its Message, signed now. */
export function snsNotification(
  ses: unknown,
  options: { messageId?: string; now?: Date; version?: '1' | '2' } = {},
): Record<string, string> {
  const envelope = sample('sns-notification.json') as Record<string, string>;
  return signSns(
    {
      ...envelope,
      MessageId: options.messageId ?? envelope.MessageId!,
      Subject: 'Amazon SES Email Event Notification',
      Message: JSON.stringify(ses),
      Timestamp: (options.now ?? new Date()).toISOString(),
    },
    options.version,
  );
}

/** Mailgun's JSON webhook: `event-data` with a signature of `timestamp + token` under `key`. */
export function mailgunDelivery(
  eventData: unknown,
  options: { key?: string; timestamp?: number; token?: string } = {},
): string {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const token = options.token ?? randomBytes(25).toString('hex');
  const signature = createHmac('sha256', options.key ?? MAILGUN_KEY)
    .update(timestamp + token)
    .digest('hex');
  return JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData });
}

/** SendGrid's two headers for `body`, signed at `timestamp` (seconds) with `key`. */
export function sendgridHeaders(
  body: string,
  options: { timestamp?: number; key?: KeyObject } = {},
): Record<string, string> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = sign('sha256', Buffer.from(timestamp + body), {
    key: options.key ?? SENDGRID_KEYS.privateKey,
    dsaEncoding: 'der',
  });
  return {
    'x-twilio-email-event-webhook-signature': signature.toString('base64'),
    'x-twilio-email-event-webhook-timestamp': timestamp,
  };
}

/** `Authorization: Basic …` as Postmark sends it from credentials in the webhook URL. */
export const basicAuth = (user = POSTMARK_USER, password = POSTMARK_PASSWORD) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
