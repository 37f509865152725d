/**
 * Sliding-window limits in the `rate_limits` table: each limited key keeps the times of the events its window
 * still counts, and an event is refused while the last `windowSeconds` already hold `max` of them. Unlike a
 * fixed window, which let the limit through just before its end and again just after, no span of
 * `windowSeconds` ever holds more than `max` counted events. Keys are hashed, so the table never holds a raw
 * IP address or e-mail. Keys idle for a day are swept as others start counting again.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from './db/index.ts';

export interface Limit {
  scope: string;
  max: number;
  windowSeconds: number;
}

/** Login: ten failed passwords per IP in any 15 minutes, then 429 until the oldest of them is 15 minutes old. */
export const LOGIN_PER_IP: Limit = { scope: 'login-ip', max: 10, windowSeconds: 15 * 60 };
/** Login: failures per account; they slow the account down (see {@link accountDelayMs}) but never lock it. */
export const LOGIN_PER_ACCOUNT: Limit = {
  scope: 'login-account',
  max: Number.POSITIVE_INFINITY,
  windowSeconds: 15 * 60,
};
/** Newsletter sign-up: twenty requests per IP in any hour (an office behind one address may share it). */
export const SIGNUP_PER_IP: Limit = { scope: 'signup-ip', max: 20, windowSeconds: 60 * 60 };
/** Contact form and meeting requests: ten per IP in any hour. */
export const CONTACT_PER_IP: Limit = { scope: 'contact-ip', max: 10, windowSeconds: 60 * 60 };

/** An unbounded limit (the per-account slow-down) counts this many events at most; more change nothing. */
const COUNT_CAP = 100;

export interface Window {
  /** Events in the window, this one included; above the limit's `max` when this one was refused. */
  count: number;
  /** Seconds until the oldest counted event leaves the window, which frees a place for one more. */
  retryAfter: number;
}

function keyFor(limit: Limit, key: string): string {
  return createHash('sha256').update(`${limit.scope}\0${key}`).digest('base64url').slice(0, 32);
}

interface HitRow extends Record<string, unknown> {
  counted: number;
  refused: boolean;
  oldest: Date | string;
}

/**
 * Counts one event at `now`, unless the window already holds the limit, and returns the count in the window
 * with this event. One statement: concurrent events for one key queue on its row, so a burst sent at once
 * cannot all see room that only one of them may take.
 */
export async function hit(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<Window> {
  const bounded = Number.isFinite(limit.max);
  const [row] = await db.query<HitRow>(
    `INSERT INTO rate_limits AS r (scope, key, hits, refused, last_hit_at)
     VALUES ($1, $2, ARRAY[$3::timestamptz], false, $3)
     ON CONFLICT (scope, key) DO UPDATE SET (hits, refused, last_hit_at) = (
       SELECT CASE WHEN is_full THEN live
                   ELSE (SELECT array_agg(h ORDER BY h) FROM unnest(live || $3::timestamptz) AS h)
                        [greatest(cardinality(live) + 2 - $6, 1):]
              END,
              is_full, greatest(r.last_hit_at, $3)
       FROM (SELECT live, coalesce(cardinality(live) >= $5, false) AS is_full
             FROM (SELECT array(SELECT h FROM unnest(r.hits) AS h
                                WHERE h > $3::timestamptz - make_interval(secs => $4) ORDER BY h) AS live) AS w
            ) AS s)
     RETURNING cardinality(hits) AS counted, refused, hits[1] AS oldest`,
    [
      limit.scope,
      keyFor(limit, key),
      now,
      limit.windowSeconds,
      bounded ? limit.max : null,
      bounded ? limit.max : COUNT_CAP,
    ],
  );
  const counted = row?.counted ?? 1;
  const oldest = row ? new Date(row.oldest).getTime() : now.getTime();
  const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowSeconds * 1000 - now.getTime()) / 1000));
  // A key that starts counting from nothing is a rare enough moment to sweep keys idle for a day.
  if (counted === 1 && !row?.refused) {
    await db.query(`DELETE FROM rate_limits WHERE last_hit_at < $1`, [new Date(now.getTime() - 86_400_000)]);
  }
  return { count: row?.refused ? counted + 1 : counted, retryAfter };
}

/**
 * Takes back one event counted by {@link hit} (a login attempt that turned out to be a success, which the
 * limit does not count): the one counted at `now`, or else the latest.
 */
export async function release(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<void> {
  await db.query(
    `UPDATE rate_limits SET hits = (
       SELECT hits[:at - 1] || hits[at + 1:]
       FROM (SELECT coalesce(array_position(hits, $3::timestamptz), cardinality(hits)) AS at) AS p)
     WHERE scope = $1 AND key = $2 AND cardinality(hits) > 0`,
    [limit.scope, keyFor(limit, key), now],
  );
}

/** Forgets the events counted for `key` up to `now` (a successful login clears its account's failures). */
export async function clear(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<void> {
  await db.query(
    `UPDATE rate_limits SET hits = array(SELECT h FROM unnest(hits) AS h WHERE h > $3::timestamptz ORDER BY h)
     WHERE scope = $1 AND key = $2`,
    [limit.scope, keyFor(limit, key), now],
  );
}

/**
 * Delay before checking a password for an account with `failures` recent failures: none for the first three,
 * then doubling from 250 ms up to 4 s. It slows guessing without ever locking the owner out.
 */
export function accountDelayMs(failures: number): number {
  if (failures < 3) return 0;
  return Math.min(250 * 2 ** (failures - 3), 4000);
}
