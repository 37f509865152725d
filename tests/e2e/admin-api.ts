/** What the e2e specs read back as the admin would: the seeded dev admin, its token, and the stored rows. */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';

export function devAdmin(): { email: string; password: string } {
  return JSON.parse(readFileSync(`${E2E_DATA_DIR}.admin.json`, 'utf8'));
}

export async function signIn(request: APIRequestContext): Promise<string> {
  const reply = await request.post('/admin/login', { data: devAdmin() });
  expect(reply.status()).toBe(200);
  return (await reply.json()).token;
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
