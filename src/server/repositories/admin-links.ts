/**
 * Invitation, password-reset and unlock links. Only the SHA-256 of a link's token is stored; the token itself is
 * derived from the row's id with the server key when the mail is composed (src/server/account-links.ts), so
 * neither this table nor the outbox holds a usable link.
 */
import type { Queryable } from '../db/index.ts';

/** `unlock`: mailed when an account locks (src/server/lockout.ts); it sets a new password like `reset`. */
export type LinkPurpose = 'invite' | 'reset' | 'unlock';

export interface AdminLink {
  id: number;
  adminId: number;
  purpose: LinkPurpose;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

interface Row extends Record<string, unknown> {
  id: number;
  admin_id: number;
  purpose: LinkPurpose;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

const toLink = (row: Row): AdminLink => ({
  id: row.id,
  adminId: row.admin_id,
  purpose: row.purpose,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at && new Date(row.used_at),
  revokedAt: row.revoked_at && new Date(row.revoked_at),
});

const COLUMNS = 'id, admin_id, purpose, created_at, expires_at, used_at, revoked_at';

/**
 * Creates a link row (its token hash is filled in by {@link setLinkHash} once the id is known) and revokes
 * every older open link of the same purpose for the account.
 */
export async function insertLink(
  db: Queryable,
  input: { adminId: number; purpose: LinkPurpose; lifetimeSeconds: number; placeholderHash: string },
  now = new Date(),
): Promise<AdminLink> {
  await revokeLinks(db, input.adminId, input.purpose, now);
  const [row] = await db.query<Row>(
    `INSERT INTO admin_links (admin_id, purpose, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [
      input.adminId,
      input.purpose,
      input.placeholderHash,
      now,
      new Date(now.getTime() + input.lifetimeSeconds * 1000),
    ],
  );
  return toLink(row!);
}

export async function setLinkHash(db: Queryable, id: number, tokenHash: string): Promise<void> {
  await db.query('UPDATE admin_links SET token_hash = $2 WHERE id = $1', [id, tokenHash]);
}

export async function revokeLinks(
  db: Queryable,
  adminId: number,
  purpose: LinkPurpose,
  now = new Date(),
): Promise<void> {
  await db.query(
    `UPDATE admin_links SET revoked_at = $3
     WHERE admin_id = $1 AND purpose = $2 AND used_at IS NULL AND revoked_at IS NULL`,
    [adminId, purpose, now],
  );
}

export async function findLink(db: Queryable, id: number): Promise<AdminLink | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM admin_links WHERE id = $1`, [id]);
  return row && toLink(row);
}

export async function findLinkByHash(db: Queryable, tokenHash: string): Promise<AdminLink | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM admin_links WHERE token_hash = $1`, [tokenHash]);
  return row && toLink(row);
}

/** Whether the link can still be used at `now`. */
export const isOpen = (link: AdminLink, now = new Date()) =>
  link.usedAt === null && link.revokedAt === null && now.getTime() < link.expiresAt.getTime();

/** Uses the link: true for exactly one caller, and only while it is open. */
export async function useLink(db: Queryable, id: number, now = new Date()): Promise<boolean> {
  const rows = await db.query(
    `UPDATE admin_links SET used_at = $2
     WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2 RETURNING id`,
    [id, now],
  );
  return rows.length === 1;
}

/** When the account's open invitation expires, per account id. */
export async function openInvitations(db: Queryable, now = new Date()): Promise<Map<number, Date>> {
  const rows = await db.query<{ admin_id: number; expires_at: Date }>(
    `SELECT admin_id, max(expires_at) AS expires_at FROM admin_links
     WHERE purpose = 'invite' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $1 GROUP BY admin_id`,
    [now],
  );
  return new Map(rows.map((row) => [row.admin_id, new Date(row.expires_at)]));
}
