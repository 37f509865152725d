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
import { escapeControls, recordActivity } from '../repositories/activity.ts';
import {
  countSoftBounces,
  recordMailEvent,
  stopMailTo,
  suppress,
  targetById,
  targetByMessageLocal,
  targetByRecipient,
  type EventTarget,
} from '../repositories/suppressions.ts';
import type { MailEvent, MailEventOutcome } from './events.ts';
import { verifyVerpToken } from './links.ts';
import { domainOf, mailFrom } from './settings.ts';
import { SOFT_BOUNCE_LIMIT } from './thresholds.ts';

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

/** Suppresses the event's address for `reason`, stops its mail and logs what changed. */
async function suppressFor(
  tx: Queryable,
  event: MailEvent,
  email: string,
  reason: keyof typeof REASON_TEXT,
  detail: string | null,
): Promise<void> {
  const id = await suppress(tx, { email, reason, source: event.source, detail });
  const subscribers = await stopMailTo(
    tx,
    email,
    reason === 'complaint' ? 'complained' : 'bounced',
    REASON_TEXT[reason],
  );
  if (id === undefined) return;
  const who = subscribers.length ? `, subscriber ${subscribers.join(', ')}` : '';
  await recordActivity(tx, {
    actor: null,
    action: 'suppression.add',
    target: `suppression ${id}: ${reason} from ${event.source}${who}`,
  });
}

/**
 * Applies one verified event exactly once per `(source, eventId)`; see the module header.
 * @returns `unknown` (nothing changed) when it names no mail or address of ours, `duplicate` when it was
 *   applied before, `applied` otherwise.
 */
export async function applyMailEvent(db: Db, event: MailEvent): Promise<MailEventOutcome> {
  const eventId = event.eventId.trim().slice(0, 300);
  if (!eventId) return 'unknown';
  return db.transaction(async (tx) => {
    const target = await targetOf(tx, event);
    if (!target) return 'unknown';
    const at = Number.isNaN(event.at.getTime()) || event.at > new Date() ? new Date() : event.at;
    const detail = diagnosticOf(event.diagnostic, target.email);
    const status = statusOf(event.status) ?? statusOf(event.diagnostic);
    const recorded = await recordMailEvent(tx, {
      source: event.source,
      eventId,
      kind: event.kind,
      target,
      status,
      diagnostic: detail,
      at,
    });
    if (!recorded) return 'duplicate';
    const { email } = target;
    if (email === null) return 'applied';
    // What the list shows: the diagnostic, led by the status code unless it already names it.
    const shown = status && !detail?.includes(status) ? [status, detail].filter(Boolean).join(' ') : detail;
    if (event.kind === 'soft_bounce') {
      if ((await countSoftBounces(tx, email)) >= SOFT_BOUNCE_LIMIT)
        await suppressFor(tx, event, email, 'soft_bounce', shown?.slice(0, 500) ?? null);
    } else {
      await suppressFor(tx, event, email, event.kind, shown?.slice(0, 500) ?? null);
    }
    return 'applied';
  });
}
