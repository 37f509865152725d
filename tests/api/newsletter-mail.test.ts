/**
 * Newsletter double opt-in and one-click unsubscribe over real SMTP: the neutral sign-up reply, the
 * confirmation mail and its link page, the welcome mail's RFC 8058 headers, and links that are tampered,
 * expired, reused or merely fetched by a scanner.
 */
import { describe, expect, test } from 'vitest';
import { emailHash } from '../../src/server/mail/hash.ts';
import { addressTag, signLinkToken } from '../../src/server/mail/links.ts';
import { type Api } from './support/harness.ts';
import { linkIn, mailTo, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'lists@korvel.example', password: 'list keeper passphrase' };
let api: Api;
let mail: TestMail;
let token: string;
let ip = 1;

const signUp = (email: string, source = '/blog/gmp') =>
  api.call('POST', '/api/newsletter', { ip: `192.0.2.${ip++}`, json: { email, consent: true, source } });

/** The path and query of a link in a mail, for calling the local functions. */
const pathOf = (link: string) => link.slice(SITE_URL.length);

async function statusOf(email: string): Promise<string | undefined> {
  const [row] = await api.db.query<{ status: string }>(
    'SELECT status FROM subscribers WHERE lower(email) = lower($1)',
    [email],
  );
  return row?.status;
}

async function confirmationLink(email: string): Promise<string> {
  await api.settle();
  const [confirmation] = mailTo(mail.catcher, email);
  expect(confirmation?.subject).toBe('Confirm your subscription to the Korvel newsletter');
  return linkIn(confirmation!, `${SITE_URL}/newsletter/confirm?token=`);
}

/** Signs up and confirms `email`; returns the welcome mail. */
async function subscribe(email: string) {
  await signUp(email);
  const link = await confirmationLink(email);
  expect((await api.call('POST', pathOf(link))).status).toBe(200);
  await api.settle();
  return mailTo(mail.catcher, email).find((m) => m.subject === 'Welcome to the Korvel newsletter')!;
}

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

describe('sign-up', () => {
  test('answers new, pending and confirmed addresses alike, and only new or pending ones get a confirmation', async () => {
    await subscribe('confirmed@reader.example');
    mail.catcher.clear();
    const replies = [
      await signUp('new@reader.example'),
      await signUp('new@reader.example'),
      await signUp('Confirmed@Reader.example'),
    ];
    expect(new Set(replies.map((r) => `${r.status} ${r.text}`)).size).toBe(1);
    expect(replies[0]!.status).toBe(202);
    await api.settle();
    expect(mailTo(mail.catcher, 'new@reader.example')).toHaveLength(1);
    expect(mailTo(mail.catcher, 'Confirmed@Reader.example')).toHaveLength(0);
    expect(mail.catcher.messages()).toHaveLength(1);
  });

  test('stays pending, with its consent record, until the confirmation form is posted', async () => {
    await signUp('pending@reader.example', '/news/achema');
    const link = await confirmationLink('pending@reader.example');
    const [row] = await api.db.query<{
      status: string;
      source_page: string;
      consent_version: string;
      consented_at: Date;
    }>('SELECT status, source_page, consent_version, consented_at FROM subscribers WHERE email = $1', [
      'pending@reader.example',
    ]);
    expect(row).toMatchObject({
      status: 'pending',
      source_page: '/news/achema',
      consent_version: 'newsletter-2026-11',
    });
    expect(row!.consented_at).toBeTruthy();

    const list = await api.call('GET', '/api/newsletter?status=pending', { token });
    expect(list.body.map((s: { email: string }) => s.email)).toContain('pending@reader.example');
    expect(list.body.every((s: { status: string }) => s.status === 'pending')).toBe(true);

    // A scanner fetching the link, twice, with HEAD too, confirms nothing.
    for (const method of ['GET', 'GET', 'HEAD']) {
      const seen = await api.call(method, pathOf(link));
      expect(seen.status).toBe(200);
    }
    const page = await api.call('GET', pathOf(link));
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toMatch(/<form action="\/newsletter\/confirm\?token=[\w.-]+" method="post">/);
    expect(page.text).toContain('Confirm my subscription');
    expect(await statusOf('pending@reader.example')).toBe('pending');

    const posted = await api.call('POST', pathOf(link), {
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(200);
    expect(posted.text).toContain('Your subscription is confirmed');
    expect(await statusOf('pending@reader.example')).toBe('confirmed');
  });

  test('sends at most one confirmation an hour to an address, however often it is signed up', async () => {
    for (let i = 0; i < 4; i += 1) await signUp('eager@reader.example');
    await api.settle();
    expect(mailTo(mail.catcher, 'eager@reader.example')).toHaveLength(1);
    await api.db.query(
      `UPDATE subscribers SET confirmation_sent_at = now() - interval '61 minutes' WHERE email = 'eager@reader.example'`,
    );
    await signUp('eager@reader.example');
    await api.settle();
    expect(mailTo(mail.catcher, 'eager@reader.example')).toHaveLength(2);
  });

  test('two sign-ups of one address at the same moment leave one row and one mail', async () => {
    await Promise.all([signUp('twice@reader.example'), signUp('TWICE@reader.example')]);
    await api.settle();
    const rows = await api.db.query('SELECT id FROM subscribers WHERE lower(email) = $1', [
      'twice@reader.example',
    ]);
    expect(rows).toHaveLength(1);
    expect(mail.catcher.messages()).toHaveLength(1);
  });
});

describe('the welcome mail', () => {
  test('carries RFC 8058 one-click unsubscribe headers and a visible link for this recipient only', async () => {
    const welcome = await subscribe('reader.one@plant.example');
    const unsubscribe = linkIn(welcome, `${SITE_URL}/newsletter/unsubscribe?token=`);
    expect(welcome.headers['list-unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(welcome.html).toContain(unsubscribe.replace(/&/g, '&amp;'));
    const other = await subscribe('reader.two@plant.example');
    expect(other.headers['list-unsubscribe']).not.toBe(welcome.headers['list-unsubscribe']);
  });
});

describe('unsubscribe', () => {
  test('a GET shows a button and changes nothing; the one-click POST deletes the row and keeps a hash', async () => {
    const welcome = await subscribe('leaving@plant.example');
    const link = linkIn(welcome, `${SITE_URL}/newsletter/unsubscribe?token=`);
    const page = await api.call('GET', pathOf(link));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Unsubscribe from the newsletter');
    expect(await statusOf('leaving@plant.example')).toBe('confirmed');

    const oneClick = await api.call('POST', pathOf(link), {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('You are unsubscribed');
    expect(await statusOf('leaving@plant.example')).toBeUndefined();
    const hashes = await api.db.query('SELECT email_hash FROM mail_suppressions');
    expect(hashes.length).toBeGreaterThan(0);
    expect(JSON.stringify(hashes)).not.toContain('leaving');

    const again = await api.call('POST', pathOf(link), { body: 'List-Unsubscribe=One-Click' });
    expect(again.status).toBe(410);
    expect((await api.call('GET', pathOf(link))).status).toBe(410);
  });

  test('a link from before a bounce still offers the button once the address signs up again', async () => {
    const welcome = await subscribe('again@plant.example');
    const link = pathOf(linkIn(welcome, `${SITE_URL}/newsletter/unsubscribe?token=`));
    // Bounced later (as the mail events set it), then signed up again an hour on.
    await api.db.query(
      `UPDATE subscribers SET status = 'bounced', confirmation_sent_at = now() - interval '2 hours'
       WHERE email = 'again@plant.example'`,
    );
    await signUp('again@plant.example');
    expect(await statusOf('again@plant.example')).toBe('pending');
    const page = await api.call('GET', link);
    expect([page.status, page.text]).toEqual([
      200,
      expect.stringContaining('Unsubscribe from the newsletter'),
    ]);
    expect((await api.call('POST', link, { body: 'List-Unsubscribe=One-Click' })).status).toBe(200);
    expect(await statusOf('again@plant.example')).toBeUndefined();
  });

  test('a multipart one-click POST works too', async () => {
    const welcome = await subscribe('multipart@plant.example');
    const link = linkIn(welcome, `${SITE_URL}/newsletter/unsubscribe?token=`);
    const body = new FormData();
    body.set('List-Unsubscribe', 'One-Click');
    const reply = await api.call('POST', pathOf(link), { body });
    expect(reply.status).toBe(200);
    expect(await statusOf('multipart@plant.example')).toBeUndefined();
  });

  test('suppresses mail still waiting for the address, until it signs up and confirms anew', async () => {
    const welcome = await subscribe('returning@plant.example');
    const link = linkIn(welcome, `${SITE_URL}/newsletter/unsubscribe?token=`);
    await api.call('POST', pathOf(link), { body: 'List-Unsubscribe=One-Click' });
    expect(
      await api.db.query('SELECT 1 FROM mail_suppressions WHERE email_hash = $1', [
        emailHash('returning@plant.example'),
      ]),
    ).toHaveLength(1);
    // A welcome queued for the old address (as if it had not gone out yet) is never sent.
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id)
       VALUES ('stale-welcome', 'newsletter-welcome', 'returning@plant.example', 2147483000)`,
    );
    mail.catcher.clear();
    await runWorker(api.db);
    expect(mail.catcher.messages()).toHaveLength(0);
    const [stale] = await api.db.query<{ status: string }>(
      `SELECT status FROM outbox WHERE idempotency_key = 'stale-welcome'`,
    );
    expect(stale!.status).toBe('cancelled');

    const back = await subscribe('returning@plant.example');
    expect(back.subject).toBe('Welcome to the Korvel newsletter');
    expect(await statusOf('returning@plant.example')).toBe('confirmed');
    // Confirming anew lifts the suppression.
    const suppressed = await api.db.query('SELECT 1 FROM mail_suppressions WHERE email_hash = $1', [
      emailHash('returning@plant.example'),
    ]);
    expect(suppressed).toHaveLength(0);
  });
});

describe('links that cannot act', () => {
  test('a tampered, a foreign-purpose and a missing token get 400 pages and change nothing', async () => {
    await signUp('careful@reader.example');
    const link = await confirmationLink('careful@reader.example');
    const [, tokenValue] = link.split('token=');
    const tampered = `${tokenValue!.slice(0, -3)}${tokenValue!.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const [row] = await api.db.query<{ id: number }>('SELECT id FROM subscribers WHERE email = $1', [
      'careful@reader.example',
    ]);
    const unsubscribeToken = await signLinkToken('unsubscribe', {
      subscriberId: row!.id,
      tag: addressTag('careful@reader.example'),
    });
    for (const path of [
      `/newsletter/confirm?token=${tampered}`,
      `/newsletter/confirm?token=${unsubscribeToken}`,
      '/newsletter/confirm',
      `/newsletter/confirm?token=${tokenValue}&extra=1`,
      '/newsletter/unsubscribe?token=not-a-token',
    ]) {
      for (const method of ['GET', 'POST']) {
        const reply = await api.call(method, path);
        expect(reply.status, `${method} ${path}`).toBe(400);
        expect(reply.text).toContain('This link is not valid');
      }
    }
    expect(await statusOf('careful@reader.example')).toBe('pending');
  });

  test('an expired confirmation link gets 410 and a way to sign up again', async () => {
    await signUp('late@reader.example');
    await api.settle();
    const [row] = await api.db.query<{ id: number }>('SELECT id FROM subscribers WHERE email = $1', [
      'late@reader.example',
    ]);
    const old = await signLinkToken(
      'confirm',
      { subscriberId: row!.id, tag: addressTag('late@reader.example') },
      new Date(Date.now() - 8 * 86_400_000),
    );
    const reply = await api.call('POST', `/newsletter/confirm?token=${old}`);
    expect(reply.status).toBe(410);
    expect(reply.text).toContain('This link has expired');
    expect(await statusOf('late@reader.example')).toBe('pending');
  });

  test('a used confirmation link gets 409 and no second welcome', async () => {
    await subscribe('once@reader.example');
    const link = mailTo(mail.catcher, 'once@reader.example')
      .map((m) => m.text)
      .join('\n')
      .match(/https:\/\/site\.korvel\.test\/newsletter\/confirm\?token=[\w.-]+/)![0];
    mail.catcher.clear();
    expect((await api.call('GET', pathOf(link))).status).toBe(409);
    expect((await api.call('POST', pathOf(link))).status).toBe(409);
    await api.settle();
    expect(mail.catcher.messages()).toHaveLength(0);
  });

  test('a link for an address that was deleted meanwhile gets 410', async () => {
    await signUp('deleted@reader.example');
    const link = await confirmationLink('deleted@reader.example');
    await api.db.query('DELETE FROM subscribers WHERE email = $1', ['deleted@reader.example']);
    expect((await api.call('GET', pathOf(link))).status).toBe(410);
    expect((await api.call('POST', pathOf(link))).status).toBe(410);
  });

  test('an oversized POST body gets 413 and changes nothing', async () => {
    await signUp('big@reader.example');
    const link = await confirmationLink('big@reader.example');
    const reply = await api.call('POST', pathOf(link), { body: 'x'.repeat(5000) });
    expect(reply.status).toBe(413);
    expect(await statusOf('big@reader.example')).toBe('pending');
  });
});

describe('GET /api/newsletter', () => {
  test('adds status to SPEC’s shape and filters by it; an unknown status is a 400', async () => {
    await subscribe('listed@reader.example');
    await signUp('waiting@reader.example');
    const all = await api.call('GET', '/api/newsletter', { token });
    const byEmail = Object.fromEntries(
      all.body.map((s: { email: string; status: string }) => [s.email, s.status]),
    );
    expect(byEmail['listed@reader.example']).toBe('confirmed');
    expect(byEmail['waiting@reader.example']).toBe('pending');
    const confirmed = await api.call('GET', '/api/newsletter?status=confirmed&page=1&pageSize=50', { token });
    expect(confirmed.body.every((s: { status: string }) => s.status === 'confirmed')).toBe(true);
    expect(Number(confirmed.headers.get('x-total-count'))).toBe(confirmed.body.length);
    expect((await api.call('GET', '/api/newsletter?status=active', { token })).status).toBe(400);
  });
});
