/**
 * Amazon SES bounce and complaint notifications, delivered by Amazon SNS to `POST /api/mail/events/ses`.
 * SNS signs every message with a certificate it publishes on its own host; we verify exactly as AWS documents
 * ("Verifying the signatures of Amazon SNS messages"):
 * 1. the certificate URL must be `https://sns.<region>.amazonaws.com/….pem` — any other host, scheme, port or
 *    credentials is refused before anything is fetched;
 * 2. the string to sign is `key\nvalue\n` for the documented keys of the message type, in byte order
 *    (Notification: Message, MessageId, Subject if present, Timestamp, TopicArn, Type; the two
 *    subscription messages: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type);
 * 3. `SignatureVersion` 1 is SHA1withRSA, 2 is SHA256withRSA, anything else is refused.
 * Then the topic must be one of `SES_SNS_TOPIC_ARN` (fail closed when unset) and the message at most an hour
 * old (SNS retries a failed delivery with the message it signed first, for up to an hour under its delivery
 * policies). The certificate is fetched once per URL and kept for a day (at most 16 URLs) behind an
 * injectable fetcher: tests serve their own certificate and never touch the network.
 */
import { createVerify, X509Certificate, type KeyObject } from 'node:crypto';
import * as z from 'zod/mini';
import { HttpError } from '../../http.ts';
import type { MailEvent, MailEventKind } from '../events.ts';
import {
  dateOf,
  enhancedStatus,
  oneLine,
  parseJson,
  payload,
  requireFresh,
  secret,
  text,
  WebhookRefusedError,
  type VerifiedDelivery,
  type WebhookInput,
  type WebhookProvider,
} from './common.ts';

/** What the endpoint needs from the network for SNS: the signing certificate, and a subscription confirmed. */
export interface SnsHttp {
  /** The PEM text at `url`; throws when it cannot be fetched. Only ever called with a checked SNS URL. */
  fetchCertificate(url: string): Promise<string>;
  /** Visits a SubscribeURL (a GET, as AWS documents); throws when SNS does not answer 2xx. */
  confirmSubscription(url: string): Promise<void>;
}

/** SNS retries with the first signed message; its delivery policies cap the retry phase at an hour. */
export const SNS_MAX_AGE_MS = 60 * 60 * 1000;
const CERT_TTL_MS = 24 * 60 * 60 * 1000;
const CERT_CACHE_SIZE = 16;
const CERT_MAX_BYTES = 16 * 1024;

/** `sns.eu-central-1.amazonaws.com`, `sns.us-gov-west-1.amazonaws.com`: a region, then AWS's own domain. */
const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d{1,2}\.amazonaws\.com$/;

/**
 * Whether `value` is an https URL on an SNS host of AWS, with no port, credentials or fragment, and (for a
 * certificate) a path ending in `.pem`. Everything SNS asks us to fetch passes through here first.
 */
export function isSnsUrl(value: string, kind: 'certificate' | 'subscribe'): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    SNS_HOST.test(url.hostname) &&
    url.port === '' &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    (kind === 'subscribe' || (url.search === '' && url.pathname.endsWith('.pem')))
  );
}

const NOTIFICATION_KEYS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const SUBSCRIPTION_KEYS = [
  'Message',
  'MessageId',
  'SubscribeURL',
  'Timestamp',
  'Token',
  'TopicArn',
  'Type',
] as const;

const envelopeSchema = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: text(200),
  TopicArn: text(300),
  Message: z.string(),
  Subject: z.optional(z.nullable(text(200))),
  Timestamp: text(40),
  SignatureVersion: z.string(),
  Signature: text(2048),
  SigningCertURL: text(500),
  SubscribeURL: z.optional(text(2000)),
  Token: z.optional(text(2000)),
});
type Envelope = z.infer<typeof envelopeSchema>;

/** The AWS-documented string to sign for this message type; absent optional keys are left out. */
export function snsStringToSign(message: Envelope): string {
  const keys = message.Type === 'Notification' ? NOTIFICATION_KEYS : SUBSCRIPTION_KEYS;
  let signed = '';
  for (const key of keys) {
    const value = message[key];
    if (typeof value === 'string') signed += `${key}\n${value}\n`;
  }
  return signed;
}

/** Fetches over https with a 5 s limit; the certificate body is capped and must be a PEM certificate. */
export const networkSnsHttp: SnsHttp = {
  async fetchCertificate(url) {
    const reply = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
    if (!reply.ok) throw new Error(`SNS certificate ${url} answered ${reply.status}`);
    const body = await reply.text();
    if (body.length > CERT_MAX_BYTES) throw new Error(`SNS certificate ${url} is larger than expected`);
    return body;
  },
  async confirmSubscription(url) {
    const reply = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
    await reply.body?.cancel();
    if (!reply.ok) throw new Error(`SNS SubscribeURL answered ${reply.status}`);
  },
};

/** The topics we accept: `SES_SNS_TOPIC_ARN`, one ARN or several separated by commas. */
function topics(env: NodeJS.ProcessEnv): string[] {
  return secret(env, 'SES_SNS_TOPIC_ARN')
    .split(',')
    .map((arn) => arn.trim())
    .filter(Boolean);
}

const recipientSchema = z.object({
  emailAddress: text(320),
  status: z.optional(z.nullable(text(20))),
  diagnosticCode: z.optional(z.nullable(z.string())),
});

/** The SES notification inside the SNS message: the fields we read, whatever else SES adds. */
const sesSchema = z.object({
  notificationType: z.optional(z.string()),
  eventType: z.optional(z.string()),
  mail: z.object({
    messageId: text(200),
    commonHeaders: z.optional(z.object({ messageId: z.optional(text(998)) })),
  }),
  bounce: z.optional(
    z.object({
      bounceType: z.string(),
      bounceSubType: z.optional(z.string()),
      bouncedRecipients: z.array(recipientSchema).check(z.minLength(1), z.maxLength(100)),
      timestamp: text(40),
    }),
  ),
  complaint: z.optional(
    z.object({
      complainedRecipients: z
        .array(z.object({ emailAddress: text(320) }))
        .check(z.minLength(1), z.maxLength(100)),
      complaintFeedbackType: z.optional(z.string()),
      timestamp: text(40),
    }),
  ),
});

/**
 * Normalises one SES notification. `Permanent` bounces are hard, `Transient` and `Undetermined` soft; a
 * complaint of any feedback type is a complaint. Deliveries, sends and opens report nothing we act on.
 * One event per recipient; with several, the id is the SNS MessageId and the recipient's place.
 */
export function sesEvents(snsMessageId: string, message: unknown): MailEvent[] {
  const ses = payload(sesSchema, message);
  const type = ses.notificationType ?? ses.eventType;
  const messageId = ses.mail.commonHeaders?.messageId;
  const idOf = (index: number, count: number) => (count === 1 ? snsMessageId : `${snsMessageId}#${index}`);
  if (type === 'Bounce') {
    if (!ses.bounce) throw new HttpError(400, 'invalid_event', 'A bounce notification without its bounce.');
    const { bounce } = ses;
    const kind: MailEventKind = bounce.bounceType === 'Permanent' ? 'hard_bounce' : 'soft_bounce';
    const at = dateOf(bounce.timestamp, 'iso');
    return bounce.bouncedRecipients.map((r, i, all) => ({
      source: 'ses',
      kind,
      eventId: idOf(i, all.length),
      messageId,
      recipient: r.emailAddress,
      status: enhancedStatus(r.status) ?? enhancedStatus(r.diagnosticCode),
      diagnostic: oneLine(r.diagnosticCode) ?? oneLine(`${bounce.bounceType} ${bounce.bounceSubType ?? ''}`),
      at,
    }));
  }
  if (type === 'Complaint') {
    if (!ses.complaint)
      throw new HttpError(400, 'invalid_event', 'A complaint notification without its complaint.');
    const { complaint } = ses;
    const at = dateOf(complaint.timestamp, 'iso');
    return complaint.complainedRecipients.map((r, i, all) => ({
      source: 'ses',
      kind: 'complaint',
      eventId: idOf(i, all.length),
      messageId,
      recipient: r.emailAddress,
      diagnostic: oneLine(
        complaint.complaintFeedbackType && `feedback type ${complaint.complaintFeedbackType}`,
      ),
      at,
    }));
  }
  return [];
}

/** Verifies SNS deliveries with the given network access (tests hand in their own). */
export function createSesProvider(http: SnsHttp): WebhookProvider {
  const certificates = new Map<string, { key: KeyObject; until: number }>();

  async function signingKey(url: string, now: Date): Promise<KeyObject> {
    const cached = certificates.get(url);
    if (cached && cached.until > now.getTime()) return cached.key;
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(await http.fetchCertificate(url));
    } catch (error) {
      console.error(`[mail-events] SNS certificate unavailable: ${(error as Error).message}`);
      throw new HttpError(
        503,
        'service_unavailable',
        'The signing certificate could not be read. Try again.',
        {
          headers: { 'retry-after': '60' },
        },
      );
    }
    const validTo = new Date(certificate.validTo).getTime();
    if (new Date(certificate.validFrom).getTime() > now.getTime() || validTo < now.getTime())
      throw new WebhookRefusedError('SNS certificate outside its validity');
    if (certificates.size >= CERT_CACHE_SIZE) certificates.delete(certificates.keys().next().value!);
    const key = certificate.publicKey;
    certificates.set(url, { key, until: Math.min(now.getTime() + CERT_TTL_MS, validTo) });
    return key;
  }

  return {
    async verify({ headers, body, now, env }: WebhookInput): Promise<VerifiedDelivery> {
      const accepted = topics(env);
      const message = payload(envelopeSchema, parseJson(body));
      const declared = headers.get('x-amz-sns-message-type');
      if (declared !== null && declared !== message.Type)
        throw new HttpError(400, 'invalid_event', 'x-amz-sns-message-type does not match the message.');
      if (message.SignatureVersion !== '1' && message.SignatureVersion !== '2')
        throw new WebhookRefusedError(`SignatureVersion ${message.SignatureVersion.slice(0, 10)}`);
      if (!isSnsUrl(message.SigningCertURL, 'certificate'))
        throw new WebhookRefusedError('certificate URL not on an SNS host');
      if (!accepted.includes(message.TopicArn)) throw new WebhookRefusedError('topic not configured');
      requireFresh(dateOf(message.Timestamp, 'iso'), now, SNS_MAX_AGE_MS);

      const verifier = createVerify(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
      verifier.update(snsStringToSign(message), 'utf8');
      const key = await signingKey(message.SigningCertURL, now);
      if (!verifier.verify(key, message.Signature, 'base64'))
        throw new WebhookRefusedError('bad SNS signature');

      if (message.Type === 'SubscriptionConfirmation') {
        if (!message.SubscribeURL || !isSnsUrl(message.SubscribeURL, 'subscribe'))
          throw new HttpError(400, 'invalid_event', 'The SubscribeURL is not an SNS address.');
        return { events: [], confirm: { url: message.SubscribeURL, topicArn: message.TopicArn } };
      }
      if (message.Type === 'UnsubscribeConfirmation')
        return { events: [], note: `SNS unsubscribed ${message.TopicArn}` };
      return { events: sesEvents(message.MessageId, parseJson(message.Message)) };
    },
  };
}
