/**
 * What the admin tests need beside the browser: the preview's database (to add their own admin accounts and
 * rows, so parallel tests never share a session a logout would revoke) and a signed-in token.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import pg from 'pg';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { hashPassword } from '../../src/server/password.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';

export interface Credentials {
  email: string;
  password: string;
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

/** A fresh admin account of this test's own. */
export async function createAdmin(label: string): Promise<Credentials> {
  const credentials = {
    email: `${unique(label)}@korvel.example`,
    password: randomBytes(18).toString('base64url'),
  };
  const db = {
    query: <T extends Record<string, unknown>>(text: string, params?: readonly unknown[]) =>
      sql<T>(text, [...(params ?? [])]),
  };
  await upsertAdmin(db, credentials.email, await hashPassword(credentials.password));
  return credentials;
}

export async function removeAdmin(credentials: Credentials): Promise<void> {
  await sql('DELETE FROM admins WHERE lower(email) = lower($1)', [credentials.email]);
}

export async function apiToken(request: APIRequestContext, credentials: Credentials): Promise<string> {
  const reply = await request.post('/admin/login', { data: credentials });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as { token: string }).token;
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
