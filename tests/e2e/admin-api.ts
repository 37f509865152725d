/** What the e2e specs read back as the admin would: an owner account of this worker, its token, the rows. */
import { expect, type APIRequestContext } from '@playwright/test';
import { apiToken, createAdmin, type Credentials } from './admin-support.ts';

let reader: Promise<Credentials> | undefined;

/** A full owner session for reading back rows: one account per worker, each call a sign-in of its own. */
export async function signIn(request: APIRequestContext): Promise<string> {
  reader ??= createAdmin('e2e-reader');
  return apiToken(request, await reader);
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
