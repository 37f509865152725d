/**
 * SendGrid's signed Event Webhook (`POST /api/mail/events/sendgrid`): a JSON array of events. As Twilio
 * documents, `X-Twilio-Email-Event-Webhook-Signature` is a base64 ECDSA signature (P-256, SHA-256, DER) over
 * the timestamp header followed by the raw body, verified with the public key shown when signing is enabled
 * (`SENDGRID_WEBHOOK_PUBLIC_KEY`, base64 DER). A timestamp older than five minutes is refused.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import * as z from 'zod/mini';
import { ConfigError } from '../../config.ts';
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
  type WebhookInput,
  type WebhookProvider,
} from './common.ts';

export const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';
export const SENDGRID_MAX_AGE_MS = 5 * 60 * 1000;

const eventSchema = z.object({
  event: z.string(),
  email: z.optional(text(320)),
  timestamp: z.optional(z.number()),
  sg_event_id: z.optional(text(200)),
  'smtp-id': z.optional(text(998)),
  type: z.optional(z.string()),
  status: z.optional(z.nullable(z.string())),
  reason: z.optional(z.nullable(z.string())),
});

/**
 * `bounce` of type `bounce` is hard, of type `blocked` soft (SendGrid's own split); `spamreport` is a
 * complaint; a `dropped` mail to an address SendGrid keeps for an earlier bounce or spam report is that.
 */
function kindOf(event: z.infer<typeof eventSchema>): MailEventKind | undefined {
  switch (event.event) {
    case 'bounce':
      return event.type === 'blocked' ? 'soft_bounce' : 'hard_bounce';
    case 'spamreport':
      return 'complaint';
    case 'dropped':
      return event.reason === 'Bounced Address'
        ? 'hard_bounce'
        : event.reason === 'Spam Reporting Address'
          ? 'complaint'
          : undefined;
    default:
      return undefined;
  }
}

/** Normalises a batch; events we do not act on (processed, delivered, open …) are left out. */
export function sendgridEvents(input: unknown): MailEvent[] {
  const batch = payload(z.array(eventSchema).check(z.maxLength(10_000)), input);
  const events: MailEvent[] = [];
  for (const event of batch) {
    const kind = kindOf(event);
    if (!kind) continue;
    const required = payload(
      z.object({ sg_event_id: text(200), email: text(320), timestamp: z.number() }),
      event,
    );
    events.push({
      source: 'sendgrid',
      kind,
      eventId: required.sg_event_id,
      messageId: event['smtp-id'],
      recipient: required.email,
      status: enhancedStatus(event.status) ?? enhancedStatus(event.reason),
      diagnostic: oneLine(event.reason),
      at: dateOf(required.timestamp, 'seconds'),
    });
  }
  return events;
}

let cachedKey: { text: string; key: KeyObject } | undefined;

/** The configured key, parsed once; anything but a P-256 public key is a configuration error (503). */
function publicKey(env: NodeJS.ProcessEnv): KeyObject {
  const configured = secret(env, 'SENDGRID_WEBHOOK_PUBLIC_KEY');
  if (cachedKey?.text === configured) return cachedKey.key;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(configured, 'base64'), format: 'der', type: 'spki' });
  } catch {
    throw new ConfigError('SENDGRID_WEBHOOK_PUBLIC_KEY is not a base64 DER public key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new ConfigError('SENDGRID_WEBHOOK_PUBLIC_KEY is not an ECDSA P-256 key');
  cachedKey = { text: configured, key };
  return key;
}

/** A malformed signature (not DER) makes node:crypto throw: that is a bad signature too. */
function signatureValid(key: KeyObject, signed: Buffer, signature: string): boolean {
  try {
    return verify('sha256', signed, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

export const sendgridProvider: WebhookProvider = {
  async verify({ headers, body, now, env }: WebhookInput) {
    const key = publicKey(env);
    const signature = headers.get(SIGNATURE_HEADER)?.trim() ?? '';
    const timestamp = headers.get(TIMESTAMP_HEADER)?.trim() ?? '';
    if (!signature || !/^\d{1,12}$/.test(timestamp)) throw new WebhookRefusedError('no SendGrid signature');
    const signed = Buffer.concat([Buffer.from(timestamp, 'utf8'), Buffer.from(body, 'utf8')]);
    if (!signatureValid(key, signed, signature)) throw new WebhookRefusedError('bad SendGrid signature');
    requireFresh(dateOf(timestamp, 'seconds'), now, SENDGRID_MAX_AGE_MS);
    return { events: sendgridEvents(parseJson(body)) };
  },
};
