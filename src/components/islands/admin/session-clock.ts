/**
 * When the admin warns about and ends an idle session, from the times GET /api/account reports. The server
 * ends a session after `idleTimeoutSeconds` without a call, or at `expiresAt` in any case; it records a call
 * at most once a minute, so the browser counts the same way and never outlives the server's clock.
 */

/** How long before the end the warning shows. */
export const WARNING_MS = 60_000;
/** The server records a session's last call at most this often. */
export const SEEN_RESOLUTION_MS = 60_000;

export interface SessionTimes {
  idleTimeoutSeconds: number;
  /** ISO time of the absolute end (8 hours after sign-in). */
  expiresAt: string;
}

export interface Deadlines {
  warnAt: number;
  endAt: number;
  /** `idle`: a call postpones the end; `limit`: the absolute end, which nothing postpones. */
  reason: 'idle' | 'limit';
}

/**
 * The warning and the end, in epoch milliseconds, for a session last seen by the server at `lastSeen`.
 * @example sessionDeadlines(0, { idleTimeoutSeconds: 1800, expiresAt: '2100-01-01T00:00:00Z' })
 *   // { warnAt: 1_740_000, endAt: 1_800_000, reason: 'idle' }
 */
export function sessionDeadlines(lastSeen: number, times: SessionTimes): Deadlines {
  const idleEnd = lastSeen + times.idleTimeoutSeconds * 1000;
  const limit = Date.parse(times.expiresAt);
  const byLimit = Number.isFinite(limit) && limit < idleEnd;
  const endAt = byLimit ? limit : idleEnd;
  return { warnAt: endAt - WARNING_MS, endAt, reason: byLimit ? 'limit' : 'idle' };
}

/**
 * The server's last-seen time after a call accepted at `now`: it moves only when the previous one is at least
 * a minute old, as the server writes it.
 * @example nextSeen(0, 30_000) // 0
 * @example nextSeen(0, 60_000) // 60000
 */
export function nextSeen(previous: number, now: number): number {
  return now - previous >= SEEN_RESOLUTION_MS ? now : previous;
}
