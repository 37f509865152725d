/**
 * What the admin tests need beside the browser: the preview's database (to add their own admin accounts and
 * rows, so parallel tests never share a session a logout would revoke) and a signed-in token.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { encryptSecret, newTotpSecret } from '../../src/server/factors.ts';
import { hashPassword } from '../../src/server/password.ts';
import { upsertAdmin, type Role } from '../../src/server/repositories/admins.ts';
import { confirmTotp, setPendingTotp } from '../../src/server/repositories/factors.ts';

export interface Credentials {
  email: string;
  password: string;
  /** The account's TOTP secret (base32): {@link totpCode} makes the code the second sign-in step asks for. */
  totp: string;
}

/** The current code of the account's authenticator app. */
export const totpCode = (credentials: Pick<Credentials, 'totp'>, timestamp = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(credentials.totp), timestamp });

/**
 * The preview's JWT_SECRET (the TOTP secrets are encrypted under a key derived from it): the environment's,
 * or the one scripts/lib/local-services.ts keeps in .data/jwt-secret.
 */
function useServerSecret(): void {
  process.env.JWT_SECRET ??= readFileSync(
    fileURLToPath(new URL('../../.data/jwt-secret', import.meta.url)),
    'utf8',
  ).trim();
}

/** The database the preview serves: DATABASE_URL, or the embedded one, which writes its URL beside its data. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? readFileSync(`${E2E_DATA_DIR}.url`, 'utf8').trim();
}

/** Runs `sql` on the preview's database and returns the rows. */
export async function sql<T extends Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A text no other test run uses, for addresses and subjects: `<label>-<time>-<random>`. */
export const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/** A fresh active account of this test's own, with `role` and an authenticator app (TOTP) set up. */
export async function createAdmin(label: string, role: Role = 'owner'): Promise<Credentials> {
  useServerSecret();
  const { secret } = newTotpSecret(label);
  const credentials = {
    email: `${unique(label)}@korvel.example`,
    password: randomBytes(18).toString('base64url'),
    totp: secret,
  };
  const db = {
    query: <T extends Record<string, unknown>>(text: string, params?: readonly unknown[]) =>
      sql<T>(text, [...(params ?? [])]),
  };
  await upsertAdmin(db, credentials.email, await hashPassword(credentials.password), new Date(), role);
  const [{ id }] = (await sql<{ id: number }>('SELECT id FROM admins WHERE lower(email) = lower($1)', [
    credentials.email,
  ])) as [{ id: number }];
  await setPendingTotp(db, id, encryptSecret(secret));
  await confirmTotp(db, id, 0);
  return credentials;
}

export async function removeAdmin(credentials: Credentials): Promise<void> {
  await sql('DELETE FROM admins WHERE lower(email) = lower($1)', [credentials.email]);
}

/** Both sign-in steps through the API: the password, then the authenticator code. */
export async function apiToken(request: APIRequestContext, credentials: Credentials): Promise<string> {
  const first = await request.post('/admin/login', {
    data: { email: credentials.email, password: credentials.password },
  });
  expect(first.status()).toBe(200);
  const { mfa } = (await first.json()) as { mfa: { ticket: string } };
  // A code is accepted once; tests sign in more often than every 30 s, so the step used last is forgotten.
  await sql('UPDATE admins SET totp_last_step = NULL WHERE lower(email) = lower($1)', [credentials.email]);
  const second = await request.post('/admin/login/mfa', {
    data: { ticket: mfa.ticket, method: 'totp', code: totpCode(credentials) },
  });
  expect(second.status()).toBe(200);
  return ((await second.json()) as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Stores `token` as a browser that signed in earlier holds it, from a page without scripts: the sign-in
 * page, finding a stored token, checks it and moves on to /admin by itself, and with warm functions that
 * move can abort the test's own navigation.
 */
export async function storeToken(page: Page, token: string): Promise<void> {
  await page.goto('/robots.txt');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
}

/** Opens /admin holding `token`. */
export async function openPanel(page: Page, token: string): Promise<void> {
  await storeToken(page, token);
  await page.goto('/admin');
}
