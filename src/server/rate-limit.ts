/**
 * Sliding-window limits in the `rate_limits` table: each limited key keeps the times of the events its window
 * still counts, and an event is refused while the last `windowSeconds` already hold `max` of them. Unlike a
 * fixed window, which let the limit through just before its end and again just after, no span of
 * `windowSeconds` ever holds more than `max` counted events. A key is an HMAC under a key of the server's
 * (derived from JWT_SECRET), so the table never holds a raw IP address, and a copy of it cannot be tested
 * against a guessed address either. Client addresses count by network: IPv6 by its /64
 * (src/server/client-address.ts). Keys idle for a day are swept as others start counting again.
 * What an account may try is capped separately, per account and across networks (src/server/lockout.ts).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { limitedNetwork } from './client-address.ts';
import { jwtSecret } from './config.ts';
import type { Queryable } from './db/index.ts';

export interface Limit {
  scope: string;
  max: number;
  windowSeconds: number;
}

/** Login: ten failed passwords per network in any 15 minutes, then 429 until the oldest is 15 minutes old. */
export const LOGIN_PER_IP: Limit = { scope: 'login-ip', max: 10, windowSeconds: 15 * 60 };
/** Newsletter sign-up: twenty requests per network in any hour (an office behind one address may share it). */
export const SIGNUP_PER_IP: Limit = { scope: 'signup-ip', max: 20, windowSeconds: 60 * 60 };
/** Contact form and meeting requests: ten per network in any hour. */
export const CONTACT_PER_IP: Limit = { scope: 'contact-ip', max: 10, windowSeconds: 60 * 60 };

export interface Window {
  /** Events in the window, this one included; above the limit's `max` when this one was refused. */
  count: number;
  /** Seconds until the oldest counted event leaves the window, which frees a place for one more. */
  retryAfter: number;
}

const keyKey = () => Buffer.from(hkdfSync('sha256', jwtSecret(), '', 'korvel rate-limit keys', 32));

/** The stored key of a client address: HMAC-SHA-256 of the scope and the address's network. */
export function keyFor(limit: Limit, ip: string): string {
  return createHmac('sha256', keyKey())
    .update(`${limit.scope}\0${limitedNetwork(ip)}`)
    .digest('base64url')
    .slice(0, 32);
}

interface HitRow extends Record<string, unknown> {
  counted: number;
  refused: boolean;
  oldest: Date | string;
}

/**
 * Counts one event from client address `ip` at `now`, unless the window already holds the limit, and returns
 * the count in the window with this event. One statement: concurrent events for one key queue on its row, so
 * a burst sent at once cannot all see room that only one of them may take.
 */
export async function hit(db: Queryable, limit: Limit, ip: string, now = new Date()): Promise<Window> {
  const [row] = await db.query<HitRow>(
    `INSERT INTO rate_limits AS r (scope, key, hits, refused, last_hit_at)
     VALUES ($1, $2, ARRAY[$3::timestamptz], false, $3)
     ON CONFLICT (scope, key) DO UPDATE SET (hits, refused, last_hit_at) = (
       SELECT CASE WHEN is_full THEN live
                   ELSE (SELECT array_agg(h ORDER BY h) FROM unnest(live || $3::timestamptz) AS h)
                        [greatest(cardinality(live) + 2 - $5, 1):]
              END,
              is_full, greatest(r.last_hit_at, $3)
       FROM (SELECT live, cardinality(live) >= $5 AS is_full
             FROM (SELECT array(SELECT h FROM unnest(r.hits) AS h
                                WHERE h > $3::timestamptz - make_interval(secs => $4) ORDER BY h) AS live) AS w
            ) AS s)
     RETURNING cardinality(hits) AS counted, refused, hits[1] AS oldest`,
    [limit.scope, keyFor(limit, ip), now, limit.windowSeconds, limit.max],
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
export async function release(db: Queryable, limit: Limit, ip: string, now = new Date()): Promise<void> {
  await db.query(
    `UPDATE rate_limits SET hits = (
       SELECT hits[:at - 1] || hits[at + 1:]
       FROM (SELECT coalesce(array_position(hits, $3::timestamptz), cardinality(hits)) AS at) AS p)
     WHERE scope = $1 AND key = $2 AND cardinality(hits) > 0`,
    [limit.scope, keyFor(limit, ip), now],
  );
}
