/**
 * The admin bearer token in the browser: stored under `token` in localStorage (SPEC §3), never in a URL.
 * Reading its expiry here only spares a request that would fail; the server alone decides what is valid.
 */
import { decodeJwt } from 'jose';

export const TOKEN_KEY = 'token';
/** sessionStorage key that carries "just signed in" from the sign-in page to the panel's toast. */
export const SIGNED_IN_FLASH_KEY = 'korvel:admin-signed-in';

/** sessionStorage key that tells the sign-in page why the last session ended (`idle` or `limit`). */
export const SIGNED_OUT_KEY = 'korvel:admin-signed-out';

export const ADMIN_HOME = '/admin';
export const ADMIN_LOGIN = '/admin/login';
export const ADMIN_ACCOUNT = '/admin/account';

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window[kind];
  } catch {
    return undefined; // storage blocked by the browser's privacy settings
  }
}

export function readToken(): string | null {
  return storage('localStorage')?.getItem(TOKEN_KEY) ?? null;
}

export function storeToken(token: string): void {
  storage('localStorage')?.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  storage('localStorage')?.removeItem(TOKEN_KEY);
}

/** Leaves a one-time note for the panel to greet the admin after the sign-in page navigates away. */
export function flashSignedIn(): void {
  storage('sessionStorage')?.setItem(SIGNED_IN_FLASH_KEY, '1');
}

/** Whether the sign-in page left a greeting; reading it removes it. */
export function takeSignedInFlash(): boolean {
  const store = storage('sessionStorage');
  const present = store?.getItem(SIGNED_IN_FLASH_KEY) === '1';
  store?.removeItem(SIGNED_IN_FLASH_KEY);
  return present;
}

export type SignOutReason = 'idle' | 'limit';

/** Leaves the sign-in page a note that the session ended by itself, and why. */
export function flashSignedOut(reason: SignOutReason): void {
  storage('sessionStorage')?.setItem(SIGNED_OUT_KEY, reason);
}

/** Why the last session ended by itself, if it did; reading it removes the note. */
export function takeSignedOutFlash(): SignOutReason | null {
  const store = storage('sessionStorage');
  const reason = store?.getItem(SIGNED_OUT_KEY);
  store?.removeItem(SIGNED_OUT_KEY);
  return reason === 'idle' || reason === 'limit' ? reason : null;
}

/**
 * The `exp` claim of a JWT in milliseconds, read with jose's `decodeJwt` without verifying the signature;
 * null when the token is not a readable JWT or has no expiry.
 * @example tokenExpiresAt('eyJhbGciOi….eyJleHAiOjE3OTk5OTk5OTl9.sig') // 1799999999000
 */
export function tokenExpiresAt(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A token worth sending: shaped like a JWT and not past its expiry on this clock. */
export function tokenLooksUsable(token: string | null, now = Date.now()): token is string {
  if (!token) return false;
  const expiresAt = tokenExpiresAt(token);
  return expiresAt !== null && expiresAt > now;
}
