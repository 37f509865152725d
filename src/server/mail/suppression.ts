/**
 * What a bounce or complaint does, whichever way it arrived (an SMTP answer at send time, a mailed report, a
 * provider's webhook): it is matched to the mail it is about, recorded once per (source, event id), and
 * - a hard bounce suppresses the address at once and marks its subscriber `bounced`;
 * - a complaint suppresses it and marks its subscriber `complained`;
 * - a soft bounce counts; {@link SOFT_BOUNCE_LIMIT} of them within the window, with no delivery between,
 *   suppress like a hard bounce.
 * A suppressed address's waiting newsletter mail, test copies and acknowledgements are cancelled; the firm's
 * own notifications and its replies about a meeting still go. The activity log records each suppression.
 */
import type { Db, Queryable } from '../db/index.ts';
import { escapeControls } from '../repositories/activity.ts';
import {
  countSoftBounces,
  deliveryWindow,
  recordAndSuppress,
  targetById,
  targetByMessageLocal,
  targetByRecipient,
  type DeliveryWindow,
  type EventTarget,
  type NewMailEvent,
  type NewSuppression,
} from '../repositories/suppressions.ts';
import type { MailEvent, MailEventOutcome } from './events.ts';
import { verifyVerpToken } from './links.ts';
import { domainOf, mailFrom } from './settings.ts';
import {
  BOUNCE_RATE_WARNING,
  COMPLAINT_RATE_CONFIRM,
  COMPLAINT_RATE_WARNING,
  SOFT_BOUNCE_LIMIT,
} from './thresholds.ts';

/** `<campaign.3.17@korvel.example>` → `campaign.3.17` when the domain is ours (MAIL_FROM's), else undefined. */
export function ownMessageLocal(messageId: string, from = mailFrom()): string | undefined {
  const match = /^<?\s*([^<>@\s]{1,250})@([^<>@\s]{1,250})\s*>?$/.exec(messageId.trim());
  if (!match || match[2]!.toLowerCase() !== domainOf(from)) return undefined;
  return match[1];
}

/** A syntactically plain address, or undefined (`rfc822; a@b` and `<a@b>` forms are unwrapped). */
function plainAddress(value: string | undefined): string | undefined {
  const address = value
    ?.trim()
    .replace(/^rfc822;\s*/i, '')
    .replace(/^<|>$/g, '');
  return address && /^[^\s@<>]{1,64}@[^\s@<>]{1,190}$/.test(address) ? address : undefined;
}

/** The mail an event is about: by VERP token, then by Message-ID, then by the address as a last resort. */
async function targetOf(db: Queryable, event: MailEvent): Promise<EventTarget | undefined> {
  const outboxId = event.returnPathToken ? verifyVerpToken(event.returnPathToken) : undefined;
  if (outboxId !== undefined) {
    const target = await targetById(db, outboxId);
    if (target) return target;
  }
  const local = event.messageId ? ownMessageLocal(event.messageId) : undefined;
  if (local) {
    const target = await targetByMessageLocal(db, local);
    if (target) return target;
  }
  const recipient = plainAddress(event.recipient);
  return recipient ? targetByRecipient(db, recipient) : undefined;
}

/** `5.1.1` from whatever the source gave (`smtp; 5.1.1`, `5.1.1 (bad mailbox)`), or null. */
function statusOf(value: string | undefined): string | null {
  return /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(value ?? '')?.[1] ?? null;
}

/** One line for the admin, at most 500 characters, with the recipient's address taken out. */
function diagnosticOf(value: string | undefined, email: string | null): string | null {
  if (!value) return null;
  let line = escapeControls(value.replace(/\r?\n[ \t]*/g, ' ')).trim();
  if (email)
    line = line.replaceAll(new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '(recipient)');
  return line.slice(0, 500) || null;
}

const REASON_TEXT = {
  hard_bounce: 'the address bounced (hard bounce)',
  soft_bounce: 'the address bounced repeatedly (soft bounces)',
  complaint: 'the recipient marked our mail as spam',
} as const;

/**
 * Applies one verified event exactly once per `(source, eventId)`; see the module header.
 * @returns `unknown` (nothing changed) when it names no mail or address of ours, `duplicate` when it was
 *   applied before, `applied` otherwise.
 */
export async function applyMailEvent(db: Db, event: MailEvent): Promise<MailEventOutcome> {
  if (!event.eventId.trim()) return 'unknown';
  return db.transaction(async (tx) => {
    const target = await targetOf(tx, event);
    return target ? applyTo(tx, event, target) : 'unknown';
  });
}

/**
 * The bounces of a batch the worker just sent, each about a row it holds: applied like any event (once per
 * source and event id), in one transaction, without looking the rows up again.
 */
export async function applySendBounces(
  db: Db,
  bounces: ReadonlyArray<{ event: MailEvent; target: EventTarget }>,
): Promise<void> {
  if (bounces.length === 0) return;
  await db.transaction(async (tx) => {
    for (const { event, target } of bounces) await applyTo(tx, event, target);
  });
}

/**
 * An event's own time before this is a sender's mistake (no mail of ours is older) and is replaced by now, as an
 * unreadable or future one is: year 0 or 5000 BC parses in JavaScript but PostgreSQL refuses to store it.
 */
const EARLIEST_EVENT_TIME = Date.UTC(2000, 0, 1);

/** Records `event` about `target` once and does what its kind does (see the module header). */
async function applyTo(
  tx: Queryable,
  event: MailEvent,
  target: EventTarget,
): Promise<'applied' | 'duplicate'> {
  const time = event.at.getTime();
  const at = Number.isNaN(time) || time < EARLIEST_EVENT_TIME || time > Date.now() ? new Date() : event.at;
  const detail = diagnosticOf(event.diagnostic, target.email);
  const status = statusOf(event.status) ?? statusOf(event.diagnostic);
  const recorded: NewMailEvent = {
    source: event.source,
    eventId: event.eventId.trim().slice(0, 300),
    kind: event.kind,
    target,
    status,
    diagnostic: detail,
    at,
  };
  const { email } = target;
  // What the list shows: the diagnostic, led by the status code unless it already names it.
  const shown = status && !detail?.includes(status) ? [status, detail].filter(Boolean).join(' ') : detail;
  const suppression = (reason: keyof typeof REASON_TEXT): NewSuppression | null =>
    email === null
      ? null
      : {
          email,
          reason,
          source: event.source,
          detail: shown?.slice(0, 500) ?? null,
          status: reason === 'complaint' ? 'complained' : 'bounced',
          cancelReason: REASON_TEXT[reason],
        };
  if (event.kind !== 'soft_bounce')
    return (await recordAndSuppress(tx, recorded, suppression(event.kind))) ? 'applied' : 'duplicate';
  if (!(await recordAndSuppress(tx, recorded, null))) return 'duplicate';
  if (email !== null && (await countSoftBounces(tx, email)) >= SOFT_BOUNCE_LIMIT)
    await recordAndSuppress(tx, null, suppression('soft_bounce'));
  return 'applied';
}

/** The 30-day figures, with what the admin warns about and whether an issue's send needs the owner's word. */
export interface Deliverability extends DeliveryWindow {
  warnings: { bounces: boolean; complaints: boolean };
  /** Complaints are above {@link COMPLAINT_RATE_CONFIRM}: sending an issue needs the owner's confirmation. */
  sendNeedsConfirmation: boolean;
  thresholds: { bounceWarning: number; complaintWarning: number; complaintConfirm: number };
}

/** The last 30 days of bounces and complaints against the thresholds (thresholds.ts). */
export async function deliverability(db: Queryable): Promise<Deliverability> {
  const window = await deliveryWindow(db);
  return {
    ...window,
    warnings: {
      bounces: (window.bounceRate ?? 0) > BOUNCE_RATE_WARNING,
      complaints: (window.complaintRate ?? 0) > COMPLAINT_RATE_WARNING,
    },
    sendNeedsConfirmation: (window.complaintRate ?? 0) > COMPLAINT_RATE_CONFIRM,
    thresholds: {
      bounceWarning: BOUNCE_RATE_WARNING,
      complaintWarning: COMPLAINT_RATE_WARNING,
      complaintConfirm: COMPLAINT_RATE_CONFIRM,
    },
  };
}
