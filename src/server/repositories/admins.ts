import type { Queryable } from '../db/index.ts';

export interface Admin {
  id: number;
  email: string;
  passwordHash: string;
  tokensValidAfter: Date;
}

interface AdminRow extends Record<string, unknown> {
  id: number;
  email: string;
  password_hash: string;
  tokens_valid_after: Date;
}

const toAdmin = (row: AdminRow): Admin => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  tokensValidAfter: new Date(row.tokens_valid_after),
});

const COLUMNS = 'id, email, password_hash, tokens_valid_after';

export async function findAdminByEmail(db: Queryable, email: string): Promise<Admin | undefined> {
  const [row] = await db.query<AdminRow>(`SELECT ${COLUMNS} FROM admins WHERE lower(email) = lower($1)`, [
    email,
  ]);
  return row && toAdmin(row);
}

export async function findAdminById(db: Queryable, id: number): Promise<Admin | undefined> {
  const [row] = await db.query<AdminRow>(`SELECT ${COLUMNS} FROM admins WHERE id = $1`, [id]);
  return row && toAdmin(row);
}

/**
 * Creates the admin, or sets a new password for an existing one; either way earlier tokens stop working.
 * @returns whether the account is new.
 */
export async function upsertAdmin(
  db: Queryable,
  email: string,
  passwordHash: string,
  now = new Date(),
): Promise<boolean> {
  // Revocation times come from the clock that signs tokens (this process), not the database's.
  const [row] = await db.query<{ created: boolean }>(
    `INSERT INTO admins (email, password_hash, tokens_valid_after, password_changed_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT ((lower(email))) DO UPDATE
       SET password_hash = EXCLUDED.password_hash, password_changed_at = $3, tokens_valid_after = $3
     RETURNING (xmax = 0) AS created`,
    [email, passwordHash, now],
  );
  return row?.created === true;
}

/** Logout: every token issued until `now` stops working. */
export async function revokeTokens(db: Queryable, adminId: number, now = new Date()): Promise<void> {
  await db.query('UPDATE admins SET tokens_valid_after = greatest(tokens_valid_after, $2) WHERE id = $1', [
    adminId,
    now,
  ]);
}
