/**
 * The sliding windows of the rate limits against the attack fixed windows let through: the limit spent just
 * before a window's edge and again just after it, twice the limit within seconds. Time is driven through the
 * functions' `now` and, over HTTP, by ageing the stored event times; nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CONTACT_PER_IP,
  hit,
  LOGIN_PER_IP,
  release,
  SIGNUP_PER_IP,
  type Limit,
} from '../../src/server/rate-limit.ts';
import { startApi, type Api } from './support/harness.ts';

let api: Api;
let keyCounter = 0;
/** A client address no other test uses. */
const nextIp = () => `198.51.100.${++keyCounter}`;

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

const SECOND = 1000;
/** An edge of the old fixed windows: a whole multiple of the window since the epoch. */
const edgeOf = (limit: Limit) => new Date(Date.UTC(2020, 0, 1) + limit.windowSeconds * SECOND);
const at = (edge: Date, seconds: number) => new Date(edge.getTime() + seconds * SECOND);

/** `times` events for `key` at `now`, one after another; the counts they got back. */
async function burst(limit: Limit, key: string, now: Date, times = limit.max): Promise<number[]> {
  const counts: number[] = [];
  for (let i = 0; i < times; i++) counts.push((await hit(api.db, limit, key, now)).count);
  return counts;
}

const allowed = (counts: number[], limit: Limit) => counts.filter((count) => count <= limit.max).length;

describe('a burst at the edge of the old fixed window', () => {
  test.each([
    ['login per IP', LOGIN_PER_IP],
    ['newsletter sign-up per IP', SIGNUP_PER_IP],
    ['contact per IP', CONTACT_PER_IP],
  ])(
    '%s: the limit just before the edge and again just after: the second burst is refused',
    async (_, limit) => {
      const ip = nextIp();
      const edge = edgeOf(limit);
      expect(allowed(await burst(limit, ip, at(edge, -1)), limit)).toBe(limit.max);
      const after = await burst(limit, ip, at(edge, 1));
      expect(allowed(after, limit)).toBe(0);
      // Refused with the time until the first burst has aged out of the window.
      const refused = await hit(api.db, limit, ip, at(edge, 1));
      expect(refused.count).toBe(limit.max + 1);
      expect(refused.retryAfter).toBe(limit.windowSeconds - 2);
    },
  );

  test('no span of one window ever holds more than the limit, wherever the edges fall', async () => {
    const ip = nextIp();
    const start = edgeOf(LOGIN_PER_IP);
    const accepted: number[] = [];
    // An attempt every 20 s for an hour, across four of the old window edges.
    for (let second = 0; second < 3600; second += 20) {
      if ((await hit(api.db, LOGIN_PER_IP, ip, at(start, second))).count <= LOGIN_PER_IP.max)
        accepted.push(second);
    }
    for (const from of accepted) {
      const inWindow = accepted.filter((s) => s >= from && s < from + LOGIN_PER_IP.windowSeconds);
      expect(inWindow.length, `the ${LOGIN_PER_IP.windowSeconds} s from ${from} s`).toBeLessThanOrEqual(
        LOGIN_PER_IP.max,
      );
    }
    // Yet the limit is a rate, not a lock-out: the hour lets four windows' worth through.
    expect(accepted).toHaveLength(4 * LOGIN_PER_IP.max);
  });

  test('a place opens when the oldest counted event is a window old, and only one', async () => {
    const ip = nextIp();
    const start = edgeOf(SIGNUP_PER_IP);
    await burst(SIGNUP_PER_IP, ip, start, 1);
    await burst(SIGNUP_PER_IP, ip, at(start, 600), SIGNUP_PER_IP.max - 1);
    expect((await hit(api.db, SIGNUP_PER_IP, ip, at(start, 3599))).count).toBe(SIGNUP_PER_IP.max + 1);
    const counts = await burst(SIGNUP_PER_IP, ip, at(start, 3600), 3);
    expect(counts).toEqual([SIGNUP_PER_IP.max, SIGNUP_PER_IP.max + 1, SIGNUP_PER_IP.max + 1]);
  });

  test('attempts refused while limited do not extend the block', async () => {
    const ip = nextIp();
    const start = edgeOf(LOGIN_PER_IP);
    await burst(LOGIN_PER_IP, ip, start);
    for (let second = 10; second < LOGIN_PER_IP.windowSeconds; second += 10)
      expect((await hit(api.db, LOGIN_PER_IP, ip, at(start, second))).count).toBe(LOGIN_PER_IP.max + 1);
    const reopened = await burst(LOGIN_PER_IP, ip, at(start, LOGIN_PER_IP.windowSeconds));
    expect(allowed(reopened, LOGIN_PER_IP)).toBe(LOGIN_PER_IP.max);
  });

  test('25 events for one key at once: exactly the limit are counted', async () => {
    const ip = nextIp();
    const now = edgeOf(LOGIN_PER_IP);
    const windows = await Promise.all(Array.from({ length: 25 }, () => hit(api.db, LOGIN_PER_IP, ip, now)));
    expect(
      allowed(
        windows.map((w) => w.count),
        LOGIN_PER_IP,
      ),
    ).toBe(LOGIN_PER_IP.max);
  });

  test('release takes back one counted event', async () => {
    const ip = nextIp();
    const now = edgeOf(LOGIN_PER_IP);
    await burst(LOGIN_PER_IP, ip, at(now, -5));
    await release(api.db, LOGIN_PER_IP, ip, at(now, -5));
    expect((await hit(api.db, LOGIN_PER_IP, ip, now)).count).toBe(LOGIN_PER_IP.max);
    expect((await hit(api.db, LOGIN_PER_IP, ip, now)).count).toBe(LOGIN_PER_IP.max + 1);
  });
});

describe('over HTTP, with the stored event times aged', () => {
  /**
   * Rewrites the times of the events counted in `scope` in the last hour as if they had come 5 s apart, the
   * first `firstAgo` seconds ago.
   */
  const backdate = (scope: string, firstAgo: number) =>
    api.db.query(
      `UPDATE rate_limits SET
         hits = array(SELECT now() - make_interval(secs => $2 - 5 * (n - 1))
                      FROM generate_series(1, cardinality(hits)) AS n),
         last_hit_at = now() - make_interval(secs => $2 - 5 * (cardinality(hits) - 1))
       WHERE scope = $1 AND last_hit_at > now() - interval '1 hour'`,
      [scope, firstAgo],
    );

  test('ten wrong passwords just before an old edge, then more just after: refused until they age out', async () => {
    const ip = nextIp();
    // Accounts of their own, one per guess: a wrong password is checked at their (fixture) cost with no
    // per-account delay, where an unknown address costs a decoy scrypt at the server's cost (issue 40).
    const accounts = Array.from({ length: LOGIN_PER_IP.max + 3 }, (_, i) => `edge${i + 1}@korvel.example`);
    for (const email of accounts) await api.createAdmin(email, 'the edge accounts’ passphrase');
    const guess = (i: number) =>
      api.call('POST', '/admin/login', {
        json: { email: accounts[i - 1], password: 'a guess' },
        ip,
      });
    for (let i = 1; i <= LOGIN_PER_IP.max; i++) expect((await guess(i)).status, `guess ${i}`).toBe(401);
    // The first guess now lies 14 min 30 s back: in a fixed window, most likely in the one before this.
    await backdate(LOGIN_PER_IP.scope, LOGIN_PER_IP.windowSeconds - 30);
    const limited = await guess(LOGIN_PER_IP.max + 1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    // Once the first guess is a window old, its place (and only its place) is free again.
    await backdate(LOGIN_PER_IP.scope, LOGIN_PER_IP.windowSeconds + 1);
    expect((await guess(LOGIN_PER_IP.max + 2)).status).toBe(401);
    expect((await guess(LOGIN_PER_IP.max + 3)).status).toBe(429);
  });

  test('twenty sign-ups just before an old edge, then one just after: 429, and nothing stored', async () => {
    const ip = nextIp();
    const signUp = (i: number) =>
      api.call('POST', '/api/newsletter', {
        json: { email: `edge${i}@plant.example`, consent: true, source: '/' },
        ip,
      });
    for (let i = 1; i <= SIGNUP_PER_IP.max; i++) expect((await signUp(i)).status, `sign-up ${i}`).toBe(202);
    await backdate(SIGNUP_PER_IP.scope, SIGNUP_PER_IP.windowSeconds - 30);
    expect((await signUp(SIGNUP_PER_IP.max + 1)).status).toBe(429);
    const stored = await api.db.query('SELECT 1 FROM subscribers WHERE email = $1', [
      `edge${SIGNUP_PER_IP.max + 1}@plant.example`,
    ]);
    expect(stored).toHaveLength(0);
  });
});
