/**
 * What the admin tests need beside the browser: the preview's database (to add their own admin accounts and
 * rows, so parallel tests never share a session a logout would revoke) and a signed-in token.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, request as http, type APIRequestContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import { baseURL, E2E_DATA_DIR } from '../../playwright.config.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';
import { fixtureHash } from '../support/fixture-password.ts';
import { message } from './fixtures.ts';

const adminMessage = (key: string) => message(`admin:${key}`);

export type Role = 'owner' | 'editor' | 'sales';

export interface Credentials {
  email: string;
  password: string;
  /** The base32 secret of the account's authenticator app, as GET /api/account/totp gave it. */
  totpSecret: string;
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

/** The code an authenticator app shows for `secret` at `timestamp` (RFC 6238: SHA-1, 6 digits, 30 s). */
export const totpCode = (secret: string, timestamp = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp });

/**
 * A code the server will take now. A real app shows each code once per 30 s and the server accepts a code
 * once (replay refused); tests sign one account in far more often, so the account's last used step is
 * forgotten first. Replay itself is tested through the API (tests/api).
 */
export async function freshTotpCode(credentials: Credentials): Promise<string> {
  await sql('UPDATE admins SET totp_last_step = NULL WHERE lower(email) = lower($1)', [credentials.email]);
  return totpCode(credentials.totpSecret);
}

/**
 * Sets up the authenticator app of a signed-in account holding an enrolment `token`, confirming it is them
 * with `password`; returns its secret.
 */
export async function enrolTotp(api: APIRequestContext, token: string, password: string): Promise<string> {
  const issued = await api.post('/api/account/totp', {
    headers: bearer(token),
    data: { currentPassword: password },
  });
  expect(issued.status(), await issued.text()).toBe(200);
  const { secret } = (await issued.json()) as { secret: string };
  const confirmed = await api.post('/api/account/totp/confirm', {
    headers: bearer(token),
    data: { code: totpCode(secret) },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return secret;
}

/** The password of the accounts this worker creates, hashed once as a fixture (tests/support/fixture-password.ts). */
const workerPassword = randomBytes(18).toString('base64url');

/**
 * A fresh admin account of this test's own with `role`, enrolled with an authenticator app through the API
 * as a person would: the password step hands out an enrolment token, the app's first code confirms it.
 */
export async function createAdmin(label: string, role: Role = 'owner'): Promise<Credentials> {
  const email = `${unique(label)}@korvel.example`;
  const db = {
    query: <T extends Record<string, unknown>>(text: string, params?: readonly unknown[]) =>
      sql<T>(text, [...(params ?? [])]),
  };
  await upsertAdmin(db, email, await fixtureHash(workerPassword));
  await sql('UPDATE admins SET role = $2 WHERE lower(email) = lower($1)', [email, role]);
  const api = await http.newContext({ baseURL });
  try {
    const reply = await api.post('/admin/login', { data: { email, password: workerPassword } });
    expect(reply.status()).toBe(200);
    const { token, enrol } = (await reply.json()) as { token: string; enrol: boolean };
    expect(enrol).toBe(true);
    return { email, password: workerPassword, totpSecret: await enrolTotp(api, token, workerPassword) };
  } finally {
    await api.dispose();
  }
}

export async function removeAdmin(credentials: Credentials): Promise<void> {
  await sql('DELETE FROM admins WHERE lower(email) = lower($1)', [credentials.email]);
}

/** Both sign-in steps through the API: the password, then the authenticator code; the full session's token. */
export async function apiToken(request: APIRequestContext, credentials: Credentials): Promise<string> {
  const reply = await request.post('/admin/login', {
    data: { email: credentials.email, password: credentials.password },
  });
  expect(reply.status()).toBe(200);
  const { mfa } = (await reply.json()) as { mfa: { ticket: string } };
  const second = await request.post('/admin/login/mfa', {
    data: { ticket: mfa.ticket, method: 'totp', code: await freshTotpCode(credentials) },
  });
  expect(second.status(), await second.text()).toBe(200);
  return ((await second.json()) as { token: string }).token;
}

/**
 * Signs in through the form as a person does: e-mail and password, then the authenticator code; waits for
 * the panel.
 */
export async function signInThroughForm(page: Page, credentials: Credentials): Promise<void> {
  const login = (key: string) => adminMessage(`login_form.${key}`);
  await page.goto('/admin/login');
  await page.getByLabel(login('email')).fill(credentials.email);
  await page.getByLabel(login('password')).fill(credentials.password);
  await page.getByRole('button', { name: login('submit') }).click();
  const code = page.getByLabel(adminMessage('second_step.code'));
  await expect(code).toBeVisible({ timeout: 45_000 });
  await code.fill(await freshTotpCode(credentials));
  await page.getByRole('button', { name: adminMessage('second_step.submit') }).click();
  await expect(page).toHaveURL(/\/admin$/, { timeout: 45_000 });
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
