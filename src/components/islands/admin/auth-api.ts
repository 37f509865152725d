/**
 * The calls made before a full session exists: the second sign-in step, the password reset and the
 * invitation (docs: /work/coord/team-contract.md). None of them carries a bearer token except where said.
 */
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { call, tokenFrom } from './api.ts';

/** The authenticator-app or recovery-code answer to a sign-in ticket; resolves to the session token. */
export async function passCode(ticket: string, method: 'totp' | 'recovery', code: string): Promise<string> {
  return tokenFrom(await call('/admin/login/mfa', { method: 'POST', json: { ticket, method, code } }));
}

/** The WebAuthn request options for a sign-in ticket, as `@simplewebauthn/server` makes them. */
export async function passkeySignInOptions(ticket: string): Promise<unknown> {
  return (await call('/admin/login/passkey/options', { method: 'POST', json: { ticket } })).json();
}

export async function passPasskey(ticket: string, response: AuthenticationResponseJSON): Promise<string> {
  return tokenFrom(await call('/admin/login/passkey', { method: 'POST', json: { ticket, response } }));
}

/** Asks for a reset link; the server answers 202 whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  await call('/admin/password-reset', { method: 'POST', json: { email } });
}

export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  await call('/admin/password-reset/confirm', { method: 'POST', json: { token, password } });
}

export type Role = 'owner' | 'editor' | 'sales';
export const ROLES: readonly Role[] = ['owner', 'editor', 'sales'];

/** Who an invitation link is for; 410 `link_expired` when it is expired, used or revoked. */
export async function inspectInvitation(token: string): Promise<{ email: string; role: Role }> {
  return (await call('/admin/invite/inspect', { method: 'POST', json: { token } })).json() as Promise<{
    email: string;
    role: Role;
  }>;
}

/** Sets the password of an invited account; resolves to a token that may only enrol a second factor. */
export async function acceptInvitation(token: string, password: string, name: string): Promise<string> {
  const json = name ? { token, password, name } : { token, password };
  return tokenFrom(await call('/admin/invite/accept', { method: 'POST', json }));
}

/**
 * The `token` a mailed link carries in its fragment (`#token=…`), so it reaches neither a server log nor a
 * Referer; null when there is none.
 * @example linkToken('#token=abc') // 'abc'
 */
export function linkToken(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return value ? value : null;
}
