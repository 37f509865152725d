/** The signed-in person's own account: profile, password, second factors, recovery codes and sessions. */
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { call, tokenFrom } from './api.ts';
import type { Role } from './auth-api.ts';

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Account {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: 'invited' | 'active' | 'disabled';
  /** True for a token that may only enrol a second factor. */
  enrol?: boolean;
  factors: { totp: boolean; passkeys: Passkey[]; recoveryCodesLeft: number };
  session: { id: string; createdAt: string; idleTimeoutSeconds: number; expiresAt: string };
}

export interface Session {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  current: boolean;
  /** The truncated client address, e.g. `198.51.100.0/24`. */
  client: string | null;
}

/** Who it is, asked again for every change of a factor or the recovery codes: the password or an app code. */
export type Proof = { currentPassword: string } | { code: string };

/** A factor added: the token that replaces an enrolment token, and the recovery codes if it was the first. */
export interface Enrolled {
  token: string;
  recoveryCodes: string[];
}

export async function fetchAccount(token: string, signal?: AbortSignal): Promise<Account> {
  return (await call('/api/account', { token, signal })).json() as Promise<Account>;
}

export async function renameAccount(token: string, name: string): Promise<Account> {
  return (await call('/api/account', { method: 'PATCH', token, json: { name } })).json() as Promise<Account>;
}

/** Changes the password; every other session ends and this one goes on with the returned token. */
export async function changePassword(token: string, currentPassword: string, password: string) {
  return tokenFrom(
    await call('/api/account/password', { method: 'POST', token, json: { currentPassword, password } }),
  );
}

/** A new authenticator-app secret and its `otpauth://` URI, waiting for a first code. */
export async function startTotp(token: string, proof: Proof): Promise<{ secret: string; uri: string }> {
  return (await call('/api/account/totp', { method: 'POST', token, json: proof })).json() as Promise<{
    secret: string;
    uri: string;
  }>;
}

export async function confirmTotp(token: string, code: string): Promise<Enrolled> {
  return enrolled(await call('/api/account/totp/confirm', { method: 'POST', token, json: { code } }));
}

/** 409 `last_factor` when it is the account's only factor. */
export async function removeTotp(token: string, proof: Proof): Promise<void> {
  await call('/api/account/totp', { method: 'DELETE', token, json: proof });
}

export async function passkeyOptions(token: string, proof: Proof): Promise<unknown> {
  return (await call('/api/account/passkeys/options', { method: 'POST', token, json: proof })).json();
}

export async function addPasskey(
  token: string,
  response: RegistrationResponseJSON,
  name: string,
): Promise<Enrolled> {
  const json = name ? { response, name } : { response };
  return enrolled(await call('/api/account/passkeys', { method: 'POST', token, json }));
}

export async function removePasskey(token: string, id: string, proof: Proof): Promise<void> {
  await call(`/api/account/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE', token, json: proof });
}

/** Ten new recovery codes; the old ones stop working. */
export async function renewRecoveryCodes(token: string, proof: Proof): Promise<string[]> {
  const reply = await call('/api/account/recovery-codes', { method: 'POST', token, json: proof });
  const body = (await reply.json()) as {
    recoveryCodes: string[];
  };
  return body.recoveryCodes;
}

export async function fetchSessions(token: string, signal?: AbortSignal): Promise<Session[]> {
  return (await call('/api/account/sessions', { token, signal })).json() as Promise<Session[]>;
}

/** Ends every session of this account, this one included. */
export async function signOutEverywhere(token: string): Promise<void> {
  await call('/api/account/sessions/revoke-all', { method: 'POST', token });
}

async function enrolled(response: Response): Promise<Enrolled> {
  const body = (await response.clone().json()) as { recoveryCodes?: unknown };
  const codes = Array.isArray(body.recoveryCodes)
    ? body.recoveryCodes.filter((c): c is string => typeof c === 'string')
    : [];
  return { token: await tokenFrom(response), recoveryCodes: codes };
}
