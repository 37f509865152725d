/**
 * Issue 35 through the real functions, as an attacker who read the source would try it: guessing a second
 * factor or a password without limit (50 requests at once, each from its own IPv6 /64, across sign-in
 * tickets), a stolen session token changing factors, a ticket outliving a password reset, a JWT_SECRET
 * rotation, a rate-limit table read for addresses, and a reset request that answered faster for nobody.
 * Mail is read from the real SMTP catcher; nothing sleeps.
 */
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useDatabase } from '../../src/server/config.ts';
import type { Db, Tx } from '../../src/server/db/index.ts';
import { requestReset } from '../../src/server/account-recovery.ts';
import { failure, type RequestContext } from '../../src/server/http.ts';
import collect from '../../netlify/functions/collect.mts';
import team from '../../netlify/functions/team.mts';
import activity from '../../netlify/functions/activity.mts';
import { replaceRecoveryCodes } from '../../src/server/repositories/factors.ts';
import { TALLY_NETWORKS, tallyRefusal } from '../../src/server/repositories/activity.ts';
import { recoveryCodeHash } from '../../src/server/factors.ts';
import { TEST_JWT_SECRET, type Api, type Reply } from './support/harness.ts';
import { linkIn, mailTo, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const OWNER = { email: 'keeper@korvel.example', password: 'the keeper passphrase, long enough' };
let api: Api;
let mail: TestMail;
let ownerToken: string;

useMailApi(OWNER, {}, (started) => ({ api, mail, token: ownerToken } = started));

let lineCounter = 0;
/** An address in an IPv6 /64 no other test uses: each is one subscriber line. */
const freshLine = (host = 1) => `2001:db8:35:${(++lineCounter).toString(16)}::${host.toString(16)}`;
const errorCode = (reply: Reply) => reply.body?.error?.code as string | undefined;
const LOCKED_SUBJECT = 'Your Korvel admin account is locked';
/**
 * Ten thousand calls, each bounded at 30 ms on a busy machine: the test's time follows its work. The floods
 * call the functions in-process, as Netlify would, without a socket: the work measured is theirs. Tagged
 * `flood`, they run once, on the real PostgreSQL server when one is installed (8–11 s there, two minutes on
 * PGlite under load); the statements they bound run on every backend in the other tests (scripts/test-all.ts).
 */
const FLOOD = { calls: 10_000, timeout: 10_000 * 30, tags: ['flood'] };

/** An active account with TOTP, its own password, and nothing else shared with other tests. */
async function account(name: string) {
  const email = `${name}@korvel.example`;
  const password = `${name} keeps a long enough passphrase`;
  await api.createAdmin(email, password, 'editor');
  return { email, password };
}

async function ticketFor(who: { email: string; password: string }): Promise<string> {
  const first = await api.call('POST', '/admin/login', { json: who, ip: freshLine() });
  expect(first.status, first.text).toBe(200);
  return first.body.mfa.ticket as string;
}

/** A TOTP code that is not the current one (nor of the steps either side). */
function wrongCode(email: string): string {
  const right = new Set([-30_000, 0, 30_000].map((d) => api.totpCode(email, Date.now() + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!right.has(code)) return code;
  }
}

/** The unlock (or reset) link's token from the newest such mail to `email`. */
function unlockToken(email: string): string {
  const locked = mailTo(mail.catcher, email).filter((m) => m.subject === LOCKED_SUBJECT);
  expect(locked).toHaveLength(1);
  return linkIn(locked[0]!, `${SITE_URL}/admin/reset-password#token=`).split('#token=')[1]!;
}

describe('guessing the second factor', () => {
  test('50 wrong codes at once over 50 tickets from 50 /64s: at most ten are checked, then the step is locked, the owner gets one mail, and its link opens it again', async () => {
    const who = await account('guessed');
    const tickets: string[] = [];
    for (let i = 0; i < 50; i++) tickets.push(await ticketFor(who));
    const code = wrongCode(who.email);
    const replies = await Promise.all(
      tickets.map((ticket) =>
        api.call('POST', '/admin/login/mfa', { json: { ticket, method: 'totp', code }, ip: freshLine() }),
      ),
    );
    const checked = replies.filter((r) => errorCode(r) === 'invalid_code').length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(replies.filter((r) => r.status === 423 && errorCode(r) === 'account_locked')).toHaveLength(
      50 - checked,
    );
    expect(replies.every((r) => r.status !== 500 && r.status !== 200)).toBe(true);

    // Locked across tickets: a fresh ticket and the right code still do not pass.
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [who.email]);
    const right = await api.call('POST', '/admin/login/mfa', {
      json: { ticket: await ticketFor(who), method: 'totp', code: api.totpCode(who.email) },
      ip: freshLine(),
    });
    expect(right.status).toBe(423);

    await api.settle();
    const token = unlockToken(who.email);
    const password = 'a new passphrase after the lock';
    const reset = await api.call('POST', '/admin/password-reset/confirm', { json: { token, password } });
    expect(reset.status, reset.text).toBe(200);
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [who.email]);
    expect(typeof (await api.login(who.email, password, freshLine()))).toBe('string');
  });

  test('a correct password no longer clears the count: nine wrong codes, a new sign-in, one more wrong code locks', async () => {
    const who = await account('patient');
    for (let i = 0; i < 9; i++) {
      const ticket = await ticketFor(who);
      const reply = await api.call('POST', '/admin/login/mfa', {
        json: { ticket, method: 'totp', code: wrongCode(who.email) },
        ip: freshLine(),
      });
      expect(errorCode(reply)).toBe('invalid_code');
    }
    const tenth = await api.call('POST', '/admin/login/mfa', {
      json: { ticket: await ticketFor(who), method: 'recovery', code: 'AAAAA-AAAAA' },
      ip: freshLine(),
    });
    expect(errorCode(tenth)).toBe('invalid_code');
    const after = await api.call('POST', '/admin/login/mfa', {
      json: { ticket: await ticketFor(who), method: 'totp', code: api.totpCode(who.email) },
      ip: freshLine(),
    });
    expect(after.status).toBe(423);
    const [row] = await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM activity_log WHERE action = 'auth.locked' AND actor_email = $1`,
      [who.email],
    );
    expect(row!.n).toBe(1);
  });

  test('an owner’s factor reset opens a locked account too', async () => {
    const who = await account('reset.by.owner');
    for (let i = 0; i < 10; i++) {
      await api.call('POST', '/admin/login/mfa', {
        json: { ticket: await ticketFor(who), method: 'totp', code: wrongCode(who.email) },
        ip: freshLine(),
      });
    }
    const [{ id }] = (await api.db.query<{ id: number }>('SELECT id FROM admins WHERE email = $1', [
      who.email,
    ])) as [{ id: number }];
    expect((await api.call('POST', `/api/team/${id}/reset-factors`, { token: ownerToken })).status).toBe(204);
    const login = await api.call('POST', '/admin/login', { json: who, ip: freshLine() });
    expect(login.status).toBe(200);
    expect(login.body.enrol).toBe(true);
  });
});

describe('guessing the password', () => {
  test('50 wrong passwords at once from 50 /64s: the account locks after twenty, the right password is refused like a wrong one, one mail', async () => {
    const who = await account('hunted');
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.call('POST', '/admin/login', {
          json: { email: who.email, password: `guess number ${i} for the account` },
          ip: freshLine(),
        }),
      ),
    );
    expect(replies.every((r) => r.status === 401 && errorCode(r) === 'invalid_credentials')).toBe(true);
    const [checked] = await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM activity_log
       WHERE action = 'auth.sign_in_failed' AND actor_email = $1 AND target = 'password'`,
      [who.email],
    );
    expect(checked!.n).toBeLessThanOrEqual(20);
    const right = await api.call('POST', '/admin/login', { json: who, ip: freshLine() });
    expect(right.status).toBe(401);
    expect(right.text).toBe(replies[0]!.text);
    await api.settle();
    expect(unlockToken(who.email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the addresses of one IPv6 /64 share one allowance: the 11th guess from the same line is 429', async () => {
    const who = await account('one.line');
    const line = freshLine().replace(/::1$/, '');
    const guess = { email: who.email, password: 'a guess of some length' };
    for (let i = 1; i <= 10; i++) {
      const reply = await api.call('POST', '/admin/login', {
        json: guess,
        ip: `${line}:${i}:${i}:${i}:${i}`,
      });
      expect(reply.status, `guess ${i}`).toBe(401);
    }
    const limited = await api.call('POST', '/admin/login', {
      json: guess,
      ip: `${line}:ffff:ffff:ffff:ffff`,
    });
    expect(limited.status).toBe(429);
  });
});

describe('flooding the activity log', () => {
  test("new networks refused at the same moment take no more than the window's own rows", async () => {
    // A window of its own (1 January 2020) and 60 first refusals at once from 60 networks: exactly the window's
    // own rows and `other`, every refusal counted. (The race this guards against, two new networks counting the
    // rows before either is written, showed once in CI's flood on PostgreSQL; it does not show here on demand.)
    const at = new Date('2020-01-01T10:30:00Z');
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        tallyRefusal(api.db, { action: 'http.401', target: 'GET /api/team', ip: `10.99.${i}.1` }, at),
      ),
    );
    const rows = await api.db.query<{ client: string; count: number }>(
      `SELECT client, count FROM refusal_tallies WHERE window_start = '2020-01-01T10:00:00Z' AND action = 'http.401'`,
    );
    expect(rows.filter((row) => row.client !== 'other')).toHaveLength(TALLY_NETWORKS);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(60);
  });

  test(
    '10,000 refusals without a valid token from 500 networks: a bounded number of rows, every refusal counted',
    { timeout: FLOOD.timeout, tags: FLOOD.tags },
    async () => {
      const before = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_log');
      const junk = 'x'.repeat(280);
      let sent = 0;
      const worker = async () => {
        while (sent < FLOOD.calls) {
          const i = sent++;
          const headers: Record<string, string> = i % 2 ? { authorization: 'Bearer a.b.c' } : {};
          const reply = await team(
            new Request(`${api.url}/api/team/${junk}${i}`, { method: 'DELETE', headers }),
            {
              ip: `10.${(i % 500) >> 8}.${(i % 500) & 255}.7`,
              params: {},
            } satisfies RequestContext,
          );
          if (reply.status !== 401) throw new Error(`refusal ${i}: ${reply.status}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      const after = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_log');
      expect(after[0]!.n).toBe(before[0]!.n);
      const [tallies] = await api.db.query<{ rows: number; total: number; windows: number }>(
        `SELECT count(*)::int AS rows, sum(count)::int AS total, count(DISTINCT window_start)::int AS windows
       FROM refusal_tallies WHERE action = 'http.401' AND sample LIKE 'DELETE /api/team/xxx%'`,
      );
      expect(tallies!.total).toBe(FLOOD.calls);
      // At most 20 networks of their own and one 'other' per hour (the flood may cross an hour's edge).
      expect(tallies!.rows).toBeLessThanOrEqual(21 * tallies!.windows);
      // The owner still sees them, as counts.
      const reply = await activity(
        new Request(`${api.url}/api/activity?action=http.401&pageSize=50`, {
          headers: { authorization: `Bearer ${ownerToken}` },
        }),
        { ip: freshLine(), params: {} } satisfies RequestContext,
      );
      const list = { status: reply.status, body: (await reply.json()) as { count: number }[] };
      expect(list.status).toBe(200);
      expect(
        list.body.reduce((sum: number, e: { count: number }) => sum + e.count, 0),
      ).toBeGreaterThanOrEqual(FLOOD.calls);
    },
  );
});

describe('beacon storage', () => {
  test(
    '10,000 beacons with random referrers, tags and searches: each day keeps a bounded number of rows, and every one counts',
    { timeout: FLOOD.timeout, tags: FLOOD.tags },
    async () => {
      // Letters only: a run of digits would read as personal data and not be counted at all.
      const random = () =>
        Array.from({ length: 8 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join(
          '',
        );
      let sent = 0;
      let queries = 0;
      const worker = async () => {
        while (sent < FLOOD.calls) {
          sent++;
          const searches = Array.from({ length: 2 }, () => ({ query: `pump ${random()}`, results: 3 }));
          queries += searches.length;
          const request = new Request(`${api.url}/api/collect`, {
            method: 'POST',
            body: JSON.stringify({
              path: '/',
              width: 1280,
              referrer: `${random()}.example`,
              utm: { source: random(), medium: random(), campaign: random() },
              searches,
            }),
            headers: {
              'content-type': 'text/plain;charset=UTF-8',
              'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
              origin: api.url,
              'sec-fetch-site': 'same-origin',
            },
          });
          const reply = await collect(request, { ip: freshLine(), params: {} } satisfies RequestContext);
          if (reply.status !== 204) throw new Error(`beacon: ${reply.status} ${await reply.text()}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      // The caps hold exactly one statement at a time; parallel statements may each take the last place.
      const slack = 16;
      const [entries] = await api.db.query<Record<string, number>>(
        `SELECT count(*)::int AS rows, sum(entries)::int AS total, count(DISTINCT referrer)::int AS referrers,
         count(DISTINCT utm_source)::int AS sources, count(DISTINCT utm_medium)::int AS media,
         count(DISTINCT utm_campaign)::int AS campaigns
       FROM insight_entries`,
      );
      expect(entries!.total).toBe(FLOOD.calls);
      expect(entries!.rows).toBeLessThanOrEqual(500 + 1 + slack);
      for (const dimension of ['referrers', 'sources', 'media', 'campaigns'])
        expect(entries![dimension], dimension).toBeLessThanOrEqual(500 + 1 + slack);
      const [searches] = await api.db.query<{ rows: number; total: number }>(
        `SELECT count(*)::int AS rows, sum(searches)::int AS total FROM insight_searches`,
      );
      expect(searches!.total).toBe(queries);
      expect(searches!.rows).toBeLessThanOrEqual(200 + 1 + slack);
    },
  );
});

describe('a stolen session token and the factors', () => {
  test('no factor or recovery-code change without the password or a code again', async () => {
    const token = await api.login(OWNER.email, OWNER.password, freshLine());
    const calls: [string, string][] = [
      ['POST', '/api/account/totp'],
      ['DELETE', '/api/account/totp'],
      ['POST', '/api/account/passkeys/options'],
      ['POST', '/api/account/recovery-codes'],
    ];
    for (const [method, path] of calls) {
      const bare = await api.call(method, path, { token });
      expect(bare.status, `${method} ${path} with the token alone`).toBeGreaterThanOrEqual(400);
      expect(bare.status).toBeLessThan(500);
      const wrong = await api.call(method, path, { token, json: { currentPassword: 'not it at all' } });
      expect(wrong.status, `${method} ${path} with a wrong password`).toBe(400);
    }
    const codesBefore = await api.db.query(
      `SELECT r.code_hash FROM admin_recovery_codes r JOIN admins a ON a.id = r.admin_id WHERE a.email = $1`,
      [OWNER.email],
    );
    expect(codesBefore).toHaveLength(0);
    // With the proof, they work: a code from the app counts as well as the password.
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [OWNER.email]);
    const renewed = await api.call('POST', '/api/account/recovery-codes', {
      token,
      json: { code: api.totpCode(OWNER.email) },
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
  });

  test('a session started by a factor change keeps the start and absolute end of the one it replaces', async () => {
    const email = 'enrolling@korvel.example';
    const password = 'an enrolling passphrase, long enough';
    await api.createAdmin(email, password, 'editor');
    await api.db.query(
      `UPDATE admins SET totp_secret = NULL, totp_confirmed_at = NULL, totp_pending_secret = NULL WHERE email = $1`,
      [email],
    );
    const login = await api.call('POST', '/admin/login', { json: { email, password }, ip: freshLine() });
    const enrol = login.body.token as string;
    // The enrolment session began an hour ago (as far as the server knows).
    await api.db.query(
      `UPDATE admin_sessions SET created_at = created_at - interval '1 hour', expires_at = expires_at - interval '1 hour'
       WHERE admin_id = (SELECT id FROM admins WHERE email = $1)`,
      [email],
    );
    const before = (await api.call('GET', '/api/account', { token: enrol })).body.session;
    const started = await api.call('POST', '/api/account/totp', {
      token: enrol,
      json: { currentPassword: password },
    });
    expect(started.status, started.text).toBe(200);
    const OTPAuth = await import('otpauth');
    const code = OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(started.body.secret) });
    const confirmed = await api.call('POST', '/api/account/totp/confirm', { token: enrol, json: { code } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const after = (await api.call('GET', '/api/account', { token: confirmed.body.token })).body.session;
    expect(after.id).not.toBe(before.id);
    expect(after.createdAt).toBe(before.createdAt);
    expect(after.expiresAt).toBe(before.expiresAt);
  });
});

describe('the smaller ones', () => {
  test('a sign-in ticket does not survive a password reset', async () => {
    const who = await account('ticket.holder');
    const ticket = await ticketFor(who);
    mail.catcher.clear();
    await api.call('POST', '/admin/password-reset', { json: { email: who.email }, ip: freshLine() });
    await api.settle();
    const [resetMail] = mailTo(mail.catcher, who.email);
    const token = linkIn(resetMail!, `${SITE_URL}/admin/reset-password#token=`).split('#token=')[1]!;
    const reset = await api.call('POST', '/admin/password-reset/confirm', {
      json: { token, password: 'the holder’s new passphrase' },
    });
    expect(reset.status).toBe(200);
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [who.email]);
    const late = await api.call('POST', '/admin/login/mfa', {
      json: { ticket, method: 'totp', code: api.totpCode(who.email) },
      ip: freshLine(),
    });
    expect(late.status).toBe(401);
    expect(errorCode(late)).toBe('ticket_expired');
  });

  test('the rate-limit table cannot be tested against a guessed address: keys are keyed hashes', async () => {
    const ip = '198.51.100.201';
    await api.call('POST', '/admin/login', {
      json: { email: 'nobody@korvel.example', password: 'a guess of some length' },
      ip,
    });
    const unkeyed = createHash('sha256').update(`login-ip\0${ip}`).digest('base64url').slice(0, 32);
    const rows = await api.db.query<{ key: string }>(`SELECT key FROM rate_limits WHERE scope = 'login-ip'`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.key)).not.toContain(unkeyed);
  });

  test('a reset request does the same work before its reply for a real account and for nobody', async () => {
    const statements: string[] = [];
    const recording = (db: Db): Db => ({
      ...db,
      kind: db.kind,
      close: () => db.close(),
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
      transaction: (fn) =>
        db.transaction((tx) =>
          fn({
            ...tx,
            query: (sql, params) => {
              statements.push(sql);
              return tx.query(sql, params);
            },
          } as Tx),
        ),
    });
    const beforeReply = async (email: string, ip: string) => {
      statements.length = 0;
      const later: Promise<unknown>[] = [];
      let atReply: number;
      useDatabase(recording(api.db));
      try {
        const reply = await requestReset(
          new Request(`${api.url}/admin/password-reset`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email }),
          }),
          { ip, params: {}, waitUntil: (p) => void later.push(p) },
        );
        atReply = statements.length;
        expect(reply.status).toBe(202);
        await Promise.all(later);
      } finally {
        useDatabase(api.db);
      }
      return statements.slice(0, atReply);
    };
    const real = await beforeReply(OWNER.email, freshLine());
    const nobody = await beforeReply('nobody.at.all@korvel.example', freshLine());
    expect(real).toEqual(nobody);
    await api.settle();
  });

  test('sales retries only inquiry mail, and reads its error without the addresses in it', async () => {
    const sales = await account('sales.desk');
    await api.db.query(`UPDATE admins SET role = 'sales' WHERE email = $1`, [sales.email]);
    const token = await api.login(sales.email, sales.password, freshLine());
    const [inquiry] = await api.db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
       VALUES ('contact', 'Nina Vuković', 'nina@plant.example', 'Tablet press room', 'ISO 8 upgrade.', 'privacy-2026-11')
       RETURNING id`,
    );
    const failed = async (key: string, inquiryId: number | null, to: string) =>
      (
        await api.db.query<{ id: number }>(
          `INSERT INTO outbox (idempotency_key, template, recipient, params, inquiry_id, status, last_error)
           VALUES ($1, $2, $3, '{}', $4, 'failed', $5) RETURNING id`,
          [
            key,
            inquiryId === null ? 'password-reset' : 'contact-ack',
            to,
            inquiryId,
            `550 5.1.1 <${to}>: Recipient address rejected`,
          ],
        )
      )[0]!.id;
    const foreign = await failed('sales-test:reset', null, OWNER.email);
    const own = await failed('sales-test:ack', inquiry!.id, 'nina@plant.example');
    const refused = await api.call('POST', `/api/mail/${foreign}/retry`, { token });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain(OWNER.email);
    const [still] = await api.db.query<{ status: string }>('SELECT status FROM outbox WHERE id = $1', [
      foreign,
    ]);
    expect(still!.status).toBe('failed');
    const list = await api.call('GET', '/api/inquiries', { token });
    expect(list.status).toBe(200);
    expect(list.text).toContain('Recipient address rejected');
    expect(list.text).not.toContain('nina@plant.example>');
    await api.db.query(`UPDATE outbox SET status = 'sent' WHERE id = $1`, [own]);
  });

  test('an unexpected database error is logged without the row values PostgreSQL quotes in it', async () => {
    const error: unknown = await api.db
      .query(`INSERT INTO admins (email, password_hash) VALUES ($1, 'x')`, [OWNER.email])
      .catch((caught: unknown) => caught);
    expect(inspect(error)).toContain(OWNER.email);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(failure('hardening', error).status).toBe(500);
      const text = logged.mock.calls
        .flat()
        .map((value) => inspect(value, { depth: 5 }))
        .join('\n');
      expect(text).toContain('23505');
      expect(text).not.toContain(OWNER.email);
    } finally {
      logged.mockRestore();
    }
  });

  describe('a JWT_SECRET rotation', () => {
    const saved = { jwt: process.env.JWT_SECRET, factor: process.env.FACTOR_KEY };
    afterEach(() => {
      process.env.JWT_SECRET = saved.jwt ?? TEST_JWT_SECRET;
      if (saved.factor === undefined) delete process.env.FACTOR_KEY;
      else process.env.FACTOR_KEY = saved.factor;
    });

    test('without FACTOR_KEY: an authenticator that no key opens is refused like a wrong code, never a 500; recovery codes and re-enrolment work', async () => {
      const who = await account('rotated');
      const codes = ['ROTAT-ED001'];
      const [{ id }] = (await api.db.query<{ id: number }>('SELECT id FROM admins WHERE email = $1', [
        who.email,
      ])) as [{ id: number }];
      await replaceRecoveryCodes(api.db, id, codes.map(recoveryCodeHash));
      process.env.JWT_SECRET = 'a rotated secret of at least thirty-two bytes';
      const first = await api.call('POST', '/admin/login', { json: who, ip: freshLine() });
      expect(first.status).toBe(200);
      expect(first.body.mfa.methods).toEqual(['recovery']);
      const totp = await api.call('POST', '/admin/login/mfa', {
        json: { ticket: first.body.mfa.ticket, method: 'totp', code: api.totpCode(who.email) },
        ip: freshLine(),
      });
      expect(totp.status).toBe(401);
      const recovered = await api.call('POST', '/admin/login/mfa', {
        json: { ticket: first.body.mfa.ticket, method: 'recovery', code: codes[0] },
        ip: freshLine(),
      });
      expect(recovered.status, recovered.text).toBe(200);
      const again = await api.call('POST', '/api/account/totp', {
        token: recovered.body.token,
        json: { currentPassword: who.password },
      });
      expect(again.status, again.text).toBe(200);
    });

    test('with FACTOR_KEY: the authenticator keeps working across the rotation', async () => {
      process.env.FACTOR_KEY = 'a factor key of at least thirty-two bytes, kept apart';
      const who = await account('kept');
      process.env.JWT_SECRET = 'another rotated secret of at least thirty-two bytes';
      await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [who.email]);
      expect(typeof (await api.login(who.email, who.password, freshLine()))).toBe('string');
    });
  });
});
