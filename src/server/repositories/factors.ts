/**
 * Second factors of an account: the TOTP secret (stored encrypted; src/server/factors.ts encrypts it), passkeys
 * and recovery codes (stored hashed). Nothing here returns a secret to a caller outside the sign-in code.
 */
import type { Db, Queryable } from '../db/index.ts';

/** The encrypted TOTP secrets: the confirmed one (if any), one waiting for its first code, and the replay guard. */
export interface StoredTotp {
  encryptedSecret: string | null;
  encryptedPending: string | null;
  confirmed: boolean;
  lastStep: number | null;
}

export async function totpOf(db: Queryable, adminId: number): Promise<StoredTotp | undefined> {
  const [row] = await db.query<{
    totp_secret: string | null;
    totp_pending_secret: string | null;
    confirmed: boolean;
    totp_last_step: string | null;
  }>(
    `SELECT totp_secret, totp_pending_secret, totp_confirmed_at IS NOT NULL AS confirmed, totp_last_step
     FROM admins WHERE id = $1`,
    [adminId],
  );
  if (!row) return undefined;
  return {
    encryptedSecret: row.confirmed ? row.totp_secret : null,
    encryptedPending: row.totp_pending_secret,
    confirmed: row.confirmed,
    lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
  };
}

/** A new secret waiting for its first code; a confirmed one stays in force until this one is confirmed. */
export async function setPendingTotp(db: Queryable, adminId: number, encryptedSecret: string): Promise<void> {
  await db.query(`UPDATE admins SET totp_pending_secret = $2 WHERE id = $1`, [adminId, encryptedSecret]);
}

/** The pending secret becomes the account's TOTP factor; the step of the code that confirmed it is used. */
export async function confirmTotp(
  db: Queryable,
  adminId: number,
  step: number,
  now = new Date(),
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE admins SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_confirmed_at = $2,
       totp_last_step = $3
     WHERE id = $1 AND totp_pending_secret IS NOT NULL RETURNING id`,
    [adminId, now, step],
  );
  return rows.length === 1;
}

/**
 * Records that the code of time step `step` was used, unless that step or a later one already was: the one
 * statement both checks and stores, so two requests with one code cannot both pass.
 * @returns whether the code was fresh.
 */
export async function useTotpStep(db: Queryable, adminId: number, step: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE admins SET totp_last_step = $2
     WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
    [adminId, step],
  );
  return rows.length === 1;
}

async function removeTotp(db: Queryable, adminId: number): Promise<void> {
  await db.query(
    `UPDATE admins SET totp_secret = NULL, totp_pending_secret = NULL, totp_confirmed_at = NULL, totp_last_step = NULL
     WHERE id = $1`,
    [adminId],
  );
}

export interface Passkey {
  id: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface PasskeyRow extends Record<string, unknown> {
  id: number;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports ?? [],
  name: row.name,
  createdAt: new Date(row.created_at),
  lastUsedAt: row.last_used_at && new Date(row.last_used_at),
});

export async function passkeysOf(db: Queryable, adminId: number): Promise<Passkey[]> {
  const rows = await db.query<PasskeyRow>(
    `SELECT id, credential_id, public_key, counter, transports, name, created_at, last_used_at
     FROM admin_passkeys WHERE admin_id = $1 ORDER BY created_at, id`,
    [adminId],
  );
  return rows.map(toPasskey);
}

/** Undefined when the credential is registered already (to this or another account). */
export async function insertPasskey(
  db: Queryable,
  adminId: number,
  passkey: Pick<Passkey, 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'>,
): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO admin_passkeys (admin_id, credential_id, public_key, counter, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
    [adminId, passkey.credentialId, passkey.publicKey, passkey.counter, passkey.transports, passkey.name],
  );
  return row?.id;
}

/** Stores the authenticator's new signature counter, unless another sign-in already moved it past. */
export async function usePasskey(
  db: Queryable,
  id: number,
  counter: number,
  now = new Date(),
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE admin_passkeys SET counter = $2, last_used_at = $3
     WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0)) RETURNING id`,
    [id, counter, now],
  );
  return rows.length === 1;
}

async function deletePasskey(db: Queryable, adminId: number, id: number): Promise<boolean> {
  const rows = await db.query('DELETE FROM admin_passkeys WHERE id = $1 AND admin_id = $2 RETURNING id', [
    id,
    adminId,
  ]);
  return rows.length === 1;
}

/** Replaces every recovery code of the account with these hashes. */
export async function replaceRecoveryCodes(
  db: Queryable,
  adminId: number,
  hashes: readonly string[],
): Promise<void> {
  await db.query('DELETE FROM admin_recovery_codes WHERE admin_id = $1', [adminId]);
  await db.query(
    `INSERT INTO admin_recovery_codes (admin_id, code_hash) SELECT $1, h FROM unnest($2::text[]) AS h`,
    [adminId, hashes],
  );
}

/** Spends a recovery code: true once per code, in one statement. */
export async function useRecoveryCode(
  db: Queryable,
  adminId: number,
  hash: string,
  now = new Date(),
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE admin_recovery_codes SET used_at = $3
     WHERE admin_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING admin_id`,
    [adminId, hash, now],
  );
  return rows.length === 1;
}

/** Which factor {@link removeFactor} takes away. */
export type FactorToRemove = { kind: 'totp' } | { kind: 'passkey'; id: number };

/**
 * Removes the account's authenticator app or one of its passkeys, unless it is the account's last factor
 * (`last`) or not there (`missing`). The check and the removal hold the account's row, so two removals sent
 * at once run one after the other and the second sees what the first left: they cannot each leave the other
 * as the last factor and so both go.
 */
export async function removeFactor(
  db: Db,
  adminId: number,
  factor: FactorToRemove,
): Promise<'removed' | 'last' | 'missing'> {
  return db.transaction(async (tx) => {
    const [account] = await tx.query<{ totp: boolean; passkeys: number; found: boolean }>(
      `SELECT a.totp_confirmed_at IS NOT NULL AS totp,
         (SELECT count(*)::int FROM admin_passkeys p WHERE p.admin_id = a.id) AS passkeys,
         $2::int IS NOT NULL AND EXISTS (SELECT 1 FROM admin_passkeys p WHERE p.admin_id = a.id AND p.id = $2) AS found
       FROM admins a WHERE a.id = $1 FOR UPDATE`,
      [adminId, factor.kind === 'passkey' ? factor.id : null],
    );
    if (!account) return 'missing';
    if (factor.kind === 'totp') {
      if (!account.totp) return 'missing';
      if (account.passkeys === 0) return 'last';
      await removeTotp(tx, adminId);
    } else {
      if (!account.found) return 'missing';
      if (!account.totp && account.passkeys <= 1) return 'last';
      await deletePasskey(tx, adminId, factor.id);
    }
    return 'removed';
  });
}

/** The owner's "reset factors": TOTP, passkeys and recovery codes go; the person enrols again. */
export async function removeAllFactors(db: Queryable, adminId: number): Promise<void> {
  await removeTotp(db, adminId);
  await db.query('DELETE FROM admin_passkeys WHERE admin_id = $1', [adminId]);
  await db.query('DELETE FROM admin_recovery_codes WHERE admin_id = $1', [adminId]);
}
