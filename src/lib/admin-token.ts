/**
 * The admin bearer token in the browser: stored under `token` in localStorage (SPEC §3), never in a URL.
 * Reading its expiry here only spares a request that would fail; the server alone decides what is valid.
 */
import { decodeJwt } from 'jose';

export const TOKEN_KEY = 'token';
/** sessionStorage key that carries "just signed in" from the sign-in page to the panel's toast. */
export const SIGNED_IN_FLASH_KEY = 'korvel:admin-signed-in';

export const ADMIN_HOME = '/admin';
export const ADMIN_LOGIN = '/admin/login';

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
