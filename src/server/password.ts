/** Password hashing with scrypt (N=2^17, r=8, p=1), stored as `scrypt$N$r$p$salt$hash` in base64. */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost: N (CPU and memory), r (block size) and p (parallelism). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** What the server hashes every password at. */
const PARAMS: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: ScryptCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (128 MiB here); Node's default cap is 32 MiB.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * The cost goes into the stored hash, and `verifyPassword` reads it back from there. The server always hashes
 * at its own; only the tests' fixture accounts pass a lower one (tests/support/fixture-password.ts).
 */
export async function hashPassword(password: string, cost: ScryptCost = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compares in constant time. A malformed stored hash never verifies. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * What an unknown e-mail's password is checked against, so that failure costs one scrypt run like a wrong
 * password does. Its key is zeros: no password matches it, and building it costs nothing (a real hash made
 * on first use would make that first unknown-address login run scrypt twice).
 */
export const DECOY_HASH = [
  'scrypt',
  PARAMS.N,
  PARAMS.r,
  PARAMS.p,
  randomBytes(16).toString('base64'),
  Buffer.alloc(KEY_LENGTH).toString('base64'),
].join('$');
