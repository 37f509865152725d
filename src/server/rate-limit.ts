/**
 * Fixed-window counters in the `rate_limits` table. Keys are hashed, so the table never holds a raw IP
 * address or e-mail. Windows older than a day are swept as new ones open.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from './db/index.ts';

export interface Limit {
  scope: string;
  max: number;
  windowSeconds: number;
}

/** Login: ten failed passwords per IP in 15 minutes, then 429 until the window ends. */
export const LOGIN_PER_IP: Limit = { scope: 'login-ip', max: 10, windowSeconds: 15 * 60 };
/** Login: failures per account; they slow the account down (see {@link accountDelayMs}) but never lock it. */
export const LOGIN_PER_ACCOUNT: Limit = {
  scope: 'login-account',
  max: Number.POSITIVE_INFINITY,
  windowSeconds: 15 * 60,
};
/** Newsletter sign-up: twenty requests per IP per hour (an office behind one address may share it). */
export const SIGNUP_PER_IP: Limit = { scope: 'signup-ip', max: 20, windowSeconds: 60 * 60 };
/** Contact form and meeting requests: ten per IP per hour. */
export const CONTACT_PER_IP: Limit = { scope: 'contact-ip', max: 10, windowSeconds: 60 * 60 };

export interface Window {
  count: number;
  /** Seconds until the current window closes. */
  retryAfter: number;
}

function keyFor(limit: Limit, key: string): string {
  return createHash('sha256').update(`${limit.scope}\0${key}`).digest('base64url').slice(0, 32);
}

function windowOf(limit: Limit, now: Date): { start: Date; retryAfter: number } {
  const size = limit.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / size) * size;
  return {
    start: new Date(start),
    retryAfter: Math.max(1, Math.ceil((start + size - now.getTime()) / 1000)),
  };
}

/** Counts one event and returns the count in the current window, this event included. */
export async function hit(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<Window> {
  const { start, retryAfter } = windowOf(limit, now);
  const [row] = await db.query<{ count: number }>(
    `INSERT INTO rate_limits (scope, key, window_start, count) VALUES ($1, $2, $3, 1)
     ON CONFLICT (scope, key, window_start) DO UPDATE SET count = rate_limits.count + 1
     RETURNING count`,
    [limit.scope, keyFor(limit, key), start],
  );
  // The first event of a window is a rare enough moment to sweep old windows.
  if (row?.count === 1) {
    await db.query(`DELETE FROM rate_limits WHERE window_start < $1`, [new Date(now.getTime() - 86_400_000)]);
  }
  return { count: row?.count ?? 1, retryAfter };
}

/**
 * Takes back one event counted by {@link hit} in the window of `now` (a login attempt that turned out to be
 * a success, which the limit does not count).
 */
export async function release(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<void> {
  const { start } = windowOf(limit, now);
  await db.query(
    'UPDATE rate_limits SET count = count - 1 WHERE scope = $1 AND key = $2 AND window_start = $3 AND count > 0',
    [limit.scope, keyFor(limit, key), start],
  );
}

/** Forgets the current window for `key` (a successful login clears its account's failures). */
export async function clear(db: Queryable, limit: Limit, key: string, now = new Date()): Promise<void> {
  const { start } = windowOf(limit, now);
  await db.query('DELETE FROM rate_limits WHERE scope = $1 AND key = $2 AND window_start = $3', [
    limit.scope,
    keyFor(limit, key),
    start,
  ]);
}

/**
 * Delay before checking a password for an account with `failures` recent failures: none for the first three,
 * then doubling from 250 ms up to 4 s. It slows guessing without ever locking the owner out.
 */
export function accountDelayMs(failures: number): number {
  if (failures < 3) return 0;
  return Math.min(250 * 2 ** (failures - 3), 4000);
}
