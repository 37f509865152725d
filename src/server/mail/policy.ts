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

/** Sorts a nodemailer error into a {@link FailureKind}. */
export function classifySmtpError(error: unknown): FailureKind {
  const { code, responseCode, command } = (error ?? {}) as SmtpError;
  if (typeof responseCode === 'number') {
    // A refusal before any message is offered (greeting, EHLO, STARTTLS, AUTH) concerns us as a client,
    // not this mail: every mail waits until the server (or its configuration) is right again.
    if (typeof command === 'string' && /^(CONN|EHLO|HELO|LHLO|STARTTLS|AUTH)/.test(command))
      return 'connection';
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
