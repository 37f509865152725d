/**
 * What the four provider webhooks share: the shape a verifier hands back, the refusals it throws, and the few
 * checks every one of them makes (a configured secret, a fresh timestamp, a constant-time comparison, JSON).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { validate } from '../../../lib/schemas.ts';
import { ConfigError } from '../../config.ts';
import { HttpError } from '../../http.ts';
import type { MailEvent } from '../events.ts';

/** A provider's POST as its verifier sees it: the raw body (signatures cover bytes, not parsed JSON). */
export interface WebhookInput {
  headers: Headers;
  body: string;
  now: Date;
  env: NodeJS.ProcessEnv;
}

/** What a verified delivery asks of the endpoint. */
export interface VerifiedDelivery {
  /** The bounces and complaints it reports, normalised; empty for events we do not act on (opens, deliveries). */
  events: MailEvent[];
  /**
   * A one-time value of the signature (Mailgun's token): the endpoint records it until `expiresAt` and refuses
   * the delivery when it was recorded before.
   */
  nonce?: { value: string; expiresAt: Date };
  /** An SNS subscription to confirm by visiting `url` (already checked to be an SNS host of AWS). */
  confirm?: { url: string; topicArn: string };
  /** One line for the function log when the delivery carries no event (e.g. "UnsubscribeConfirmation"). */
  note?: string;
}

export interface WebhookProvider {
  /** Checks the delivery exactly as the provider documents and normalises what it reports. */
  verify(input: WebhookInput): Promise<VerifiedDelivery>;
}

/**
 * 401 `unverified`: a missing, forged, stale or replayed signature. One message for every cause, so a
 * forger learns nothing about which check failed; the function log names it.
 */
export class WebhookRefusedError extends HttpError {
  readonly reason: string;

  constructor(reason: string, headers?: Record<string, string>) {
    super(401, 'unverified', 'The event could not be verified.', { headers });
    this.reason = reason;
  }
}

/** A secret from the environment, trimmed; missing → {@link ConfigError} (503, the endpoint fails closed). */
export function secret(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is not set`);
  return value;
}

/** Constant-time equality of two strings of any length (both are hashed first, so lengths do not leak). */
export function sameText(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** How far ahead of our clock a provider's timestamp may be: clocks drift by seconds, not minutes. */
export const CLOCK_SKEW_MS = 60_000;

/** Refuses a signature time older than `maxAgeMs` or more than {@link CLOCK_SKEW_MS} ahead of `now`. */
export function requireFresh(signedAt: Date, now: Date, maxAgeMs: number): void {
  const age = now.getTime() - signedAt.getTime();
  if (!Number.isFinite(age)) throw new WebhookRefusedError('unreadable timestamp');
  if (age > maxAgeMs) throw new WebhookRefusedError(`stale timestamp (${Math.round(age / 1000)} s old)`);
  if (age < -CLOCK_SKEW_MS) throw new WebhookRefusedError('timestamp in the future');
}

/**
 * Parses a verified body. Numbers that do not fit a double (Postmark's 64-bit IDs) keep their exact digits
 * as strings, via the reviver's source text (Node 22+), so two events never share a rounded id.
 */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new HttpError(400, 'invalid_json', 'The request body is empty.');
  try {
    return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' &&
      !Number.isSafeInteger(value) &&
      context?.source &&
      /^-?\d+$/.test(context.source)
        ? context.source
        : value,
    ) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** Checks a verified payload against the fields we read: 400 `invalid_event` with the fields at fault. */
export function payload<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = validate(schema, input);
  if (!result.ok)
    throw new HttpError(400, 'invalid_event', 'The event does not have the documented shape.', {
      fields: result.fields,
    });
  return result.data;
}

/** A date the provider states; an unreadable one is a malformed event, not "now". */
export function dateOf(value: string | number, unit: 'iso' | 'seconds'): Date {
  const date = unit === 'seconds' ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new HttpError(400, 'invalid_event', 'The event carries a date that cannot be read.');
  return date;
}

/** The remote server's words on one line, control characters removed, at most 500 characters. */
export function oneLine(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const line = text
    // eslint-disable-next-line no-control-regex -- the point is to drop control characters
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line ? line.slice(0, 500) : undefined;
}

/** An RFC 3463 enhanced status code (`5.1.1`) when the text is one, else undefined. */
export function enhancedStatus(text: string | undefined | null): string | undefined {
  const match = /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(text ?? '');
  return match?.[1];
}

/** Short strings with a bound, for identifiers and addresses we copy into events. */
export const text = (max = 998) => z.string().check(z.maxLength(max));
