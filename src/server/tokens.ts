/**
 * Admin bearer tokens: HS256 JWTs with the algorithm pinned and every registered claim we rely on required.
 * A token names its session (`sid`, a row of `admin_sessions`): the guard ends it there, after 30 minutes
 * without a call, 8 hours after the sign-in, or on logout. Revocation is also by time: a token issued at or
 * before the admin's `tokens_valid_after` is refused. `iat` carries milliseconds (RFC 7519 allows fractional
 * NumericDates) so a logout and the next login can fall in the same second. Nothing in the token says what
 * the account may do: the guard reads role and status from the database on every call.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export const TOKEN_ISSUER = 'korvel';
export const TOKEN_AUDIENCE = 'korvel-admin';
/** RFC 9068 access-token type, so no other JWT signed with the same key passes as one. */
export const TOKEN_TYPE = 'at+jwt';
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;
/** How far another function instance's clock may run ahead of this one's when it signs a token. */
const CLOCK_TOLERANCE_SECONDS = 60;

export interface TokenClaims {
  adminId: number;
  sessionId: string;
  /** Milliseconds since the epoch. */
  issuedAtMs: number;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Signs a token for `adminId`'s session `sessionId`, issued strictly after `validAfter` (the admin's
 * `tokens_valid_after`) even if this clock lags the one that wrote it.
 */
export async function signAdminToken(
  adminId: number,
  sessionId: string,
  secret: Uint8Array,
  validAfter: Date,
  now = new Date(),
): Promise<string> {
  const issuedAtMs = Math.max(now.getTime(), validAfter.getTime() + 1);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
    .setSubject(String(adminId))
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAtMs / 1000)
    .setExpirationTime(Math.floor(issuedAtMs / 1000) + TOKEN_LIFETIME_SECONDS)
    .sign(secret);
}

/**
 * Verifies signature, algorithm, type, issuer, audience and expiry, and that it was issued in the past and at
 * most a lifetime ago whatever its `exp` says; returns undefined for any bad token.
 */
export async function verifyAdminToken(token: string, secret: Uint8Array): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: TOKEN_TYPE,
      requiredClaims: ['exp', 'iat', 'sub'],
      maxTokenAge: TOKEN_LIFETIME_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    // Only the canonical decimal we sign: "1e0", " 1" or "01" are not another spelling of admin 1.
    if (!/^[1-9][0-9]{0,9}$/.test(payload.sub ?? '') || typeof payload.iat !== 'number') return undefined;
    if (typeof payload.sid !== 'string' || !SESSION_ID.test(payload.sid)) return undefined;
    const adminId = Number(payload.sub);
    return { adminId, sessionId: payload.sid, issuedAtMs: Math.round(payload.iat * 1000) };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
    throw error;
  }
}
