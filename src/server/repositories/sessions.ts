/**
 * Admin sessions: one row per sign-in, named by the bearer token's `sid`. The guard (src/server/auth.ts) ends a
 * session after {@link IDLE_TIMEOUT_SECONDS} without a call or {@link ABSOLUTE_TIMEOUT_SECONDS} after it began.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';

export const IDLE_TIMEOUT_SECONDS = 30 * 60;
export const ABSOLUTE_TIMEOUT_SECONDS = 8 * 60 * 60;
/** A call refreshes `last_seen_at` at most this often, so a busy admin page does not write on every call. */
export const TOUCH_INTERVAL_SECONDS = 60;

/** `enrol`: password passed, no factor yet; it may only enrol one. `full`: both steps passed. */
export type SessionLevel = 'enrol' | 'full';

export interface Session {
  id: string;
  adminId: number;
  level: SessionLevel;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  client: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  admin_id: number;
  level: SessionLevel;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  client: string;
}

const toSession = (row: Row): Session => ({
  id: row.id,
  adminId: row.admin_id,
  level: row.level,
  createdAt: new Date(row.created_at),
  lastSeenAt: new Date(row.last_seen_at),
  expiresAt: new Date(row.expires_at),
  revokedAt: row.revoked_at && new Date(row.revoked_at),
  client: row.client,
});

const COLUMNS = 'id, admin_id, level, created_at, last_seen_at, expires_at, revoked_at, client';

/**
 * A new session, alive for {@link ABSOLUTE_TIMEOUT_SECONDS} from `now`, or within `span` when it continues
 * another (its start and absolute end).
 */
export async function createSession(
  db: Queryable,
  input: {
    adminId: number;
    level: SessionLevel;
    client: string;
    span?: { createdAt: Date; expiresAt: Date } | undefined;
  },
  now = new Date(),
): Promise<Session> {
  const [row] = await db.query<Row>(
    `INSERT INTO admin_sessions (id, admin_id, level, created_at, last_seen_at, expires_at, client)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      input.adminId,
      input.level,
      input.span?.createdAt ?? now,
      now,
      input.span?.expiresAt ?? new Date(now.getTime() + ABSOLUTE_TIMEOUT_SECONDS * 1000),
      input.client,
    ],
  );
  return toSession(row!);
}

export async function findSession(db: Queryable, id: string): Promise<Session | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM admin_sessions WHERE id = $1`, [id]);
  return row && toSession(row);
}

/** Whether the session is still alive at `now`. */
export function isLive(session: Session, now = new Date()): boolean {
  return (
    session.revokedAt === null &&
    now.getTime() < session.expiresAt.getTime() &&
    now.getTime() - session.lastSeenAt.getTime() < IDLE_TIMEOUT_SECONDS * 1000
  );
}

/** Marks a call, at most once per {@link TOUCH_INTERVAL_SECONDS}. */
export async function touchSession(db: Queryable, session: Session, now = new Date()): Promise<void> {
  if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_INTERVAL_SECONDS * 1000) return;
  await db.query('UPDATE admin_sessions SET last_seen_at = greatest(last_seen_at, $2) WHERE id = $1', [
    session.id,
    now,
  ]);
}

export async function revokeSession(db: Queryable, id: string, now = new Date()): Promise<void> {
  await db.query('UPDATE admin_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, now]);
}

/**
 * Ends every session of the account, or every one but `exceptId`, and every sign-in ticket still open: a
 * ticket issued for the old password must not become a session after a reset, a change or a revocation.
 */
export async function revokeSessions(
  db: Queryable,
  adminId: number,
  options: { exceptId?: string; now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  await db.query(
    `UPDATE admin_sessions SET revoked_at = $3
     WHERE admin_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
    [adminId, options.exceptId ?? null, now],
  );
  await db.query(`UPDATE admin_mfa_tickets SET used_at = $2 WHERE admin_id = $1 AND used_at IS NULL`, [
    adminId,
    now,
  ]);
}

/** The account's live sessions, newest first; ended ones older than a day are swept on the way. */
export async function liveSessions(db: Queryable, adminId: number, now = new Date()): Promise<Session[]> {
  await db.query(
    `DELETE FROM admin_sessions WHERE admin_id = $1 AND least(expires_at, coalesce(revoked_at, expires_at)) < $2`,
    [adminId, new Date(now.getTime() - 86_400_000)],
  );
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM admin_sessions WHERE admin_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC`,
    [adminId],
  );
  return rows.map(toSession).filter((session) => isLive(session, now));
}

/** Keeps the challenge of a passkey registration for the session's next call. */
export async function setSessionChallenge(
  db: Queryable,
  id: string,
  challenge: string | null,
): Promise<void> {
  await db.query('UPDATE admin_sessions SET webauthn_challenge = $2 WHERE id = $1', [id, challenge]);
}

/** Takes the session's registration challenge: it can be used once. */
export async function takeSessionChallenge(db: Queryable, id: string): Promise<string | undefined> {
  const [row] = await db.query<{ challenge: string | null }>(
    `UPDATE admin_sessions s SET webauthn_challenge = NULL FROM admin_sessions old
     WHERE s.id = $1 AND old.id = s.id RETURNING old.webauthn_challenge AS challenge`,
    [id],
  );
  return row?.challenge ?? undefined;
}
