/**
 * Newsletter issues through real HTTP and a real SMTP server: drafts and their validation, the preview, a
 * test copy, the send that reaches every confirmed subscriber exactly once with their own unsubscribe link,
 * the signed web version, the send rate, cancelling mid-send, unsubscribing mid-send and two workers at once.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { campaignViewSignature } from '../../src/server/mail/links.ts';
import { processOutbox } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import { linkIn, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'editor@korvel.example', password: 'issue editor passphrase' };
let api: Api;
let mail: TestMail;
let token: string;

const ISSUE = {
  subject: 'Annex 1 two years on: what inspectors ask about CCS',
  preheader: 'Three findings we keep seeing, and how to close them before the inspection.',
  markdown: [
    '## What changed',
    '',
    'The revised **EU GMP Annex 1** has applied since 25 August 2023 (8.123 since 25 August 2024).',
    '',
    '- A written contamination control strategy',
    '- Pre-use post-sterilisation integrity testing of filters',
    '',
    'Read [our article](/blog/closed-systems) or write to us.',
  ].join('\n'),
  articles: ['blog/closed-systems', 'blog/gmp'],
};

const create = (json: unknown = ISSUE) => api.call('POST', '/api/campaigns', { token, json });
const get = (id: number) => api.call('GET', `/api/campaigns/${id}`, { token });
const act = (id: number, action: 'test' | 'send' | 'cancel') =>
  api.call('POST', `/api/campaigns/${id}/${action}`, { token });

/** Subscribers straight into the table: `confirmed` ones and one `pending` that must get nothing. */
async function addSubscribers(confirmed: number, prefix = 'reader'): Promise<string[]> {
  const emails = Array.from({ length: confirmed }, (_, i) => `${prefix}${i + 1}@list.example`);
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
    [emails],
  );
  await api.db.query(`INSERT INTO subscribers (email, status, consented_at) VALUES ($1, 'pending', now())`, [
    `${prefix}-pending@list.example`,
  ]);
  return emails;
}

const issueCopies = () => mail.catcher.messages().filter((m) => m.subject === ISSUE.subject);

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));
beforeEach(async () => {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM campaigns');
  await api.db.query('DELETE FROM subscribers');
  await api.db.query('DELETE FROM mail_suppressions');
});
afterEach(() => {
  delete process.env.MAIL_RATE_PER_MINUTE;
});

describe('drafts', () => {
  test('are created, listed newest first, read, changed and deleted', async () => {
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(Number) });
    expect(first.headers.get('location')).toBe(`/api/campaigns/${first.body.id}`);
    const second = await create({ subject: 'Second issue', markdown: 'Short text.' });

    const list = await api.call('GET', '/api/campaigns?page=1&pageSize=1', { token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([second.body.id]);

    const read = await get(first.body.id);
    expect(read.body).toMatchObject({
      ...ISSUE,
      id: first.body.id,
      status: 'draft',
      recipients: null,
      counts: { queued: 0, sent: 0, failed: 0 },
      failures: [],
    });

    const changed = await api.call('PATCH', `/api/campaigns/${first.body.id}`, {
      token,
      json: { subject: '  A better subject  ', articles: [] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      subject: 'A better subject',
      articles: [],
      markdown: ISSUE.markdown,
    });

    expect((await api.call('DELETE', `/api/campaigns/${second.body.id}`, { token })).status).toBe(204);
    expect((await get(second.body.id)).status).toBe(404);
  });

  test('refuse bad input with the field that is wrong, and store nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ markdown: 'Text' }, 'subject'],
      [{ ...ISSUE, subject: 'Line one\r\nBcc: everyone@example.com' }, 'subject'],
      [{ ...ISSUE, subject: 'x'.repeat(151) }, 'subject'],
      [{ ...ISSUE, preheader: 'two\nlines' }, 'preheader'],
      [{ ...ISSUE, markdown: '   ' }, 'markdown'],
      [{ ...ISSUE, markdown: 'x'.repeat(50_001) }, 'markdown'],
      [{ ...ISSUE, articles: ['blog/no-such-article'] }, 'articles'],
      [{ ...ISSUE, articles: ['../etc/passwd'] }, 'articles.0'],
      [{ ...ISSUE, articles: ['blog/gmp', 'blog/gmp'] }, 'articles'],
      [{ ...ISSUE, id: 7 }, 'id'],
      [{ ...ISSUE, status: 'sent' }, 'status'],
    ];
    for (const [json, field] of cases) {
      const reply = await create(json);
      expect(reply.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(reply.body.error.fields).toHaveProperty([field]);
    }
    expect(
      (
        await api.call('POST', '/api/campaigns', {
          token,
          body: 'subject=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(415);
    expect((await api.call('PATCH', '/api/campaigns/1', { token, json: {} })).status).toBe(400);
    expect((await api.call('GET', '/api/campaigns/abc', { token })).status).toBe(400);
    expect((await api.call('GET', '/api/campaigns/999', { token })).status).toBe(404);
    const [{ n }] = (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns')) as [
      { n: number },
    ];
    expect(n).toBe(0);
  });

  test('are for signed-in admins only, and refuse a foreign Origin', async () => {
    expect((await api.call('GET', '/api/campaigns')).status).toBe(401);
    expect((await api.call('POST', '/api/campaigns', { json: ISSUE })).status).toBe(401);
    expect((await api.call('POST', '/api/campaign-preview', { json: ISSUE })).status).toBe(401);
    const foreign = await api.call('POST', '/api/campaigns', {
      token,
      json: ISSUE,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('content', () => {
  test('the preview renders the Markdown in the brand frame, with article cards, and drops HTML and unsafe links', async () => {
    const reply = await api.call('POST', '/api/campaign-preview', {
      token,
      json: {
        ...ISSUE,
        markdown: `${ISSUE.markdown}\n\n<script>alert(1)</script><img src="https://tracker.example/p.gif">\n\n[click](javascript:alert(2)) and ![pixel](https://tracker.example/q.gif)`,
      },
    });
    expect(reply.status).toBe(200);
    const { html, text, subject } = reply.body as { html: string; text: string; subject: string };
    expect(subject).toBe(ISSUE.subject);
    expect(html).toContain('EU GMP Annex 1</strong>');
    expect(html).toMatch(/<li[^>]*>A written contamination control strategy<\/li>/);
    expect(html).toContain(`href="${SITE_URL}/blog/closed-systems"`);
    expect(html).toContain(`href="${SITE_URL}/blog/gmp"`);
    expect(html).toContain('Further reading');
    expect(html).toContain(ISSUE.preheader);
    for (const bad of ['<script', 'alert(1)', 'javascript:', 'tracker.example', '<img'])
      expect(html).not.toContain(bad);
    expect(text).toContain('A written contamination control strategy');
    expect(text).toContain(`${SITE_URL}/blog/gmp`);
  });

  test('a test copy goes to the signed-in admin only, marked as a test, without unsubscribe headers', async () => {
    await addSubscribers(2);
    const { body } = await create();
    const reply = await act(body.id, 'test');
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ to: ADMIN.email });
    await api.settle();
    const caught = mail.catcher.messages();
    expect(caught).toHaveLength(1);
    expect(caught[0]!.envelope.to).toEqual([ADMIN.email]);
    expect(caught[0]!.subject).toBe(`[Test] ${ISSUE.subject}`);
    expect(caught[0]!.headers['list-unsubscribe']).toBeUndefined();
    expect(caught[0]!.text).toContain('This is a test copy');
    expect((await get(body.id)).body.status).toBe('draft');
  });
});

describe('sending', () => {
  test('reaches every confirmed subscriber exactly once, each with their own one-click unsubscribe link', async () => {
    const readers = await addSubscribers(5);
    const { body } = await create();
    const sent = await act(body.id, 'send');
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ id: body.id, status: 'sending', recipients: 5 });
    const again = await act(body.id, 'send');
    expect(again.status).toBe(409);
    await api.settle();
    await runWorker(api.db);

    const copies = issueCopies();
    expect(copies.map((m) => m.envelope.to[0]).sort()).toEqual([...readers].sort());
    const unsubscribeLinks = new Set<string>();
    for (const copy of copies) {
      const link = linkIn(copy, `${SITE_URL}/newsletter/unsubscribe?token=`);
      expect(copy.headers['list-unsubscribe']).toBe(`<${link}>`);
      expect(copy.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(copy.headers['list-id']).toMatch(/newsletter/);
      expect(copy.html).toContain(`href="${link}"`);
      unsubscribeLinks.add(link);
    }
    expect(unsubscribeLinks.size).toBe(5);

    const done = await get(body.id);
    expect(done.body).toMatchObject({
      status: 'sent',
      recipients: 5,
      counts: { queued: 0, sent: 5, failed: 0 },
      skipped: 0,
    });
    expect(done.body.finishedAt).toEqual(expect.any(String));
    expect(
      (await api.call('PATCH', `/api/campaigns/${body.id}`, { token, json: { subject: 'Late' } })).status,
    ).toBe(409);
    expect((await api.call('DELETE', `/api/campaigns/${body.id}`, { token })).status).toBe(409);
    expect((await act(body.id, 'cancel')).status).toBe(409);

    // One click on one copy's link removes that reader and nobody else.
    const link = linkIn(copies[0]!, `${SITE_URL}/newsletter/unsubscribe?token=`);
    const oneClick = await api.call('POST', link.slice(SITE_URL.length), {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    const [{ n }] = (await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM subscribers WHERE status = 'confirmed'`,
    )) as [{ n: number }];
    expect(n).toBe(4);
  });

  test('the "view in browser" link works without signing in, names nobody, and refuses a wrong signature', async () => {
    await addSubscribers(1);
    const { body } = await create();
    await act(body.id, 'send');
    await api.settle();
    const [copy] = issueCopies();
    const view = linkIn(copy!, `${SITE_URL}/newsletter/issue/${body.id}?sig=`);
    expect(view).toBe(`${SITE_URL}/newsletter/issue/${body.id}?sig=${campaignViewSignature(body.id)}`);
    const page = await api.call('GET', view.slice(SITE_URL.length));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Sent and listed in the public archive (the default, issue 36), the web copy is for search engines too.
    expect((await get(body.id)).body).toMatchObject({ status: 'sent', inArchive: true });
    const indexed = await api.call('GET', view.slice(SITE_URL.length));
    expect(indexed.headers.get('x-robots-tag')).toBeNull();
    expect(indexed.headers.get('link')).toBe(`<${view}>; rel="canonical"`);
    expect(page.text).toContain(`<title>${ISSUE.subject.replace(/:/g, ':')} · Korvel newsletter</title>`);
    expect(page.text).toContain('EU GMP Annex 1');
    expect(page.text).not.toContain('reader1@list.example');
    expect(page.text).not.toContain('/newsletter/unsubscribe?token=');
    const other = campaignViewSignature(body.id + 1);
    for (const path of [
      `/newsletter/issue/${body.id}?sig=${other}`,
      `/newsletter/issue/${body.id}`,
      `/newsletter/issue/${body.id + 1}?sig=${other}`,
      `/newsletter/issue/${body.id}?sig=${campaignViewSignature(body.id)}&email=x`,
    ])
      expect((await api.call('GET', path)).status, path).toBe(404);
  });

  test('with nobody confirmed, answers 409 and the campaign stays a draft', async () => {
    await api.db.query(
      `INSERT INTO subscribers (email, status, consented_at) VALUES ('p@list.example', 'pending', now())`,
    );
    const { body } = await create();
    const reply = await act(body.id, 'send');
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('no_recipients');
    expect((await get(body.id)).body.status).toBe('draft');
  });

  test('keeps to MAIL_RATE_PER_MINUTE across worker runs', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '4';
    await addSubscribers(10);
    const { body } = await create();
    await act(body.id, 'send');
    await api.settle();
    await runWorker(api.db);
    await runWorker(api.db);
    expect(issueCopies()).toHaveLength(4);
    expect((await get(body.id)).body).toMatchObject({ status: 'sending', counts: { queued: 6, sent: 4 } });
    // A minute later the next four may go.
    await api.db.query(
      `UPDATE outbox SET claimed_at = claimed_at - interval '61 seconds' WHERE claimed_at IS NOT NULL`,
    );
    await runWorker(api.db);
    expect(issueCopies()).toHaveLength(8);
  });

  test('cancel stops what has not gone out; the campaign keeps its counts', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '3';
    await addSubscribers(8);
    const { body } = await create();
    await act(body.id, 'send');
    await api.settle();
    expect(issueCopies()).toHaveLength(3);
    const cancelled = await act(body.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      counts: { queued: 0, sent: 3, failed: 0 },
      skipped: 5,
    });
    await api.db.query(`UPDATE outbox SET claimed_at = NULL`);
    await runWorker(api.db);
    expect(issueCopies()).toHaveLength(3);
    expect((await act(body.id, 'cancel')).status).toBe(409);
  });

  test('an address that unsubscribes or is suppressed during a send gets no copy', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '1';
    const readers = await addSubscribers(3);
    const { body } = await create();
    await act(body.id, 'send');
    await api.settle();
    const first = issueCopies().map((m) => m.envelope.to[0]);
    expect(first).toHaveLength(1);
    const [leaving, suppressed] = readers.filter((r) => !first.includes(r));
    await api.db.query('DELETE FROM subscribers WHERE email = $1', [leaving]);
    const { emailHash } = await import('../../src/server/mail/hash.ts');
    await api.db.query('INSERT INTO mail_suppressions (email_hash) VALUES ($1)', [emailHash(suppressed!)]);
    process.env.MAIL_RATE_PER_MINUTE = '100';
    await runWorker(api.db);
    expect(issueCopies().map((m) => m.envelope.to[0])).toEqual(first);
    expect((await get(body.id)).body).toMatchObject({ status: 'sent', counts: { sent: 1 }, skipped: 2 });
  });

  test('two workers at once, and a second send, never give anyone two copies', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '1000';
    const readers = await addSubscribers(60);
    const { body } = await create();
    const sends = await Promise.all([act(body.id, 'send'), act(body.id, 'send')]);
    expect(sends.map((s) => s.status).sort()).toEqual([202, 409]);
    await Promise.all([
      processOutbox(api.db, { batchSize: 7 }),
      processOutbox(api.db, { batchSize: 7 }),
      api.settle(),
    ]);
    await runWorker(api.db);
    const to = issueCopies().map((m) => m.envelope.to[0]!);
    expect(to).toHaveLength(60);
    expect(new Set(to).size).toBe(60);
    expect(new Set(to)).toEqual(new Set(readers));
    expect((await get(body.id)).body.counts).toEqual({ queued: 0, sent: 60, failed: 0 });
  });

  test('a worker that dies mid-batch leaves its rows to the next one after the lease, sent once', async () => {
    process.env.MAIL_RATE_PER_MINUTE = '1000';
    await addSubscribers(4);
    const { body } = await create();
    // Send without the run after the request: claim two rows as a worker that then crashes.
    await api.db.transaction(async (tx) => {
      const { startSending } = await import('../../src/server/repositories/campaigns.ts');
      await startSending(tx, body.id);
    });
    const { claimCampaignMail } = await import('../../src/server/repositories/outbox.ts');
    const held = await claimCampaignMail(api.db, { limit: 2, ratePerMinute: 1000 });
    expect(held).toHaveLength(2);
    await runWorker(api.db);
    expect(issueCopies()).toHaveLength(2);
    await api.db.query(
      `UPDATE outbox SET lease_until = now() - interval '1 second' WHERE status = 'sending'`,
    );
    await runWorker(api.db);
    const to = issueCopies().map((m) => m.envelope.to[0]);
    expect(to).toHaveLength(4);
    expect(new Set(to).size).toBe(4);
    expect((await get(body.id)).body.status).toBe('sent');
  });
});
