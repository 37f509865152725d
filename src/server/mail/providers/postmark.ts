/**
 * Postmark bounce and spam-complaint webhooks (`POST /api/mail/events/postmark`). Postmark's documented
 * protection is HTTP basic auth in the webhook URL (`https://user:password@…`); we compare both parts with
 * `POSTMARK_WEBHOOK_USER` and `POSTMARK_WEBHOOK_PASSWORD` in constant time. Postmark signs nothing and sends no
 * timestamp, so a repeated delivery is recognised by its event id (`ID`) where it is applied, never refused.
 */
import * as z from 'zod/mini';
import type { MailEvent, MailEventKind } from '../events.ts';
import {
  dateOf,
  enhancedStatus,
  oneLine,
  parseJson,
  payload,
  sameText,
  secret,
  text,
  WebhookRefusedError,
  type WebhookInput,
  type WebhookProvider,
} from './common.ts';

const CHALLENGE = { 'www-authenticate': 'Basic realm="mail-events", charset="UTF-8"' };

/** Postmark's bounce `Type`s by what they mean for the address; the rest (auto-replies, opens …) are ignored. */
const KINDS: Record<string, MailEventKind> = {
  HardBounce: 'hard_bounce',
  BadEmailAddress: 'hard_bounce',
  SoftBounce: 'soft_bounce',
  Transient: 'soft_bounce',
  DnsError: 'soft_bounce',
  Blocked: 'soft_bounce',
  SpamComplaint: 'complaint',
};

const postmarkSchema = z.object({
  RecordType: z.string(),
  ID: z.optional(z.union([z.number(), text(40)])),
  Type: z.optional(z.string()),
  MessageID: z.optional(text(200)),
  Email: z.optional(text(320)),
  Details: z.optional(z.nullable(z.string())),
  Description: z.optional(z.nullable(z.string())),
  BouncedAt: z.optional(text(40)),
  Metadata: z.optional(z.record(z.string(), z.unknown())),
});

/**
 * The outgoing Message-ID, when the mail carried it as Postmark metadata (`X-PM-Metadata-message-id`);
 * otherwise Postmark's own `MessageID`, which is what Postmark's SMTP service answers a send with.
 */
function messageIdOf(body: z.infer<typeof postmarkSchema>): string | undefined {
  const metadata = body.Metadata?.['message-id'];
  return typeof metadata === 'string' && metadata.length <= 998 ? metadata : body.MessageID;
}

/** Normalises one Postmark webhook body; a record other than a bounce or complaint reports nothing. */
export function postmarkEvents(input: unknown): MailEvent[] {
  const body = payload(postmarkSchema, input);
  if (body.RecordType !== 'Bounce' && body.RecordType !== 'SpamComplaint') return [];
  const kind = body.RecordType === 'SpamComplaint' ? 'complaint' : KINDS[body.Type ?? ''];
  if (!kind) return [];
  const required = payload(
    z.object({ ID: z.union([z.number(), text(40)]), Email: text(320), BouncedAt: text(40) }),
    body,
  );
  return [
    {
      source: 'postmark',
      kind,
      eventId: String(required.ID),
      messageId: messageIdOf(body),
      recipient: required.Email,
      status: enhancedStatus(body.Details),
      diagnostic: oneLine(body.Details) ?? oneLine(body.Description),
      at: dateOf(required.BouncedAt, 'iso'),
    },
  ];
}

/** `Authorization: Basic …` → [user, password], or undefined when absent or malformed. */
function basicCredentials(header: string | null): [string, string] | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

export const postmarkProvider: WebhookProvider = {
  async verify({ headers, body, env }: WebhookInput) {
    const user = secret(env, 'POSTMARK_WEBHOOK_USER');
    const password = secret(env, 'POSTMARK_WEBHOOK_PASSWORD');
    const given = basicCredentials(headers.get('authorization'));
    if (!given) throw new WebhookRefusedError('no basic credentials', CHALLENGE);
    // Both comparisons always run: which part was wrong takes no more time than the other.
    const userOk = sameText(given[0], user);
    const passwordOk = sameText(given[1], password);
    if (!userOk || !passwordOk) throw new WebhookRefusedError('wrong basic credentials', CHALLENGE);
    return { events: postmarkEvents(parseJson(body)) };
  },
};
