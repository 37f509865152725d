import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_PER_IP, SIGNUP_PER_IP } from '../../src/server/rate-limit.ts';
import { startApi, type Api } from './support/harness.ts';

const ADMIN = { email: 'owner@korvel.example', password: 'the right password, long enough' };
let api: Api;

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin(ADMIN.email, ADMIN.password);
});
afterAll(() => api?.close());

const attempt = (password: string, ip: string, email = ADMIN.email) =>
  api.call('POST', '/admin/login', { json: { email, password }, ip });

describe('login limits', { timeout: 300_000 }, () => {
  test('the 11th wrong password from one IP gets 429, the right password from another IP still succeeds', async () => {
    // The per-account delays make these attempts take about 20 s; the next test relies on their still counting.
    for (let i = 1; i <= LOGIN_PER_IP.max; i++) {
      const reply = await attempt(`wrong guess ${i}`, '198.51.100.66');
      expect(reply.status, `attempt ${i}`).toBe(401);
    }
    const limited = await attempt('wrong guess 11', '198.51.100.66');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // No attempt count, remaining tries or failure total anywhere in the reply.
    expect(limited.text).not.toMatch(/\d/);

    const fromElsewhere = await attempt(ADMIN.password, '203.0.113.9');
    expect(fromElsewhere.status).toBe(200);
    // The password step passes; the second step (tests/api/team.test.ts) then gives the token.
    expect(typeof fromElsewhere.body.mfa.ticket).toBe('string');
  });

  test('while limited, even the right password from that IP gets 429', async () => {
    expect((await attempt(ADMIN.password, '198.51.100.66')).status).toBe(429);
  });

  test('an unknown address and a wrong password get the same reply', async () => {
    const unknown = await attempt('whatever it is', '198.51.100.70', 'nobody@korvel.example');
    const wrong = await attempt('whatever it is', '198.51.100.71');
    expect(unknown.status).toBe(401);
    expect(unknown.text).toBe(wrong.text);
  });

  test('counters hold hashed keys, never the raw IP or e-mail', async () => {
    const rows = await api.db.query<{ key: string }>('SELECT key FROM rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) expect(key).not.toMatch(/198\.51|korvel\.example/);
  });
});

describe('sign-up limits', () => {
  test(`sign-up number ${SIGNUP_PER_IP.max + 1} from one IP within the hour gets 429 and stores nothing`, async () => {
    for (let i = 1; i <= SIGNUP_PER_IP.max; i++) {
      const reply = await api.call('POST', '/api/newsletter', {
        json: { email: `reader${i}@plant.example`, consent: true, source: '/' },
        ip: '198.51.100.80',
      });
      expect(reply.status, `sign-up ${i}`).toBe(202);
    }
    const limited = await api.call('POST', '/api/newsletter', {
      json: { email: 'one-too-many@plant.example', consent: true, source: '/' },
      ip: '198.51.100.80',
    });
    expect(limited.status).toBe(429);
    expect(
      await api.db.query('SELECT id FROM subscribers WHERE email = $1', ['one-too-many@plant.example']),
    ).toEqual([]);
    const other = await api.call('POST', '/api/newsletter', {
      json: { email: 'neighbour@plant.example', consent: true, source: '/' },
      ip: '198.51.100.81',
    });
    expect(other.status).toBe(202);
  });
});
