/**
 * The functions behind Netlify's own routing (the preview server), against the embedded database:
 * what the admin island and the newsletter form will call.
 */
import { expect, test } from '@playwright/test';
import { Agent, request as undiciRequest } from 'undici';
import { signIn } from './admin-api.ts';
import { DESKTOP } from './fixtures.ts';

// API checks run once, not per viewport: the desktop project runs them.
test.describe('functions', DESKTOP, () => {
  test('the dev admin signs in and lists the seeded subscribers, some without a date', async ({
    request,
  }) => {
    const token = await signIn(request);
    const list = await request.get('/api/newsletter', { headers: { authorization: `Bearer ${token}` } });
    expect(list.status()).toBe(200);
    expect(list.headers()['cache-control']).toBe('no-store');
    expect(list.headers()['x-content-type-options']).toBe('nosniff');
    const subscribers: { id: number; email: string; created_temp: string | null }[] = await list.json();
    expect(subscribers.length).toBeGreaterThanOrEqual(25);
    expect(subscribers.some((s) => s.created_temp === null)).toBe(true);
    expect(Number(list.headers()['x-total-count'])).toBe(subscribers.length);
  });

  test('a visitor signs up and the admin sees the address; deleting it twice gives 204 then 404', async ({
    request,
  }) => {
    const email = `e2e-${Date.now()}@plant.example`;
    const signUp = await request.post('/api/newsletter', { data: { email, consent: true, source: '/blog' } });
    expect(signUp.status()).toBe(202);
    const auth = { authorization: `Bearer ${await signIn(request)}` };
    const found = await (
      await request.get(`/api/newsletter?q=${encodeURIComponent(email)}`, { headers: auth })
    ).json();
    expect(found).toHaveLength(1);
    expect((await request.delete(`/api/newsletter/${found[0].id}`, { headers: auth })).status()).toBe(204);
    expect((await request.delete(`/api/newsletter/${found[0].id}`, { headers: auth })).status()).toBe(404);
  });

  test('GET /admin/login is the sign-in page; other methods but POST get 405', async ({ request }) => {
    const page = await request.get('/admin/login');
    expect(page.status()).toBe(200);
    expect(page.headers()['content-type']).toContain('text/html');
    const put = await request.put('/admin/login', { data: {} });
    expect(put.status()).toBe(405);
    expect(put.headers()['allow']).toBe('POST');
  });

  test('a list request without a token gets 401, and a bad id gets 400', async ({ request }) => {
    expect((await request.get('/api/newsletter')).status()).toBe(401);
    const token = await signIn(request);
    const bad = await request.delete('/api/newsletter/1;DROP', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_id');
  });

  test('logout revokes the token', async ({ request }) => {
    const token = await signIn(request);
    const auth = { authorization: `Bearer ${token}` };
    expect((await request.post('/admin/logout', { headers: auth })).status()).toBe(204);
    expect((await request.get('/api/newsletter', { headers: auth })).status()).toBe(401);
  });

  test('200 bodies over the limit in a row on one keep-alive connection: every one 413, none reset', async ({
    baseURL,
  }) => {
    // Node's fetch client, with one connection it reuses; a reset would reject a request or open a new socket.
    const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000 });
    let sockets = 0;
    agent.on('connect', () => (sockets += 1));
    const oversized = JSON.stringify({ email: 'large@example.com', padding: 'x'.repeat(64 * 1024) });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const reply = await undiciRequest(`${baseURL}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: oversized,
        dispatcher: agent,
      });
      await reply.body.dump();
      statuses.push(reply.statusCode);
    }
    expect(statuses).toEqual(Array(200).fill(413));
    const next = await undiciRequest(`${baseURL}/api/health`, { dispatcher: agent });
    expect(next.statusCode).toBe(200);
    await next.body.dump();
    expect(sockets).toBe(1);
    await agent.close();
  });
});
