import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { useDatabase } from '../../src/server/config.ts';
import { createDb } from '../../src/server/db/index.ts';
import { freePort } from './support/postgres.ts';
import { startApi, TEST_JWT_SECRET, type Api } from './support/harness.ts';

let api: Api;
let errors: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin('ops@korvel.example', 'a sufficiently long password');
});
afterAll(() => api?.close());
afterEach(() => {
  process.env.JWT_SECRET = TEST_JWT_SECRET;
  useDatabase(api.db);
  errors?.mockRestore();
});

describe('configuration', () => {
  test.each([
    ['unset', undefined],
    ['shorter than 32 bytes', 'only-twenty-one-bytes'],
  ])('JWT_SECRET %s: admin calls answer 503 server_not_configured and log why', async (_, value) => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    if (value === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = value;
    for (const [method, path, json] of [
      ['POST', '/admin/login', { email: 'ops@korvel.example', password: 'a sufficiently long password' }],
      ['GET', '/api/newsletter', undefined],
      ['DELETE', '/api/newsletter/1', undefined],
      ['POST', '/admin/logout', undefined],
      ['GET', '/api/inquiries', undefined],
    ] as const) {
      const reply = await api.call(method, path, { json });
      expect(reply.status, `${method} ${path}`).toBe(503);
      expect(reply.body.error.code).toBe('server_not_configured');
      expect(reply.text).not.toContain('JWT_SECRET');
    }
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('JWT_SECRET'));
  });
});

describe('database outage', () => {
  test('answers 503 service_unavailable with Retry-After, logs it, and leaks no detail', async () => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const port = await freePort();
    const unreachable = createDb(`postgres://korvel@127.0.0.1:${port}/korvel`);
    useDatabase(unreachable);
    const signUp = await api.call('POST', '/api/newsletter', {
      json: { email: 'a@plant.example', consent: true, source: '/' },
    });
    const login = await api.call('POST', '/admin/login', {
      json: { email: 'ops@korvel.example', password: 'a sufficiently long password' },
    });
    for (const reply of [signUp, login]) {
      expect(reply.status).toBe(503);
      expect(reply.body.error.code).toBe('service_unavailable');
      expect(reply.headers.get('retry-after')).toBe('30');
      expect(reply.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/);
    }
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('database unavailable'));
    await unreachable.close();
  });
});
