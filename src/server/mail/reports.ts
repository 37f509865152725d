/**
 * Reads a report that came back to a return path: a delivery status notification (RFC 3464,
 * `multipart/report; report-type=delivery-status`) or a complaint (ARF, RFC 5965,
 * `report-type=feedback-report`), as {@link MailEvent}s for applyMailEvent. The MIME structure is read by
 * mailparser, with the report's machine-readable part kept and an attached original message left whole; the
 * fields inside those parts are header-style lines, unfolded here.
 *
 * Which mail a report is about: the VERP token of the address it was sent to (To, Delivered-To, X-Original-To,
 * or an ARF's Original-Mail-From), the Message-ID of the original message or headers it carries, and the
 * recipient it names, in that order (applyMailEvent tries them in turn).
 */
import { createHash } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { MailEvent, MailEventKind } from './events.ts';
import { verpTokenOf } from './links.ts';
import { enhancedStatusOf, recipientVerdict } from './policy.ts';

/** A report larger than this is not a bounce (it would carry a whole issue at most): 413. */
export const REPORT_MAX_BYTES = 2 * 1024 * 1024;

/** Why a message is not a report we read; the inbound endpoint answers 422 with it. */
export class NotAReport extends Error {
  override readonly name = 'NotAReport';
}

type Fields = Map<string, string>;

/** `Name: value` lines (folded lines joined) of one block; the first occurrence of a name wins. */
function fieldsOf(block: string): Fields {
  const fields: Fields = new Map();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** The blocks of a delivery-status or feedback-report part, separated by blank lines. */
const blocksOf = (text: string) =>
  text
    .split(/\r?\n[ \t]*\r?\n/)
    .map(fieldsOf)
    .filter((fields) => fields.size > 0);

/** `rfc822; ana@example.com` → `ana@example.com`. */
const addressOf = (value: string | undefined) =>
  value
    ?.replace(/^[a-z0-9-]+;\s*/i, '')
    .trim()
    .replace(/^<|>$/g, '') || undefined;

const header = (mail: ParsedMail, name: string) => {
  const value = mail.headers.get(name);
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) =>
    typeof v === 'string' ? v : typeof v === 'object' && v && 'text' in v ? String(v.text) : String(v),
  );
};

/** The VERP token among the addresses the report was delivered to, if any carries one. */
function tokenOf(mail: ParsedMail, extra: readonly (string | undefined)[] = []): string | undefined {
  const candidates = [
    ...['delivered-to', 'x-original-to', 'to', 'envelope-to', 'x-envelope-to'].flatMap((name) =>
      header(mail, name),
    ),
    ...extra,
  ];
  for (const candidate of candidates)
    for (const address of candidate?.match(/[^\s<>,;"]+@[^\s<>,;"]+/g) ?? []) {
      const token = verpTokenOf(address);
      if (token) return token;
    }
  return undefined;
}

/** The Message-ID of the original message (message/rfc822) or its headers (text/rfc822-headers). */
async function originalMessageId(mail: ParsedMail, fields: Fields[]): Promise<string | undefined> {
  const original = mail.attachments.find((a) =>
    /^(message\/rfc822|text\/rfc822-headers|message\/global|message\/global-headers)$/i.test(a.contentType),
  );
  if (original) {
    const parsed = await simpleParser(original.content, { skipHtmlToText: true, skipTextToHtml: true });
    if (parsed.messageId) return parsed.messageId;
  }
  // Some relays name it in the report's own fields instead (Gmail: X-Original-Message-ID).
  for (const block of fields) {
    const named = block.get('x-original-message-id') ?? block.get('original-message-id');
    if (named) return named;
  }
  return undefined;
}

/** An id for the report when it has no Message-ID: the hash of its bytes, so a resent copy is still one. */
const reportId = (mail: ParsedMail, raw: Buffer | string) =>
  mail.messageId?.slice(0, 250) ?? `sha256:${createHash('sha256').update(raw).digest('hex')}`;

const partOf = (mail: ParsedMail, type: RegExp) =>
  mail.attachments.find((a) => type.test(a.contentType))?.content.toString('utf8');

/** The bounces a delivery status notification reports, one per failed recipient; a delay reports none. */
async function fromDsn(mail: ParsedMail, raw: Buffer | string): Promise<MailEvent[]> {
  const text = partOf(mail, /^message\/(global-)?delivery-status$/i);
  if (!text) throw new NotAReport('the delivery report has no message/delivery-status part');
  const [perMessage, ...perRecipient] = blocksOf(text);
  if (!perMessage || perRecipient.length === 0)
    throw new NotAReport('the delivery report names no recipient');
  const messageId = await originalMessageId(mail, [perMessage, ...perRecipient]);
  const returnPathToken = tokenOf(mail, [perMessage.get('x-postfix-sender')]);
  const id = reportId(mail, raw);
  const at = mail.date ?? new Date();
  const events: MailEvent[] = [];
  for (const fields of perRecipient) {
    // "delayed", "delivered", "relayed" and "expanded" are news, not failures.
    if (fields.get('action')?.toLowerCase() !== 'failed') continue;
    const diagnostic = fields.get('diagnostic-code')?.replace(/^smtp;\s*/i, '');
    const status = enhancedStatusOf(fields.get('status')) ?? enhancedStatusOf(diagnostic);
    const reply = Number(/^([245]\d\d)\b/.exec(diagnostic ?? '')?.[1]) || undefined;
    const kind = recipientVerdict(reply, status);
    if (!kind) continue;
    const recipient = addressOf(fields.get('original-recipient') ?? fields.get('final-recipient'));
    events.push({
      source: 'dsn',
      kind,
      eventId: `${id}#${recipient ?? events.length}`,
      messageId,
      returnPathToken,
      recipient,
      status,
      diagnostic,
      at,
    });
  }
  return events;
}

/** Feedback types that are a complaint about our mail; `not-spam` and `auth-failure` (DMARC) are not. */
const COMPLAINTS = new Set(['abuse', 'fraud', 'virus', 'other']);

/** The complaint an ARF report makes, if it is one. */
async function fromArf(mail: ParsedMail, raw: Buffer | string): Promise<MailEvent[]> {
  const text = partOf(mail, /^message\/feedback-report$/i);
  if (!text) throw new NotAReport('the feedback report has no message/feedback-report part');
  const [fields] = blocksOf(text);
  const type = fields?.get('feedback-type')?.toLowerCase();
  if (!fields || !type) throw new NotAReport('the feedback report has no Feedback-Type');
  if (!COMPLAINTS.has(type)) return [];
  const kind: MailEventKind = 'complaint';
  const arrival = fields.get('arrival-date') ?? fields.get('received-date');
  const at = arrival && !Number.isNaN(Date.parse(arrival)) ? new Date(arrival) : (mail.date ?? new Date());
  return [
    {
      source: 'arf',
      kind,
      eventId: reportId(mail, raw),
      messageId: await originalMessageId(mail, [fields]),
      returnPathToken: tokenOf(mail, [fields.get('original-mail-from')]),
      recipient: addressOf(fields.get('original-rcpt-to')),
      diagnostic: `feedback type ${type}${fields.get('user-agent') ? ` from ${fields.get('user-agent')}` : ''}`,
      at,
    },
  ];
}

/**
 * The events a raw report (`message/rfc822`) carries: the failed recipients of a DSN, the complaint of an ARF
 * report. Throws {@link NotAReport} for any other message.
 */
export async function readReport(raw: Buffer | string): Promise<MailEvent[]> {
  const mail = await simpleParser(raw, {
    // The report's machine-readable part as an attachment, and an attached original message whole.
    keepDeliveryStatus: true,
    ignoreEmbedded: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  } as Parameters<typeof simpleParser>[1]);
  const type = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> };
  if (type?.value?.toLowerCase() !== 'multipart/report')
    throw new NotAReport('the message is not a multipart/report');
  const reportType = type.params?.['report-type']?.toLowerCase();
  if (reportType === 'delivery-status' || reportType === 'global-delivery-status') return fromDsn(mail, raw);
  if (reportType === 'feedback-report') return fromArf(mail, raw);
  throw new NotAReport(`report-type "${reportType ?? ''}" is neither delivery-status nor feedback-report`);
}
