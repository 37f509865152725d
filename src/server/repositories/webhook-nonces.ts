/**
 * The one-time tokens of signed webhook deliveries (`mail_webhook_nonces`, migration 0015): recorded once
 * each, so a replay within the signature's window is recognised. Expired tokens are swept as new ones come.
 */
import type { Queryable } from '../db/index.ts';

/**
 * Records `nonce` for `provider` until `expiresAt`; false when it is already recorded (a replay). One
 * statement: two deliveries of one token sent at once cannot both find it new.
 */
export async function claimNonce(
  db: Queryable,
  provider: string,
  nonce: string,
  expiresAt: Date,
  now = new Date(),
): Promise<boolean> {
  const rows = await db.query(
    `WITH swept AS (DELETE FROM mail_webhook_nonces WHERE expires_at < $4)
     INSERT INTO mail_webhook_nonces (provider, nonce, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (provider, nonce) DO NOTHING
     RETURNING 1 AS claimed`,
    [provider, nonce, expiresAt, now],
  );
  return rows.length === 1;
}

/** Forgets a token whose delivery failed on our side, so the provider's retry of it is accepted. */
export async function releaseNonce(db: Queryable, provider: string, nonce: string): Promise<void> {
  await db.query('DELETE FROM mail_webhook_nonces WHERE provider = $1 AND nonce = $2', [provider, nonce]);
}
