/**
 * Tickets for the second step of a sign-in: issued when the password was right, stored as a SHA-256 hash,
 * alive for {@link TICKET_LIFETIME_SECONDS} and good for {@link TICKET_TRIES} tries.
 */
import type { Queryable } from '../db/index.ts';

export const TICKET_LIFETIME_SECONDS = 5 * 60;
export const TICKET_TRIES = 5;

export interface Ticket {
  adminId: number;
  challenge: string | null;
}

export async function insertTicket(
  db: Queryable,
  adminId: number,
  hash: string,
  now = new Date(),
): Promise<void> {
  await db.query(
    `INSERT INTO admin_mfa_tickets (ticket_hash, admin_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
    [hash, adminId, now, new Date(now.getTime() + TICKET_LIFETIME_SECONDS * 1000)],
  );
  // The moment a ticket is issued is a good one to sweep those that ended a day ago.
  await db.query('DELETE FROM admin_mfa_tickets WHERE expires_at < $1', [
    new Date(now.getTime() - 86_400_000),
  ]);
}

/**
 * Counts one try on a live ticket before its code is checked (so parallel guesses cannot share a count).
 * @returns the ticket, or undefined when it is unknown, used, expired or out of tries.
 */
export async function spendTry(db: Queryable, hash: string, now = new Date()): Promise<Ticket | undefined> {
  const [row] = await db.query<{ admin_id: number; challenge: string | null }>(
    `UPDATE admin_mfa_tickets SET attempts = attempts + 1
     WHERE ticket_hash = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3
     RETURNING admin_id, challenge`,
    [hash, now, TICKET_TRIES],
  );
  return row && { adminId: row.admin_id, challenge: row.challenge };
}

/** A live ticket without spending a try (passkey options). */
export async function liveTicket(db: Queryable, hash: string, now = new Date()): Promise<Ticket | undefined> {
  const [row] = await db.query<{ admin_id: number; challenge: string | null }>(
    `SELECT admin_id, challenge FROM admin_mfa_tickets
     WHERE ticket_hash = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3`,
    [hash, now, TICKET_TRIES],
  );
  return row && { adminId: row.admin_id, challenge: row.challenge };
}

export async function setChallenge(db: Queryable, hash: string, challenge: string): Promise<void> {
  await db.query('UPDATE admin_mfa_tickets SET challenge = $2 WHERE ticket_hash = $1', [hash, challenge]);
}

/** Ends the ticket after its successful try: true for exactly one caller. */
export async function useTicket(db: Queryable, hash: string, now = new Date()): Promise<boolean> {
  const rows = await db.query(
    'UPDATE admin_mfa_tickets SET used_at = $2 WHERE ticket_hash = $1 AND used_at IS NULL RETURNING admin_id',
    [hash, now],
  );
  return rows.length === 1;
}
