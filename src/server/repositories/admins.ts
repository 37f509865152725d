/**
 * Admin accounts: e-mail, name, role, status, password hash and the TOTP columns. Sessions, passkeys, recovery
 * codes and links live in their own repositories; this one answers what an account is and may do.
 */
import type { Db, Queryable } from '../db/index.ts';

export const ROLES = ['owner', 'editor', 'sales'] as const;
export type Role = (typeof ROLES)[number];
export type AccountStatus = 'invited' | 'active' | 'disabled';

export interface Admin {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: AccountStatus;
  /** Null while an invitation waits for its password. */
  passwordHash: string | null;
  tokensValidAfter: Date;
  createdAt: Date;
  lastSignInAt: Date | null;
  /** Whether a confirmed TOTP secret exists (the secret itself is read by {@link totpOf}). */
  totp: boolean;
  passkeys: number;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
}

interface AdminRow extends Record<string, unknown> {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: AccountStatus;
  password_hash: string | null;
  tokens_valid_after: Date;
  created_at: Date;
  last_sign_in_at: Date | null;
  totp: boolean;
  passkeys: number;
  recovery_left: number;
}

const toAdmin = (row: AdminRow): Admin => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  passwordHash: row.password_hash,
  tokensValidAfter: new Date(row.tokens_valid_after),
  createdAt: new Date(row.created_at),
  lastSignInAt: row.last_sign_in_at && new Date(row.last_sign_in_at),
  totp: row.totp,
  passkeys: row.passkeys,
  recoveryCodesLeft: row.recovery_left,
});

/** Whether the account has a second factor to sign in with. */
export const hasFactor = (admin: Pick<Admin, 'totp' | 'passkeys'>) => admin.totp || admin.passkeys > 0;

const SELECT = `SELECT a.id, a.email, a.name, a.role, a.status, a.password_hash, a.tokens_valid_after, a.created_at,
  a.last_sign_in_at, a.totp_confirmed_at IS NOT NULL AS totp,
  (SELECT count(*)::int FROM admin_passkeys p WHERE p.admin_id = a.id) AS passkeys,
  (SELECT count(*)::int FROM admin_recovery_codes r WHERE r.admin_id = a.id AND r.used_at IS NULL) AS recovery_left
  FROM admins a`;

export async function findAdminByEmail(db: Queryable, email: string): Promise<Admin | undefined> {
  const [row] = await db.query<AdminRow>(`${SELECT} WHERE lower(a.email) = lower($1)`, [email]);
  return row && toAdmin(row);
}

export async function findAdminById(db: Queryable, id: number): Promise<Admin | undefined> {
  const [row] = await db.query<AdminRow>(`${SELECT} WHERE a.id = $1`, [id]);
  return row && toAdmin(row);
}

export async function listAdmins(db: Queryable): Promise<Admin[]> {
  const rows = await db.query<AdminRow>(`${SELECT} ORDER BY a.created_at, a.id`);
  return rows.map(toAdmin);
}

/**
 * Creates an active owner, or sets a new password for an existing account (which becomes active); either way
 * earlier tokens stop working. `npm run admin:create` and the dev seed use it.
 * @returns whether the account is new.
 */
export async function upsertAdmin(
  db: Queryable,
  email: string,
  passwordHash: string,
  now = new Date(),
  role: Role = 'owner',
): Promise<boolean> {
  // Revocation times come from the clock that signs tokens (this process), not the database's.
  const [row] = await db.query<{ created: boolean }>(
    `INSERT INTO admins (email, password_hash, tokens_valid_after, password_changed_at, role, status)
     VALUES ($1, $2, $3, $3, $4, 'active')
     ON CONFLICT ((lower(email))) DO UPDATE
       SET password_hash = EXCLUDED.password_hash, password_changed_at = $3, tokens_valid_after = $3,
           status = 'active'
     RETURNING (xmax = 0) AS created`,
    [email, passwordHash, now, role],
  );
  return row?.created === true;
}

/** An invited account: no password until the invitation is accepted. Undefined when the address is taken. */
export async function insertInvitedAdmin(
  db: Queryable,
  input: { email: string; role: Role; name: string },
): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO admins (email, name, role, status, password_hash) VALUES ($1, $2, $3, 'invited', NULL)
     ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
    [input.email, input.name, input.role],
  );
  return row?.id;
}

/** Sets a password (an accepted invitation activates the account); every earlier token stops working. */
export async function setPassword(
  db: Queryable,
  id: number,
  passwordHash: string,
  now = new Date(),
): Promise<void> {
  await db.query(
    `UPDATE admins SET password_hash = $2, password_changed_at = $3,
       tokens_valid_after = greatest(tokens_valid_after, $3),
       status = CASE WHEN status = 'invited' THEN 'active' ELSE status END
     WHERE id = $1`,
    [id, passwordHash, now],
  );
}

export async function setName(db: Queryable, id: number, name: string): Promise<void> {
  await db.query('UPDATE admins SET name = $2 WHERE id = $1', [id, name]);
}

export async function markSignedIn(db: Queryable, id: number, now = new Date()): Promise<void> {
  await db.query('UPDATE admins SET last_sign_in_at = $2 WHERE id = $1', [id, now]);
}

/** Logout of every token issued until `now`. */
export async function revokeTokens(db: Queryable, adminId: number, now = new Date()): Promise<void> {
  await db.query('UPDATE admins SET tokens_valid_after = greatest(tokens_valid_after, $2) WHERE id = $1', [
    adminId,
    now,
  ]);
}

/** A change refused because no active owner would be left. */
export class LastOwnerError extends Error {
  override readonly name = 'LastOwnerError';
}

/**
 * Runs `change` on account `id` unless it leaves no active owner: the active owners' rows are locked first, so
 * two owners demoting each other at the same moment cannot both succeed.
 */
async function keepingAnOwner(db: Db, id: number, change: (tx: Queryable) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    const owners = await tx.query<{ id: number }>(
      `SELECT id FROM admins WHERE role = 'owner' AND status = 'active' ORDER BY id FOR UPDATE`,
    );
    await change(tx);
    const [left] = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM admins WHERE role = 'owner' AND status = 'active'`,
    );
    if (owners.length > 0 && (left?.n ?? 0) === 0) throw new LastOwnerError(`account ${id}`);
  });
}

export async function changeRole(db: Db, id: number, role: Role): Promise<void> {
  await keepingAnOwner(db, id, (tx) =>
    tx.query('UPDATE admins SET role = $2 WHERE id = $1', [id, role]).then(),
  );
}

/** Disables (tokens stop working on their next call; the guard reads the status) or re-enables an account. */
export async function setDisabled(db: Db, id: number, disabled: boolean): Promise<void> {
  await keepingAnOwner(db, id, (tx) =>
    tx
      .query(
        `UPDATE admins SET status = CASE
           WHEN $2 THEN 'disabled'
           WHEN password_hash IS NULL THEN 'invited'
           ELSE 'active' END
         WHERE id = $1`,
        [id, disabled],
      )
      .then(),
  );
}

export async function deleteAdmin(db: Db, id: number): Promise<void> {
  await keepingAnOwner(db, id, (tx) => tx.query('DELETE FROM admins WHERE id = $1', [id]).then());
}
