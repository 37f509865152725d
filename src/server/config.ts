/** Server settings read from the environment, failing closed when one is missing. */
import { createHash } from 'node:crypto';
import { createDb, type Db } from './db/index.ts';

/** A required setting is missing or too weak: functions answer 503 `server_not_configured` and log why. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const JWT_SECRET_MIN_BYTES = 32;

/** The HS256 key. At least 32 bytes, or every admin call answers 503. */
export function jwtSecret(env: NodeJS.ProcessEnv = process.env): Uint8Array {
  const secret = env.JWT_SECRET ?? '';
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength < JWT_SECRET_MIN_BYTES) {
    throw new ConfigError(
      secret
        ? `JWT_SECRET has ${bytes.byteLength} bytes; at least ${JWT_SECRET_MIN_BYTES} are required`
        : 'JWT_SECRET is not set',
    );
  }
  return bytes;
}

/** A key that seals second-factor secrets; `id` names it in each sealed value. */
export interface FactorKey {
  id: string;
  secret: Uint8Array;
}

const factorKey = (secret: Uint8Array): FactorKey => ({
  id: createHash('sha256').update(secret).digest('base64url').slice(0, 8),
  secret,
});

/**
 * The keys of the factor secrets, the one to seal with first: `FACTOR_KEY` (at least 32 bytes), then
 * `FACTOR_KEY_PREVIOUS` while secrets sealed under it are still read, then JWT_SECRET, which sealed every
 * secret before FACTOR_KEY existed and seals new ones while it is not set (a rotation of JWT_SECRET then makes
 * those factors unusable, never the server fail). A set but too short FACTOR_KEY fails closed (503).
 */
export function factorKeys(env: NodeJS.ProcessEnv = process.env): FactorKey[] {
  const keys: FactorKey[] = [];
  for (const name of ['FACTOR_KEY', 'FACTOR_KEY_PREVIOUS'] as const) {
    const value = env[name];
    if (!value) continue;
    const bytes = new TextEncoder().encode(value);
    if (bytes.byteLength < JWT_SECRET_MIN_BYTES) {
      throw new ConfigError(
        `${name} has ${bytes.byteLength} bytes; at least ${JWT_SECRET_MIN_BYTES} are required`,
      );
    }
    keys.push(factorKey(bytes));
  }
  keys.push(factorKey(jwtSecret(env)));
  return keys;
}

let current: Db | undefined;

/** The database of this function instance, opened from `DATABASE_URL` on first use and then reused. */
export function database(): Db {
  if (current) return current;
  const url = process.env.DATABASE_URL;
  if (!url) throw new ConfigError('DATABASE_URL is not set');
  try {
    current = createDb(url);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : 'DATABASE_URL is not usable');
  }
  return current;
}

/** Tests and scripts hand in the database they opened (e.g. embedded PGlite in memory). */
export function useDatabase(db: Db | undefined): void {
  current = db;
}
