/**
 * Second factors: TOTP (RFC 6238 with `otpauth`: SHA-1, 6 digits, 30-second steps, one step of drift either
 * way, each step accepted once), recovery codes (ten, single use, stored as SHA-256) and the secret's
 * encryption at rest (AES-256-GCM, so a copy of the database alone does not yield anyone's codes) under a key
 * of its own, `FACTOR_KEY`, named in each sealed secret, so rotating JWT_SECRET leaves the factors alone.
 * Passkeys are in src/server/passkeys.ts.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { site } from '../site.config.ts';
import { factorKeys, type FactorKey } from './config.ts';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either side of now. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totpFor = (secretBase32: string, label: string) =>
  new OTPAuth.TOTP({
    issuer: site.displayName,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });

/** A fresh 160-bit secret (RFC 4226's recommended length) and its `otpauth://totp/…` URI for `label`. */
export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  return { secret, uri: totpFor(secret, label).toString() };
}

/**
 * The time step whose code `code` is, within {@link TOTP_WINDOW} steps of `now`; undefined for a wrong code.
 * The caller still has to refuse a step that was used already (src/server/repositories/factors.ts).
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return OTPAuth.TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
}

/** The AES-256 key of a configured key: HKDF, so the configured text may be any length of at least 32 bytes. */
const aesKey = (key: FactorKey) => Buffer.from(hkdfSync('sha256', key.secret, '', 'korvel totp secrets', 32));

/** `v2.kid.iv.ciphertext.tag`, base64url, sealed under the current factor key, which `kid` names. */
export function encryptSecret(plain: string): string {
  const key = factorKeys()[0]!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v2', key.id, ...[iv, data, cipher.getAuthTag()].map((p) => p.toString('base64url'))].join('.');
}

/**
 * The secret sealed in `stored`, or undefined when no configured key opens it (a key rotated away, a damaged
 * value): the factor is then unusable, which the sign-in treats as a wrong code, never as a server failure.
 * A `v1` value (before keys were named) is tried with every key.
 */
export function decryptSecret(stored: string): string | undefined {
  const parts = stored.split('.');
  const [version] = parts;
  const [kid, iv, data, tag] = version === 'v2' ? parts.slice(1) : [undefined, ...parts.slice(1)];
  if ((version !== 'v1' && version !== 'v2') || !iv || !data || !tag) return undefined;
  for (const key of factorKeys().filter((k) => kid === undefined || k.id === kid)) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', aesKey(key), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // Not this key: try the next.
    }
  }
  return undefined;
}

/** Crockford's base32 without I, L, O and U: nothing to misread when typed from paper. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Ten codes like `7KQ2M-XR4PD` (50 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => CODE_ALPHABET[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The stored form of a code, whatever case and separators it was typed with. */
export function recoveryCodeHash(code: string): string {
  const normal = code.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return createHash('sha256').update(`korvel-recovery\0${normal}`).digest('hex');
}
