/**
 * Admin bearer tokens: HS256 JWTs with the algorithm pinned and every registered claim we rely on required.
 * Revocation is by time: a token issued before the admin's `tokens_valid_after` is refused.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export const TOKEN_ISSUER = 'korvel';
export const TOKEN_AUDIENCE = 'korvel-admin';
/** RFC 9068 access-token type, so no other JWT signed with the same key passes as one. */
export const TOKEN_TYPE = 'at+jwt';
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

export interface TokenClaims {
  adminId: number;
  /** Seconds since the epoch. */
  issuedAt: number;
}

/**
 * Signs a token for `adminId`. `notBefore` is the admin's `tokens_valid_after`: `iat` is never earlier than
 * its next whole second, so a login in the same second as a logout still gets a valid token.
 */
export async function signAdminToken(adminId: number, secret: Uint8Array, notBefore: Date, now = new Date()): Promise<string> {
  const issuedAt = Math.max(Math.floor(now.getTime() / 1000), Math.ceil(notBefore.getTime() / 1000));
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
    .setSubject(String(adminId))
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
    .sign(secret);
}

/** Verifies signature, algorithm, type, issuer, audience and expiry; returns undefined for any bad token. */
export async function verifyAdminToken(token: string, secret: Uint8Array): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: TOKEN_TYPE,
      requiredClaims: ['exp', 'iat', 'sub'],
      maxTokenAge: TOKEN_LIFETIME_SECONDS,
    });
    const adminId = Number(payload.sub);
    if (!Number.isSafeInteger(adminId) || adminId < 1 || typeof payload.iat !== 'number') return undefined;
    return { adminId, issuedAt: payload.iat };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
    throw error;
  }
}
