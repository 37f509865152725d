/**
 * The team (issue 23) through the real functions: the second factor, roles, invitations and password resets
 * read from the real mail, sessions and their timeouts, and the activity log of what happened.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, test } from 'vitest';
import { type Api, type Reply } from './support/harness.ts';
import { linkIn, mailTo, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';
import { SoftPasskey } from './support/passkey.ts';

const OWNER = { email: 'owner@korvel.example', password: 'the owner passphrase, long enough' };
let api: Api;
let mail: TestMail;
let ownerToken: string;
let ipCounter = 1;
const nextIp = () => `203.0.113.${ipCounter++}`;

useMailApi(OWNER, {}, (started) => ({ api, mail, token: ownerToken } = started));

const get = (path: string, token: string) => api.call('GET', path, { token });
const codeOf = (secret: string, timestamp = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp });
const errorCode = (reply: Reply) => reply.body?.error?.code as string | undefined;

/**
 * Enrols an authenticator app with an enrolment (or full) token, confirming it is them with `password`; returns
 * the full token, codes and secret.
 */
async function enrolTotp(token: string, password: string) {
  const started = await api.call('POST', '/api/account/totp', { token, json: { currentPassword: password } });
  expect(started.status).toBe(200);
  expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
  const secret = started.body.secret as string;
  const confirmed = await api.call('POST', '/api/account/totp/confirm', {
    token,
    json: { code: codeOf(secret) },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return {
    token: confirmed.body.token as string,
    recoveryCodes: confirmed.body.recoveryCodes as string[],
    secret,
  };
}

/** The invitation link's token, from the mail as the catcher parsed it. */
async function invitationToken(email: string): Promise<string> {
  await api.settle();
  const [invite] = mailTo(mail.catcher, email);
  expect(invite?.subject).toBe('You are invited to the Korvel admin');
  return linkIn(invite!, `${SITE_URL}/admin/invite#token=`).split('#token=')[1]!;
}

/** Invites `email` as `role`, accepts through the mailed link and enrols TOTP: a full token. */
async function member(
  email: string,
  role: 'editor' | 'sales' | 'owner',
  password = `tin roof and copper wire, ${role.length}`,
) {
  const invited = await api.call('POST', '/api/team', {
    token: ownerToken,
    json: { email, role, name: `A ${role}` },
  });
  expect(invited.status, invited.text).toBe(201);
  const link = await invitationToken(email);
  const accepted = await api.call('POST', '/admin/invite/accept', { json: { token: link, password } });
  expect(accepted.status, accepted.text).toBe(200);
  expect(accepted.body.enrol).toBe(true);
  const enrolled = await enrolTotp(accepted.body.token, password);
  return { id: invited.body.id as number, link, password, ...enrolled };
}

/** Signs in with password and code; the account's last used step is kept, so wait for the next one if needed. */
async function signIn(email: string, password: string, secret: string) {
  const first = await api.call('POST', '/admin/login', { json: { email, password }, ip: nextIp() });
  expect(first.status).toBe(200);
  return api.call('POST', '/admin/login/mfa', {
    json: { ticket: first.body.mfa.ticket, method: 'totp', code: codeOf(secret, Date.now() + 30_000) },
    ip: nextIp(),
  });
}

describe('the second factor', () => {
  test('a password alone never reads subscribers, inquiries or campaigns; with the second factor it does', async () => {
    const first = await api.call('POST', '/admin/login', { json: OWNER, ip: nextIp() });
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(first.body.mfa.methods).toEqual(['totp', 'recovery']);
    expect(first.body.mfa.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // An account from before the team (no factor yet) gets a token that can only enrol one.
    await api.db.query(
      `INSERT INTO admins (email, password_hash) SELECT 'legacy@korvel.example', password_hash FROM admins
       WHERE email = $1`,
      [OWNER.email],
    );
    const legacy = await api.call('POST', '/admin/login', {
      json: { email: 'legacy@korvel.example', password: OWNER.password },
      ip: nextIp(),
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body.enrol).toBe(true);
    for (const path of ['/api/newsletter', '/api/inquiries', '/api/campaigns']) {
      const reply = await get(path, legacy.body.token);
      expect(reply.status, path).toBe(403);
      expect(errorCode(reply)).toBe('mfa_enrolment_required');
    }
    expect((await get('/api/account', legacy.body.token)).body.enrol).toBe(true);
    const { token, recoveryCodes } = await enrolTotp(legacy.body.token, OWNER.password);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const path of ['/api/newsletter', '/api/inquiries', '/api/campaigns'])
      expect((await get(path, token)).status, path).toBe(200);
    // The enrolment token ended with the enrolment.
    expect(errorCode(await get('/api/account', legacy.body.token))).toBe('session_expired');
    // The owner removes the account again, so the file's owner is the only one.
    const legacyId = (await get('/api/account', token)).body.id as number;
    expect((await api.call('DELETE', `/api/team/${legacyId}`, { token: ownerToken })).status).toBe(204);
    expect((await get('/api/account', token)).status).toBe(401);
    // The codes are stored hashed only.
    const stored = await api.db.query<{ code_hash: string }>('SELECT code_hash FROM admin_recovery_codes');
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
  });

  test('a TOTP code works once: the same code on a second sign-in is refused', async () => {
    const email = 'replay@korvel.example';
    const { secret, password } = await member(email, 'editor');
    const code = codeOf(secret, Date.now() + 30_000);
    const withCode = async () => {
      const first = await api.call('POST', '/admin/login', { json: { email, password }, ip: nextIp() });
      return api.call('POST', '/admin/login/mfa', {
        json: { ticket: first.body.mfa.ticket, method: 'totp', code },
        ip: nextIp(),
      });
    };
    const first = await withCode();
    expect(first.status, first.text).toBe(200);
    const replayed = await withCode();
    expect(replayed.status).toBe(401);
    expect(errorCode(replayed)).toBe('invalid_code');
  });

  test('a ticket allows five tries: the sixth is refused even with the right code, and a ticket works once', async () => {
    const first = await api.call('POST', '/admin/login', { json: OWNER, ip: nextIp() });
    const ticket = first.body.mfa.ticket as string;
    const ip = nextIp();
    for (let i = 1; i <= 5; i++) {
      const wrong = await api.call('POST', '/admin/login/mfa', {
        json: { ticket, method: 'totp', code: '000000' },
        ip,
      });
      expect(wrong.status, `try ${i}`).toBe(401);
      expect(errorCode(wrong)).toBe('invalid_code');
    }
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [OWNER.email]);
    const sixth = await api.call('POST', '/admin/login/mfa', {
      json: { ticket, method: 'totp', code: api.totpCode(OWNER.email) },
      ip,
    });
    expect(sixth.status).toBe(401);
    expect(errorCode(sixth)).toBe('ticket_expired');
    expect(sixth.text).not.toMatch(/\d/);
  });

  test('a ticket lives five minutes', async () => {
    const first = await api.call('POST', '/admin/login', { json: OWNER, ip: nextIp() });
    await api.db.query(`UPDATE admin_mfa_tickets SET expires_at = now() - interval '1 second'`);
    await api.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [OWNER.email]);
    const late = await api.call('POST', '/admin/login/mfa', {
      json: { ticket: first.body.mfa.ticket, method: 'totp', code: api.totpCode(OWNER.email) },
      ip: nextIp(),
    });
    expect(errorCode(late)).toBe('ticket_expired');
  });

  test('a recovery code signs in once', async () => {
    const email = 'recovery@korvel.example';
    const { recoveryCodes, password } = await member(email, 'sales');
    const use = async (code: string) => {
      const first = await api.call('POST', '/admin/login', { json: { email, password }, ip: nextIp() });
      return api.call('POST', '/admin/login/mfa', {
        json: { ticket: first.body.mfa.ticket, method: 'recovery', code },
        ip: nextIp(),
      });
    };
    const code = recoveryCodes[3]!;
    const ok = await use(code.toLowerCase());
    expect(ok.status, ok.text).toBe(200);
    expect((await get('/api/inquiries', ok.body.token)).status).toBe(200);
    expect(errorCode(await use(code))).toBe('invalid_code');
    expect((await get('/api/account', ok.body.token)).body.factors.recoveryCodesLeft).toBe(9);
  });

  test('the second step counts failures per network like the password step: the 11th gets 429', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) {
      const reply = await api.call('POST', '/admin/login/mfa', {
        json: { ticket: 'A'.repeat(43), method: 'totp', code: '123456' },
        ip,
      });
      expect(reply.status, `try ${i + 1}`).toBe(401);
    }
    const limited = await api.call('POST', '/admin/login/mfa', {
      json: { ticket: 'A'.repeat(43), method: 'totp', code: '123456' },
      ip,
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('roles', () => {
  let sales: Awaited<ReturnType<typeof member>>;
  let editor: Awaited<ReturnType<typeof member>>;

  test('an invited sales account, accepted through the mailed link, reads inquiries and nothing else', async () => {
    sales = await member('sales@korvel.example', 'sales');
    expect((await get('/api/inquiries', sales.token)).status).toBe(200);
    // Signing in later takes both steps too.
    const again = await signIn('sales@korvel.example', sales.password, sales.secret);
    expect(again.status).toBe(200);
    sales.token = again.body.token;
    for (const path of ['/api/newsletter', '/api/campaigns', '/api/team', '/api/activity']) {
      const reply = await get(path, sales.token);
      expect(reply.status, path).toBe(403);
      expect(errorCode(reply)).toBe('forbidden');
    }
    const created = await api.call('POST', '/api/campaigns', {
      token: sales.token,
      json: { subject: 'Not mine to write', markdown: 'Hello' },
    });
    expect(created.status).toBe(403);
    expect(await api.db.query('SELECT id FROM campaigns')).toHaveLength(0);
  });

  test('an editor the reverse: subscribers and issues, not inquiries or the team', async () => {
    editor = await member('editor@korvel.example', 'editor');
    expect((await get('/api/newsletter', editor.token)).status).toBe(200);
    expect((await get('/api/campaigns', editor.token)).status).toBe(200);
    for (const path of ['/api/inquiries', '/api/team', '/api/activity'])
      expect((await get(path, editor.token)).status, path).toBe(403);
  });

  test('the owner changes a role; it holds from the next call', async () => {
    const changed = await api.call('PATCH', `/api/team/${editor.id}`, {
      token: ownerToken,
      json: { role: 'sales' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('sales');
    expect((await get('/api/newsletter', editor.token)).status).toBe(403);
    expect((await get('/api/inquiries', editor.token)).status).toBe(200);
    await api.call('PATCH', `/api/team/${editor.id}`, { token: ownerToken, json: { role: 'editor' } });
  });

  test('a disabled account’s token fails on its next call, and its password no longer signs in', async () => {
    expect((await get('/api/newsletter', editor.token)).status).toBe(200);
    const disabled = await api.call('PATCH', `/api/team/${editor.id}`, {
      token: ownerToken,
      json: { disabled: true },
    });
    expect(disabled.body.status).toBe('disabled');
    const next = await get('/api/newsletter', editor.token);
    expect(next.status).toBe(401);
    expect(next.headers.get('www-authenticate')).toBe('Bearer');
    const login = await api.call('POST', '/admin/login', {
      json: { email: 'editor@korvel.example', password: editor.password },
      ip: nextIp(),
    });
    expect(login.status).toBe(401);
    await api.call('PATCH', `/api/team/${editor.id}`, { token: ownerToken, json: { disabled: false } });
    expect((await signIn('editor@korvel.example', editor.password, editor.secret)).status).toBe(200);
  });

  test('the last active owner can be neither demoted, disabled nor deleted', async () => {
    const me = (await get('/api/account', ownerToken)).body.id as number;
    for (const [method, json] of [
      ['PATCH', { role: 'editor' }],
      ['PATCH', { disabled: true }],
      ['DELETE', undefined],
    ] as const) {
      const reply = await api.call(method, `/api/team/${me}`, { token: ownerToken, json });
      expect(reply.status, `${method} ${JSON.stringify(json)}`).toBe(409);
      expect(errorCode(reply)).toBe('last_owner');
    }
    const [owner] = await api.db.query<{ role: string; status: string }>(
      'SELECT role, status FROM admins WHERE id = $1',
      [me],
    );
    expect(owner).toEqual({ role: 'owner', status: 'active' });
  });

  test('the activity log shows the sign-ins, the invitation and the role change, with actor and time', async () => {
    const reply = await get('/api/activity?pageSize=200', ownerToken);
    expect(reply.status).toBe(200);
    expect(Number(reply.headers.get('x-total-count'))).toBe(reply.body.length);
    const entries = reply.body as {
      at: string;
      actor: { email: string } | null;
      action: string;
      target: string;
    }[];
    const find = (action: string, actor: string, target?: RegExp) =>
      entries.find(
        (e) => e.action === action && e.actor?.email === actor && (!target || target.test(e.target)),
      );
    expect(find('auth.mfa', 'sales@korvel.example')).toBeDefined();
    expect(find('auth.sign_in', 'sales@korvel.example')).toBeDefined();
    expect(find('team.invite', OWNER.email, /^sales@korvel\.example as sales$/)).toBeDefined();
    const role = find('team.role', OWNER.email, /^editor@korvel\.example: editor → sales$/);
    expect(role).toBeDefined();
    expect(Math.abs(Date.parse(role!.at) - Date.now())).toBeLessThan(5 * 60_000);
    expect(find('http.403', 'sales@korvel.example', /^GET \/api\/team$/)).toBeDefined();
    expect(find('team.status', OWNER.email, /editor@korvel\.example: disabled/)).toBeDefined();
    // Newest first, and filtered by action.
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const roles = await get('/api/activity?action=team.role', ownerToken);
    expect(roles.body.every((e: { action: string }) => e.action === 'team.role')).toBe(true);
    expect(roles.body.length).toBe(2);
    expect((await get('/api/activity?action=drop.table', ownerToken)).status).toBe(400);
    expect((await get('/api/activity/actions', ownerToken)).body).toContain('team.invite');
    // Stored client addresses are networks, never a whole address.
    const clients = await api.db.query<{ client: string }>(`SELECT DISTINCT client FROM activity_log`);
    for (const { client } of clients) expect(client).toMatch(/^$|\.0\/24$|::\/48$/);
  });
});

describe('data events in the activity log', () => {
  test('subscriber deletions, CSV exports, issue tests and sends, and meeting decisions name their actor', async () => {
    const editor = await member('data.editor@korvel.example', 'editor');
    const [{ id: subscriber }] = (await api.db.query<{ id: number }>(
      `INSERT INTO subscribers (email, status) VALUES ('logged@reader.example', 'confirmed') RETURNING id`,
    )) as [{ id: number }];
    expect((await get('/api/newsletter?purpose=export&page=1&pageSize=200', editor.token)).status).toBe(200);
    expect((await get('/api/newsletter?purpose=export&page=2&pageSize=200', editor.token)).status).toBe(200);
    expect((await get('/api/newsletter?purpose=print', editor.token)).status).toBe(400);
    expect((await api.call('DELETE', `/api/newsletter/${subscriber}`, { token: editor.token })).status).toBe(
      204,
    );
    await api.db.query(
      `INSERT INTO subscribers (email, status) VALUES ('reader@plant.example', 'confirmed')`,
    );
    const campaign = await api.call('POST', '/api/campaigns', {
      token: editor.token,
      json: { subject: 'Logged issue', markdown: 'Hello' },
    });
    const id = campaign.body.id as number;
    expect((await api.call('POST', `/api/campaigns/${id}/test`, { token: editor.token })).status).toBe(202);
    expect((await api.call('POST', `/api/campaigns/${id}/send`, { token: editor.token })).status).toBe(202);
    const [{ id: inquiry }] = (await api.db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, subject, meeting_start, meeting_status, privacy_version)
       VALUES ('meeting', 'Logged', 'logged@plant.example', 'x', '2031-06-02T09:00:00Z', 'requested', 'p')
       RETURNING id`,
    )) as [{ id: number }];
    const decided = await api.call('POST', `/api/inquiries/${inquiry}/meeting`, {
      token: ownerToken,
      json: { decision: 'decline', note: 'We are away that week.' },
    });
    expect(decided.status).toBe(200);
    await api.settle();
    const log = await api.db.query<{ actor_email: string; action: string; target: string | null }>(
      `SELECT actor_email, action, target FROM activity_log
       WHERE action IN ('subscribers.export', 'subscriber.erase', 'campaign.test', 'campaign.send', 'meeting.decline')
       ORDER BY id`,
    );
    expect(log).toEqual([
      { actor_email: 'data.editor@korvel.example', action: 'subscribers.export', target: null },
      {
        actor_email: 'data.editor@korvel.example',
        action: 'subscriber.erase',
        target: `subscriber ${subscriber}`,
      },
      { actor_email: 'data.editor@korvel.example', action: 'campaign.test', target: `campaign ${id}` },
      {
        actor_email: 'data.editor@korvel.example',
        action: 'campaign.send',
        target: `campaign ${id}, 1 recipient`,
      },
      { actor_email: OWNER.email, action: 'meeting.decline', target: `inquiry ${inquiry}` },
    ]);
  });

  test('a refused CSV export request leaves no export in the log', async () => {
    const before = await api.db.query(`SELECT 1 FROM activity_log WHERE action = 'subscribers.export'`);
    for (const query of ['sort=bogus', 'pageSize=0', 'status=nope', 'lang=fr', `q=${'x'.repeat(300)}`]) {
      expect((await get(`/api/newsletter?purpose=export&${query}`, ownerToken)).status, query).toBe(400);
    }
    const after = await api.db.query(`SELECT 1 FROM activity_log WHERE action = 'subscribers.export'`);
    expect(after).toHaveLength(before.length);
  });
});

describe('invitations', () => {
  test('a used, a replaced and an expired invitation link are refused with 410', async () => {
    const email = 'late@korvel.example';
    const invited = await api.call('POST', '/api/team', {
      token: ownerToken,
      json: { email, role: 'editor' },
    });
    expect(invited.body.status).toBe('invited');
    const first = await invitationToken(email);
    expect((await api.call('POST', '/admin/invite/inspect', { json: { token: first } })).body).toEqual({
      email,
      role: 'editor',
    });
    mail.catcher.clear();
    expect(
      (await api.call('POST', `/api/team/${invited.body.id}/resend`, { token: ownerToken })).status,
    ).toBe(202);
    const second = await invitationToken(email);
    expect(second).not.toBe(first);
    const replaced = await api.call('POST', '/admin/invite/inspect', { json: { token: first } });
    expect(replaced.status).toBe(410);
    expect(errorCode(replaced)).toBe('link_expired');
    await api.db.query(
      `UPDATE admin_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    const expired = await api.call('POST', '/admin/invite/accept', {
      json: { token: second, password: 'a late but long passphrase' },
    });
    expect(expired.status).toBe(410);
    expect((await api.db.query('SELECT status FROM admins WHERE email = $1', [email]))[0]).toEqual({
      status: 'invited',
    });
    expect((await api.call('POST', '/admin/invite/inspect', { json: { token: 'short' } })).status).toBe(400);
  });

  test('a used link cannot accept again', async () => {
    const { link } = await member('twice@korvel.example', 'sales');
    const again = await api.call('POST', '/admin/invite/accept', {
      json: { token: link, password: 'another long passphrase' },
    });
    expect(again.status).toBe(410);
  });

  test('new passwords: too short, common, with the firm’s name or the e-mail are refused with the reason', async () => {
    const email = 'policy.person@korvel.example';
    await api.call('POST', '/api/team', { token: ownerToken, json: { email, role: 'sales' } });
    const token = await invitationToken(email);
    for (const [password, reason] of [
      ['short one', /at least 12/],
      ['password1234', /common/],
      ['iloveyou1234', /common/],
      ['Korvel rocks all day', /firm/],
      ['my policy.person password', /e-mail/],
    ] as const) {
      const reply = await api.call('POST', '/admin/invite/accept', { json: { token, password } });
      expect(reply.status, password).toBe(400);
      expect(reply.body.error.fields.password, password).toMatch(reason);
    }
    expect((await api.call('POST', '/admin/invite/inspect', { json: { token } })).status).toBe(200);
  });
});

describe('password reset', () => {
  test('the reply is the same for a known and an unknown address; only the known one gets mail', async () => {
    mail.catcher.clear();
    const known = await api.call('POST', '/admin/password-reset', {
      json: { email: OWNER.email },
      ip: nextIp(),
    });
    const unknown = await api.call('POST', '/admin/password-reset', {
      json: { email: 'nobody@korvel.example' },
      ip: nextIp(),
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    await api.settle();
    expect(mailTo(mail.catcher, OWNER.email)).toHaveLength(1);
    expect(mailTo(mail.catcher, 'nobody@korvel.example')).toHaveLength(0);
  });

  test('a reset sets the password once, ends every session and still asks for the second factor', async () => {
    const email = 'forgetful@korvel.example';
    const person = await member(email, 'editor');
    mail.catcher.clear();
    await api.call('POST', '/admin/password-reset', { json: { email }, ip: nextIp() });
    await api.settle();
    const [resetMail] = mailTo(mail.catcher, email);
    expect(resetMail?.subject).toBe('Reset your Korvel admin password');
    const token = linkIn(resetMail!, `${SITE_URL}/admin/reset-password#token=`).split('#token=')[1]!;
    const password = 'a brand new passphrase';
    const done = await api.call('POST', '/admin/password-reset/confirm', { json: { token, password } });
    expect(done.status).toBe(200);
    expect(done.body.token).toBeUndefined();
    expect((await get('/api/newsletter', person.token)).status).toBe(401);
    const again = await api.call('POST', '/admin/password-reset/confirm', {
      json: { token, password: 'yet another passphrase' },
    });
    expect(again.status).toBe(410);
    const login = await api.call('POST', '/admin/login', { json: { email, password }, ip: nextIp() });
    expect(login.body.mfa).toBeDefined();
    expect(login.body.token).toBeUndefined();
  });

  test('a reset link expires after 30 minutes', async () => {
    mail.catcher.clear();
    await api.call('POST', '/admin/password-reset', { json: { email: OWNER.email }, ip: nextIp() });
    await api.settle();
    const token = linkIn(
      mailTo(mail.catcher, OWNER.email)[0]!,
      `${SITE_URL}/admin/reset-password#token=`,
    ).split('#token=')[1]!;
    const [link] = await api.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM admin_links
       WHERE purpose = 'reset' AND used_at IS NULL AND revoked_at IS NULL`,
    );
    expect(link?.minutes).toBe(30);
    await api.db.query(
      `UPDATE admin_links SET expires_at = now() - interval '1 second' WHERE purpose = 'reset'`,
    );
    const late = await api.call('POST', '/admin/password-reset/confirm', {
      json: { token, password: 'too late a passphrase' },
    });
    expect(late.status).toBe(410);
  });
});

describe('sessions', () => {
  test('a session ends after 30 idle minutes and after 8 hours in any case', async () => {
    const token = await api.login(OWNER.email, OWNER.password, nextIp());
    const { id } = (await get('/api/account', token)).body.session as { id: string };
    await api.db.query(
      `UPDATE admin_sessions SET last_seen_at = now() - interval '29 minutes' WHERE id = $1`,
      [id],
    );
    expect((await get('/api/newsletter', token)).status).toBe(200);
    // That call counted as activity.
    const [seen] = await api.db.query<{ idle: number }>(
      `SELECT extract(epoch FROM now() - last_seen_at)::int AS idle FROM admin_sessions WHERE id = $1`,
      [id],
    );
    expect(seen!.idle).toBeLessThan(60);
    await api.db.query(
      `UPDATE admin_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = $1`,
      [id],
    );
    const idle = await get('/api/newsletter', token);
    expect(idle.status).toBe(401);
    expect(errorCode(idle)).toBe('session_expired');

    const busy = await api.login(OWNER.email, OWNER.password, nextIp());
    const busyId = (await get('/api/account', busy)).body.session.id as string;
    await api.db.query(
      `UPDATE admin_sessions SET created_at = now() - interval '8 hours', expires_at = now() - interval '1 second'
       WHERE id = $1`,
      [busyId],
    );
    expect(errorCode(await get('/api/newsletter', busy))).toBe('session_expired');
  });

  test('the session list and "sign out everywhere"', async () => {
    const a = await api.login(OWNER.email, OWNER.password, '198.51.100.77');
    const b = await api.login(OWNER.email, OWNER.password, '2001:db8:7:1::5');
    const list = await get('/api/account/sessions', a);
    expect(list.status).toBe(200);
    const clients = list.body.map((s: { client: string }) => s.client);
    expect(clients).toContain('198.51.100.0/24');
    expect(clients).toContain('2001:db8:7::/48');
    expect(list.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect((await api.call('POST', '/api/account/sessions/revoke-all', { token: b })).status).toBe(204);
    for (const token of [a, b, ownerToken])
      expect(errorCode(await get('/api/newsletter', token))).toBe('session_expired');
    ownerToken = await api.login(OWNER.email, OWNER.password, nextIp());
  });

  test('a password change ends the other sessions and keeps this one under a new token', async () => {
    const other = await api.login(OWNER.email, OWNER.password, nextIp());
    const wrong = await api.call('POST', '/api/account/password', {
      token: ownerToken,
      json: { currentPassword: 'not the password', password: 'brass lantern in the fog' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.currentPassword).toBeDefined();
    const changed = await api.call('POST', '/api/account/password', {
      token: ownerToken,
      json: { currentPassword: OWNER.password, password: 'brass lantern in the fog' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await get('/api/newsletter', changed.body.token)).status).toBe(200);
    expect((await get('/api/newsletter', other)).status).toBe(401);
    expect((await get('/api/newsletter', ownerToken)).status).toBe(401);
    OWNER.password = 'brass lantern in the fog';
    ownerToken = changed.body.token;
  });

  test('the only factor cannot be removed; new recovery codes replace the old ones', async () => {
    const proof = { currentPassword: OWNER.password };
    const removed = await api.call('DELETE', '/api/account/totp', { token: ownerToken, json: proof });
    expect(removed.status).toBe(409);
    expect(errorCode(removed)).toBe('last_factor');
    const renewed = await api.call('POST', '/api/account/recovery-codes', { token: ownerToken, json: proof });
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect((await get('/api/account', ownerToken)).body.factors).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });
  });

  test('the owner resets someone’s factors: their sessions end and the next sign-in enrols again', async () => {
    const email = 'lost.phone@korvel.example';
    const person = await member(email, 'sales');
    expect(
      (await api.call('POST', `/api/team/${person.id}/reset-factors`, { token: ownerToken })).status,
    ).toBe(204);
    expect((await get('/api/inquiries', person.token)).status).toBe(401);
    const login = await api.call('POST', '/admin/login', {
      json: { email, password: person.password },
      ip: nextIp(),
    });
    expect(login.body.enrol).toBe(true);
    expect(errorCode(await get('/api/inquiries', login.body.token))).toBe('mfa_enrolment_required');
  });
});

describe('passkeys', () => {
  const key = new SoftPasskey();

  test('a passkey is added, signs in as the second step, and one assertion never serves twice', async () => {
    const options = await api.call('POST', '/api/account/passkeys/options', {
      token: ownerToken,
      json: { currentPassword: OWNER.password },
    });
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe(new URL(api.url).hostname);
    const added = await api.call('POST', '/api/account/passkeys', {
      token: ownerToken,
      json: { response: key.register(options.body, api.url), name: 'Desk laptop' },
    });
    expect(added.status, added.text).toBe(201);
    // Not the first factor: no new recovery codes.
    expect(added.body.recoveryCodes).toEqual([]);
    ownerToken = added.body.token;
    // The registration challenge is spent.
    const again = await api.call('POST', '/api/account/passkeys', {
      token: ownerToken,
      json: { response: new SoftPasskey().register(options.body, api.url) },
    });
    expect(again.status).toBe(409);

    const first = await api.call('POST', '/admin/login', { json: OWNER, ip: nextIp() });
    expect(first.body.mfa.methods).toEqual(['totp', 'passkey', 'recovery']);
    const ticket = first.body.mfa.ticket as string;
    const request = await api.call('POST', '/admin/login/passkey/options', { json: { ticket } });
    expect(request.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    const assertion = key.authenticate(request.body, api.url);
    const signed = await api.call('POST', '/admin/login/passkey', {
      json: { ticket, response: assertion },
      ip: nextIp(),
    });
    expect(signed.status, signed.text).toBe(200);
    expect((await get('/api/newsletter', signed.body.token)).status).toBe(200);

    // The same assertion on a fresh ticket: its challenge is another one.
    const next = (await api.call('POST', '/admin/login', { json: OWNER, ip: nextIp() })).body.mfa
      .ticket as string;
    await api.call('POST', '/admin/login/passkey/options', { json: { ticket: next } });
    const replayed = await api.call('POST', '/admin/login/passkey', {
      json: { ticket: next, response: assertion },
      ip: nextIp(),
    });
    expect(replayed.status).toBe(401);
    // Signed for another site: refused.
    const elsewhere = key.authenticate(
      (await api.call('POST', '/admin/login/passkey/options', { json: { ticket: next } })).body,
      'https://korvel.example.evil.example',
    );
    expect(
      (
        await api.call('POST', '/admin/login/passkey', {
          json: { ticket: next, response: elsewhere },
          ip: nextIp(),
        })
      ).status,
    ).toBe(401);
    const account = await get('/api/account', ownerToken);
    expect(account.body.factors.passkeys).toEqual([
      expect.objectContaining({ name: 'Desk laptop', lastUsedAt: expect.any(String) }),
    ]);
  });

  test('a passkey as the first factor brings the recovery codes; the last factor cannot be removed', async () => {
    const email = 'passkey.first@korvel.example';
    await api.call('POST', '/api/team', { token: ownerToken, json: { email, role: 'editor' } });
    const link = await invitationToken(email);
    const accepted = await api.call('POST', '/admin/invite/accept', {
      json: { token: link, password: 'tin roof and copper wire' },
    });
    const enrol = accepted.body.token as string;
    const own = new SoftPasskey();
    const options = await api.call('POST', '/api/account/passkeys/options', {
      token: enrol,
      json: { currentPassword: 'tin roof and copper wire' },
    });
    const added = await api.call('POST', '/api/account/passkeys', {
      token: enrol,
      json: { response: own.register(options.body, api.url) },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.recoveryCodes).toHaveLength(10);
    expect((await get('/api/newsletter', added.body.token)).status).toBe(200);
    const removed = await api.call('DELETE', `/api/account/passkeys/${added.body.id}`, {
      token: added.body.token,
      json: { currentPassword: 'tin roof and copper wire' },
    });
    expect(removed.status).toBe(409);
    expect(errorCode(removed)).toBe('last_factor');
  });

  /** A member with an authenticator app and a passkey; the token is the session that added the passkey. */
  async function twoFactors(email: string, key: SoftPasskey) {
    const person = await member(email, 'editor');
    const options = await api.call('POST', '/api/account/passkeys/options', {
      token: person.token,
      json: { currentPassword: person.password },
    });
    const added = await api.call('POST', '/api/account/passkeys', {
      token: person.token,
      json: { response: key.register(options.body, api.url), name: 'Site laptop' },
    });
    expect(added.status, added.text).toBe(201);
    return { ...person, token: added.body.token as string, passkeyId: added.body.id as number };
  }

  test('the app and the passkey removed at once: one goes, the other is the last factor and stays', async () => {
    const person = await twoFactors('both.at.once@korvel.example', new SoftPasskey());
    const proof = { json: { currentPassword: person.password }, token: person.token };
    const replies = await Promise.all([
      api.call('DELETE', '/api/account/totp', { ...proof, ip: nextIp() }),
      api.call('DELETE', `/api/account/passkeys/${person.passkeyId}`, { ...proof, ip: nextIp() }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([204, 409]);
    expect(replies.map(errorCode)).toContain('last_factor');
    const { factors } = (await get('/api/account', person.token)).body;
    expect(Number(factors.totp) + factors.passkeys.length).toBe(1);
  });

  test('removing a passkey ends the sessions it and the rest opened; the one that removed it continues', async () => {
    const key = new SoftPasskey();
    const person = await twoFactors('lost.laptop@korvel.example', key);
    // The laptop signs in with the passkey; later it is lost, and the passkey removed from another device.
    const first = await api.call('POST', '/admin/login', {
      json: { email: 'lost.laptop@korvel.example', password: person.password },
      ip: nextIp(),
    });
    const ticket = first.body.mfa.ticket as string;
    const request = await api.call('POST', '/admin/login/passkey/options', { json: { ticket } });
    const laptop = await api.call('POST', '/admin/login/passkey', {
      json: { ticket, response: key.authenticate(request.body, api.url) },
      ip: nextIp(),
    });
    expect((await get('/api/newsletter', laptop.body.token)).status).toBe(200);
    const removed = await api.call('DELETE', `/api/account/passkeys/${person.passkeyId}`, {
      token: person.token,
      json: { currentPassword: person.password },
    });
    expect(removed.status, removed.text).toBe(204);
    expect(errorCode(await get('/api/newsletter', laptop.body.token))).toBe('session_expired');
    expect((await get('/api/newsletter', person.token)).status).toBe(200);
  });
});
