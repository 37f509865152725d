/** What the e2e specs read back as the admin would: the seeded dev admin, its token, and the stored rows. */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { apiToken } from './admin-support.ts';

/** The dev owner the preview seeded, with its TOTP secret taken from the printed `otpauth://` URI. */
export function devAdmin(): { email: string; password: string; totp: string } {
  const admin = JSON.parse(readFileSync(`${E2E_DATA_DIR}.admin.json`, 'utf8')) as {
    email: string;
    password: string;
    otpauth: string;
  };
  return {
    email: admin.email,
    password: admin.password,
    totp: new URL(admin.otpauth).searchParams.get('secret')!,
  };
}

export async function signIn(request: APIRequestContext): Promise<string> {
  return apiToken(request, devAdmin());
}

export interface StoredInquiry {
  id: number;
  kind: 'contact' | 'meeting';
  fullName: string;
  email: string;
  subject: string | null;
  message: string | null;
  meetingStart: string | null;
}

/** Every stored inquiry from `email`, through GET /api/inquiries. */
export async function inquiriesFrom(request: APIRequestContext, email: string): Promise<StoredInquiry[]> {
  const reply = await request.get('/api/inquiries', {
    headers: { authorization: `Bearer ${await signIn(request)}` },
  });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as StoredInquiry[]).filter((row) => row.email === email);
}

/** Subscribers whose address contains `q`, through GET /api/newsletter. */
export async function subscribersMatching(
  request: APIRequestContext,
  q: string,
): Promise<{ email: string }[]> {
  const reply = await request.get(`/api/newsletter?q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${await signIn(request)}` },
  });
  expect(reply.status()).toBe(200);
  return reply.json();
}
