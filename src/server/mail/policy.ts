/**
 * When the outbox tries a mail again, and when it gives up. Pure functions, so the schedule is tested
 * without a clock or a server.
 */

/** The first retry comes within 30 s: 15 s, then doubling. */
export const FIRST_RETRY_SECONDS = 15;
/** No mail waits longer than this between attempts. */
export const MAX_RETRY_SECONDS = 15 * 60;
/** A mail still undelivered this long after it was queued is marked `failed`. */
export const GIVE_UP_AFTER_SECONDS = 24 * 60 * 60;
/** A permanent refusal (SMTP 5xx) is tried this many times in all, in case the server misjudged it. */
export const PERMANENT_ATTEMPTS = 3;

/**
 * What went wrong with one attempt:
 * - `connection`: the SMTP server could not be reached or refused us as a client (every mail waits);
 * - `temporary`: a 4xx reply or a dropped connection mid-message (this mail waits);
 * - `permanent`: a 5xx reply, or a mail that cannot be rendered (this mail fails after a few tries).
 */
export type FailureKind = 'connection' | 'temporary' | 'permanent';

/** Seconds to wait after the `attempts`-th failed attempt (1-based): 15, 30, 60 … capped at 15 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

export type AfterFailure = { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };

/** The outbox row's next state after a failed attempt. */
export function afterFailure(input: {
  attempts: number;
  /** When the current delivery budget started (queued, or retried by the admin). */
  queuedAt: Date;
  kind: FailureKind;
  now: Date;
}): AfterFailure {
  const { attempts, queuedAt, kind, now } = input;
  if (kind === 'permanent' && attempts >= PERMANENT_ATTEMPTS) return { status: 'failed' };
  const next = new Date(now.getTime() + retryDelaySeconds(attempts) * 1000);
  if (next.getTime() - queuedAt.getTime() > GIVE_UP_AFTER_SECONDS * 1000) return { status: 'failed' };
  return { status: 'pending', nextAttemptAt: next };
}

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
}

/** nodemailer's codes for a server that cannot be reached, or that drops or refuses us as a client. */
const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ESOCKET',
  'ETIMEDOUT',
  'EDNS',
  'ETLS',
  'EAUTH',
  'ENOAUTH',
  'EPROXY',
]);

/**
 * A relay's refusal to pass our mail on (Postfix "Relay access denied", Sendmail "Relaying denied", Exchange
 * "Unable to relay", Exim "relay not permitted"), whatever enhanced code comes with it (often 5.7.1).
 */
const RELAY_REFUSED =
  /\b(?:relay(?:ing)?\s+(?:access\s+)?(?:denied|not\s+permitted|not\s+allowed|prohibited)|unable\s+to\s+relay)\b/i;

/** Sorts a nodemailer error into a {@link FailureKind}. */
export function classifySmtpError(error: unknown): FailureKind {
  const { code, responseCode, command } = (error ?? {}) as SmtpError;
  if (typeof responseCode === 'number') {
    // A refusal before any message is offered (greeting, EHLO, STARTTLS, AUTH) concerns us as a client,
    // not this mail: every mail waits until the server (or its configuration) is right again.
    if (typeof command === 'string' && /^(CONN|EHLO|HELO|LHLO|STARTTLS|AUTH)/.test(command))
      return 'connection';
    // So does a relay that will not pass our mail on (SMTP_URL without its credentials, say): it refuses
    // every recipient alike, and read as each recipient's hard bounce it would empty the list in one issue.
    const response = (error as { response?: unknown }).response;
    if (typeof response === 'string' && RELAY_REFUSED.test(response)) return 'connection';
    return responseCode >= 500 ? 'permanent' : 'temporary';
  }
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'connection';
  return 'temporary';
}

/** One line for the admin: the SMTP reply or the error's message, without newlines, at most 500 characters. */
export function describeError(error: unknown): string {
  const { responseCode } = (error ?? {}) as SmtpError;
  const response = (error as { response?: unknown })?.response;
  const text =
    typeof response === 'string' && response
      ? response
      : error instanceof Error
        ? error.message
        : String(error);
  const line = text.replace(/\p{Cc}+/gu, ' ').trim();
  const prefixed =
    typeof responseCode === 'number' && !line.startsWith(String(responseCode))
      ? `${responseCode} ${line}`
      : line;
  return prefixed.slice(0, 500);
}

/**
 * What an answer says about the recipient (RFC 3463 enhanced status codes, read with the reply code):
 * - `hard_bounce`: the recipient does not exist or refuses us for good; the address is suppressed at once and
 *   the mail not tried again;
 * - `soft_bounce`: a mailbox full or a transient refusal; the mail is retried as any temporary failure, and
 *   repeated soft bounces suppress the address (thresholds.ts);
 * - undefined: the answer is about us, the message or the server, not the recipient (a refused sender, a
 *   message too large, an authentication failure): the existing policy handles it and nobody is suppressed.
 */
export type RecipientVerdict = 'hard_bounce' | 'soft_bounce' | undefined;

/**
 * Enhanced codes that mean a permanent failure of the recipient, stated per code: 5.1.0 other address status,
 * 5.1.1 no such mailbox, 5.1.2 no such domain, 5.1.3 bad address syntax, 5.1.4 ambiguous address, 5.1.5 bad
 * destination mailbox, 5.1.6 mailbox moved, 5.1.10 null MX (RFC 7505); 5.2.1 mailbox disabled; 5.7.1 delivery
 * not authorised (the recipient's system refuses our mail). 5.1.7 and 5.1.8 are about the sender's address,
 * so they are ours to fix, not the recipient's.
 */
const HARD_CODES = new Set([
  '5.1.0',
  '5.1.1',
  '5.1.2',
  '5.1.3',
  '5.1.4',
  '5.1.5',
  '5.1.6',
  '5.1.10',
  '5.2.1',
  '5.7.1',
]);
/** 5.2.2 mailbox full: permanent by its class, but a mailbox empties; it counts as a soft bounce. */
const SOFT_PERMANENT_CODES = new Set(['5.2.2']);

/** The recipient's verdict from a reply code and an enhanced status code (either may be missing). */
export function recipientVerdict(reply: number | undefined, status: string | undefined): RecipientVerdict {
  if (status) {
    const [klass, subject] = status.split('.');
    if (klass === '4') return 'soft_bounce';
    if (klass === '5') {
      if (HARD_CODES.has(status)) return 'hard_bounce';
      if (SOFT_PERMANENT_CODES.has(status)) return 'soft_bounce';
      return subject === '1' && !['5.1.7', '5.1.8', '5.1.9'].includes(status) ? 'hard_bounce' : undefined;
    }
    return undefined;
  }
  // No enhanced code: RFC 5321's own words. 550 mailbox unavailable, 551 user not local, 553 mailbox name not
  // allowed; 552 storage exceeded; 450–452 (and other 4xx but 421, the server closing) are transient.
  if (reply === 550 || reply === 551 || reply === 553) return 'hard_bounce';
  if (reply === 552) return 'soft_bounce';
  if (reply !== undefined && reply >= 400 && reply < 500 && reply !== 421) return 'soft_bounce';
  return undefined;
}

/** `5.1.1` in an SMTP reply or a report's Status field, or undefined. */
export const enhancedStatusOf = (text: string | undefined): string | undefined =>
  /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(text ?? '')?.[1];

/**
 * The recipient's verdict on a failed send. nodemailer's pooled transport reports a refused RCPT of a
 * single-recipient mail as an error with `responseCode` and `response`; both are read. A failure of the
 * connection or of the server as a whole (see {@link classifySmtpError}), a refusal of our sender (MAIL FROM)
 * and 421 are never a bounce: they stay the outage they are.
 */
export function bounceOfSmtpError(error: unknown): { kind: RecipientVerdict; status?: string } {
  if (classifySmtpError(error) === 'connection') return { kind: undefined };
  const { responseCode, command } = (error ?? {}) as SmtpError;
  const response = (error as { response?: unknown })?.response;
  const text = typeof response === 'string' ? response : '';
  const reply =
    typeof responseCode === 'number'
      ? responseCode
      : Number(/^([2-5]\d\d)[\s-]/.exec(text)?.[1]) || undefined;
  if (reply === undefined || reply === 421) return { kind: undefined };
  if (typeof command === 'string' && /^MAIL\b/i.test(command)) return { kind: undefined };
  const status = enhancedStatusOf(text);
  // An enhanced code of another class than the reply's is a server's mistake; the reply code decides then.
  const consistent = status && status[0] === String(reply)[0] ? status : undefined;
  return { kind: recipientVerdict(reply, consistent), status: consistent };
}
