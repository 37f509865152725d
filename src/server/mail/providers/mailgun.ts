/**
 * Mailgun's JSON webhooks (`POST /api/mail/events/mailgun`): `{ "signature": {timestamp, token, signature},
 * "event-data": {…} }`. As Mailgun documents, the signature is the hex HMAC-SHA-256 of `timestamp + token`
 * under the webhook signing key (`MAILGUN_SIGNING_KEY`); we compare it in constant time, refuse a timestamp
 * older than five minutes and hand the token back as a nonce, so the endpoint refuses a token it has seen.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import type { MailEvent, MailEventKind } from '../events.ts';
import {
  CLOCK_SKEW_MS,
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

/** Mailgun's documented window: a signature older than this is refused. */
export const MAILGUN_MAX_AGE_MS = 5 * 60 * 1000;

const signatureSchema = z.object({
  timestamp: z.union([text(20), z.number()]),
  token: text(200),
  signature: text(200),
});

const eventSchema = z.object({
  event: z.string(),
  id: text(200),
  timestamp: z.number(),
  severity: z.optional(z.string()),
  reason: z.optional(z.nullable(z.string())),
  recipient: z.optional(text(320)),
  message: z.optional(z.object({ headers: z.optional(z.object({ 'message-id': z.optional(text(998)) })) })),
  'delivery-status': z.optional(
    z.object({
      code: z.optional(z.nullable(z.union([z.number(), z.string()]))),
      'enhanced-code': z.optional(z.nullable(z.string())),
      message: z.optional(z.nullable(z.string())),
      description: z.optional(z.nullable(z.string())),
    }),
  ),
});

/**
 * What a `failed` event means for the address. Permanent failures for a bounce (now or earlier: Mailgun's
 * `suppress-bounce`) are hard; an earlier complaint (`suppress-complaint`) is a complaint; a mail Mailgun gave
 * up retrying (`old`) and temporary failures are soft; an address Mailgun keeps on its unsubscribe list is
 * ours to handle, not a bounce.
 */
function failedKind(event: z.infer<typeof eventSchema>): MailEventKind | undefined {
  if (event.severity !== 'permanent') return 'soft_bounce';
  switch (event.reason) {
    case 'suppress-complaint':
      return 'complaint';
    case 'suppress-unsubscribe':
      return undefined;
    case 'old':
      return 'soft_bounce';
    default:
      return 'hard_bounce';
  }
}

/** Normalises Mailgun's `event-data`: `failed` and `complained` report something; every other event nothing. */
export function mailgunEvents(data: unknown): MailEvent[] {
  const event = payload(eventSchema, data);
  const kind =
    event.event === 'complained' ? 'complaint' : event.event === 'failed' ? failedKind(event) : undefined;
  if (!kind) return [];
  const status = event['delivery-status'];
  const words = [status?.code, status?.message || status?.description].filter(Boolean).join(' ');
  return [
    {
      source: 'mailgun',
      kind,
      eventId: event.id,
      messageId: event.message?.headers?.['message-id'],
      recipient: event.recipient,
      status: enhancedStatus(status?.['enhanced-code']) ?? enhancedStatus(words),
      diagnostic: oneLine(words) ?? oneLine(event.reason),
      at: dateOf(event.timestamp, 'seconds'),
    },
  ];
}

export const mailgunProvider: WebhookProvider = {
  async verify({ body, now, env }: WebhookInput) {
    const key = secret(env, 'MAILGUN_SIGNING_KEY');
    const envelope = payload(
      z.object({ signature: signatureSchema, 'event-data': z.unknown() }),
      parseJson(body),
    );
    const { timestamp, token, signature } = envelope.signature;
    if (!/^\d{1,12}$/.test(String(timestamp))) throw new WebhookRefusedError('unreadable timestamp');
    const expected = createHmac('sha256', key).update(`${timestamp}${token}`).digest();
    const given = Buffer.from(/^[0-9a-f]{64}$/i.test(signature) ? signature : '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new WebhookRefusedError('bad Mailgun signature');
    const signedAt = dateOf(timestamp, 'seconds');
    requireFresh(signedAt, now, MAILGUN_MAX_AGE_MS);
    return {
      events: mailgunEvents(envelope['event-data']),
      // Kept past the window (plus the skew we allow) so the token cannot come back while it is still fresh.
      nonce: {
        value: token,
        expiresAt: new Date(signedAt.getTime() + MAILGUN_MAX_AGE_MS + CLOCK_SKEW_MS),
      },
    };
  },
};
