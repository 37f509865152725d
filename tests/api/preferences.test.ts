/**
 * Topics and the preference page (issue 36, item 2) through real HTTP, a real database and real SMTP: the topics
 * a sign-up stores, the signed preference page behind every newsletter mail (GET shows, POST changes, a bad
 * link or form changes nothing), the record of each change, the three-month pause, unsubscribing from the page,
 * and an issue's topics: validated, counted by GET /api/campaigns/{id}/audience exactly as the send queues them.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { NEWSLETTER_TOPICS } from '../../src/content/constants.ts';
import { addressTag, signLinkToken } from '../../src/server/mail/links.ts';
import { type Api } from './support/harness.ts';
import { linkIn, mailTo, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'topics.editor@korvel.example', password: 'topics editor passphrase' };
let api: Api;
let mail: TestMail;
let token: string;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));
beforeEach(async () => {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM campaigns');
  await api.db.query('DELETE FROM subscribers');
  await api.db.query('DELETE FROM mail_suppressions');
});

const pathOf = (link: string) => link.slice(SITE_URL.length);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A confirmed subscriber straight into the table; returns its id. */
async function addReader(
  email: string,
  options: { lang?: 'en' | 'de'; topics?: string[]; pausedDays?: number; status?: string } = {},
): Promise<number> {
  const [row] = await api.db.query<{ id: number }>(
    `INSERT INTO subscribers (email, status, lang, topics, paused_until, consented_at, confirmed_at)
     VALUES ($1, $2, $3, $4::text[], CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END,
       now(), now())
     RETURNING id`,
    [
      email,
      options.status ?? 'confirmed',
      options.lang ?? 'en',
      options.topics ?? [],
      options.pausedDays ?? null,
    ],
  );
  return row!.id;
}

/** The path of a reader's preference page, as their mail links it. */
async function preferencePath(id: number, email: string, lang: 'en' | 'de' = 'en'): Promise<string> {
  const link = await signLinkToken('preferences', { subscriberId: id, tag: addressTag(email) });
  return `${lang === 'de' ? '/de' : ''}/newsletter/preferences?token=${link}`;
}

async function readerRow(id: number) {
  const [row] = await api.db.query<{ lang: string; topics: string[]; paused_until: Date | null }>(
    'SELECT lang, topics, paused_until FROM subscribers WHERE id = $1',
    [id],
  );
  return row;
}

const changesOf = (id: number) =>
  api.db.query<{ kind: string; detail: Record<string, unknown>; admin_id: number | null }>(
    'SELECT kind, detail, admin_id FROM subscriber_changes WHERE subscriber_id = $1 ORDER BY id',
    [id],
  );

const post = (path: string, body: string) => api.call('POST', path, { body, headers: FORM });

const ISSUE = { subject: 'Cleanroom notes for the winter', markdown: 'Three findings from recent audits.' };

async function createIssue(extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, ...extra } });
  expect(reply.status).toBe(201);
  return reply.body.id as number;
}

const audience = async (id: number) => {
  const reply = await api.call('GET', `/api/campaigns/${id}/audience`, { token });
  expect(reply.status).toBe(200);
  return reply.body.count as number;
};

describe('sign-up topics', () => {
  test('the form stores the ticked topics; none ticked or none sent stores every topic', async () => {
    const form = await api.call('POST', '/api/newsletter', {
      body: 'email=form.reader%40plant.example&consent=on&source=%2F&topic-pharma=on&topic-company-news=on',
      headers: FORM,
    });
    expect(form.status).toBe(303);
    const json = await api.call('POST', '/api/newsletter', {
      json: { email: 'json.reader@plant.example', consent: true, source: '/', topics: ['energy', 'food'] },
    });
    expect(json.status).toBe(202);
    await api.call('POST', '/api/newsletter', {
      json: { email: 'all.reader@plant.example', consent: true, source: '/' },
    });
    const rows = await api.db.query<{ email: string; topics: string[] }>(
      'SELECT email, topics FROM subscribers ORDER BY email',
    );
    expect(rows).toEqual([
      { email: 'all.reader@plant.example', topics: [...NEWSLETTER_TOPICS] },
      { email: 'form.reader@plant.example', topics: ['pharma', 'company-news'] },
      // Kept in the order of NEWSLETTER_TOPICS, whatever order they came in.
      { email: 'json.reader@plant.example', topics: ['food', 'energy'] },
    ]);
  });

  test('an unknown topic is refused and stores nothing', async () => {
    const reply = await api.call('POST', '/api/newsletter', {
      json: { email: 'odd@plant.example', consent: true, source: '/', topics: ['gardening'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.fields).toHaveProperty('topics.0');
    const form = await api.call('POST', '/api/newsletter', {
      body: 'email=odd%40plant.example&consent=on&source=%2F&topic-gardening=on',
      headers: FORM,
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/#newsletter-error');
    expect(await api.db.query('SELECT 1 FROM subscribers')).toHaveLength(0);
  });
});

describe('the preference page', () => {
  test('is linked from every issue; a GET shows the choices and changes nothing', async () => {
    const id = await addReader('reader@plant.example', { topics: ['pharma', 'energy'] });
    const issue = await createIssue();
    expect((await api.call('POST', `/api/campaigns/${issue}/send`, { token })).status).toBe(202);
    await api.settle();
    await runWorker(api.db);
    const [copy] = mailTo(mail.catcher, 'reader@plant.example');
    const link = linkIn(copy!, `${SITE_URL}/newsletter/preferences?token=`);
    expect(copy!.html).toContain(link.replace(/&/g, '&amp;'));
    // One-click unsubscribe is as it was: the headers name the unsubscribe link, not this page.
    expect(copy!.headers['list-unsubscribe']).toMatch(/\/newsletter\/unsubscribe\?token=/);

    const page = await api.call('GET', pathOf(link));
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('Your newsletter preferences');
    expect(page.text).toContain('reader@plant.example');
    expect(page.text).toMatch(/name="topic-pharma" checked=""/);
    expect(page.text).toMatch(/name="topic-food"\/>/);
    expect(page.text).toMatch(/name="lang" checked="" value="en"/);
    expect(await readerRow(id)).toMatchObject({ topics: ['pharma', 'energy'], lang: 'en' });
    expect(await changesOf(id)).toEqual([]);
  });

  test('a POST saves topics and language, answers in the new language and records each change', async () => {
    const id = await addReader('switch@plant.example');
    const path = await preferencePath(id, 'switch@plant.example');
    const reply = await post(path, 'action=save&topic-chemicals=on&topic-company-news=on&lang=de');
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('Ihre Einstellungen sind gespeichert.');
    expect(reply.text).toContain('lang="de-DE"');
    // The forms now post to the German page.
    expect(reply.text).toContain('action="/de/newsletter/preferences?token=');
    expect(await readerRow(id)).toMatchObject({ topics: ['chemicals', 'company-news'], lang: 'de' });
    expect(await changesOf(id)).toEqual([
      {
        kind: 'topics',
        detail: { from: [...NEWSLETTER_TOPICS], to: ['chemicals', 'company-news'] },
        admin_id: null,
      },
      { kind: 'language', detail: { from: 'en', to: 'de' }, admin_id: null },
    ]);

    // The same choices again change nothing and record nothing.
    const again = await post(path, 'action=save&topic-chemicals=on&topic-company-news=on&lang=de');
    expect(again.status).toBe(200);
    expect(again.text).toContain('Es gab nichts zu ändern');
    expect(await changesOf(id)).toHaveLength(2);
  });

  test('a bad signature, another purpose or a tampered token gets a 4xx page and changes nothing', async () => {
    const id = await addReader('guarded@plant.example', { topics: ['pharma'] });
    const path = await preferencePath(id, 'guarded@plant.example');
    const unsubscribeToken = await signLinkToken('unsubscribe', {
      subscriberId: id,
      tag: addressTag('guarded@plant.example'),
    });
    // The signature's first character: its last may carry only padding bits, which decode to the same bytes.
    const tampered = path.replace(
      /\.([A-Za-z0-9_-])([A-Za-z0-9_-]+)$/,
      (_, c: string, rest: string) => `.${c === 'A' ? 'B' : 'A'}${rest}`,
    );
    expect(tampered).not.toBe(path);
    const otherAddress = await preferencePath(id, 'someone.else@plant.example');
    for (const bad of [
      tampered,
      `/newsletter/preferences?token=${unsubscribeToken}`,
      '/newsletter/preferences?token=not-a-token',
      '/newsletter/preferences',
      `${path}&extra=1`,
    ]) {
      const get = await api.call('GET', bad);
      expect(get.status, bad).toBe(400);
      expect(get.text).toContain('This link is not valid');
      const change = await post(bad, 'action=save&topic-energy=on&lang=de');
      expect(change.status, bad).toBe(400);
    }
    // A token for another address (or a row that is gone) is a 410, and changes nothing either.
    expect((await post(otherAddress, 'action=pause')).status).toBe(410);
    expect(await readerRow(id)).toMatchObject({ topics: ['pharma'], lang: 'en', paused_until: null });
    expect(await changesOf(id)).toEqual([]);
  });

  test('a form without a topic, or one it cannot read, changes nothing and says why', async () => {
    const id = await addReader('careful@plant.example', { topics: ['food'] });
    const path = await preferencePath(id, 'careful@plant.example');
    const none = await post(path, 'action=save&lang=en');
    expect(none.status).toBe(400);
    expect(none.text).toContain('Tick at least one topic');
    for (const body of [
      'action=save&topic-gardening=on&lang=en',
      'action=save&topic-food=on&lang=fr',
      'action=save&topic-food=on&topic-food=on&lang=en',
      'action=delete',
      'action=pause&lang=de',
    ]) {
      const reply = await post(path, body);
      expect(reply.status, body).toBe(400);
      expect(reply.text).toContain('The form could not be read');
    }
    expect(await readerRow(id)).toMatchObject({ topics: ['food'], lang: 'en', paused_until: null });
    expect(await changesOf(id)).toEqual([]);
  });

  test('pauses for three months and resumes, each recorded, and the page says until when', async () => {
    const id = await addReader('resting@plant.example');
    const path = await preferencePath(id, 'resting@plant.example');
    const paused = await post(path, 'action=pause');
    expect(paused.status).toBe(200);
    expect(paused.text).toContain('The newsletter is paused until');
    expect(paused.text).toContain('Resume now');
    const { paused_until } = (await readerRow(id))!;
    const days = (new Date(paused_until!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(88);
    expect(days).toBeLessThan(93);
    const resumed = await post(path, 'action=resume');
    expect(resumed.text).toContain('The newsletter is running again');
    expect((await readerRow(id))!.paused_until).toBeNull();
    expect(await changesOf(id)).toEqual([
      { kind: 'paused', detail: { until: new Date(paused_until!).toISOString() }, admin_id: null },
      { kind: 'resumed', detail: {}, admin_id: null },
    ]);
  });

  test('unsubscribing from the page is the one-click unsubscribe: the row goes, a hash stays', async () => {
    const id = await addReader('leaving@plant.example', { lang: 'de' });
    const page = await api.call('GET', await preferencePath(id, 'leaving@plant.example', 'de'));
    expect(page.status).toBe(200);
    const action = /<form action="(\/de\/newsletter\/unsubscribe\?token=[^"]+)" method="post"/.exec(
      page.text,
    )?.[1];
    expect(action).toBeDefined();
    const reply = await api.call('POST', action!.replace(/&amp;/g, '&'), { body: '', headers: FORM });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('Sie sind abgemeldet');
    expect(await readerRow(id)).toBeUndefined();
    expect(await api.db.query('SELECT 1 FROM mail_suppressions')).toHaveLength(1);
    expect((await api.call('GET', await preferencePath(id, 'leaving@plant.example'))).status).toBe(410);
  });
});

describe("an issue's topics", () => {
  test('are validated on create and update, and stored', async () => {
    for (const topics of [['gardening'], ['pharma', 'pharma'], 'pharma', [1]]) {
      const reply = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, topics } });
      expect(reply.status, JSON.stringify(topics)).toBe(400);
      expect(reply.body.error.code).toBe('validation_failed');
      expect(Object.keys(reply.body.error.fields).join()).toMatch(/^topics/);
    }
    expect(await api.db.query('SELECT 1 FROM campaigns')).toHaveLength(0);
    const id = await createIssue({ topics: ['pharma', 'company-news'] });
    expect((await api.call('GET', `/api/campaigns/${id}`, { token })).body.topics).toEqual([
      'pharma',
      'company-news',
    ]);
    const bad = await api.call('PATCH', `/api/campaigns/${id}`, { token, json: { topics: ['oil'] } });
    expect(bad.status).toBe(400);
    const patched = await api.call('PATCH', `/api/campaigns/${id}`, { token, json: { topics: [] } });
    expect(patched.status).toBe(200);
    expect(patched.body.topics).toEqual([]);
  });

  test('the audience count is exactly what the send queues: language, topics, paused left out', async () => {
    await addReader('pharma@plant.example', { topics: ['pharma'] });
    await addReader('energy@plant.example', { topics: ['energy', 'company-news'] });
    await addReader('everything@plant.example', { topics: [] });
    await addReader('paused.pharma@plant.example', { topics: ['pharma'], pausedDays: 30 });
    await addReader('pause.over@plant.example', { topics: ['pharma'], pausedDays: -1 });
    await addReader('german.pharma@plant.example', { topics: ['pharma'], lang: 'de' });
    await addReader('pending.pharma@plant.example', { topics: ['pharma'], status: 'pending' });

    const forPharma = await createIssue({ topics: ['pharma'] });
    const forNews = await createIssue({ topics: ['company-news', 'food'] });
    const forAll = await createIssue();
    const german = await createIssue({ lang: 'de', topics: ['energy', 'pharma'] });
    const counts = {
      pharma: await audience(forPharma),
      news: await audience(forNews),
      all: await audience(forAll),
      german: await audience(german),
    };
    // pharma, everything, pause.over | energy, everything | the four English readers not paused | german.pharma
    expect(counts).toEqual({ pharma: 3, news: 2, all: 4, german: 1 });

    for (const [id, expected] of [
      [forPharma, counts.pharma],
      [forNews, counts.news],
      [forAll, counts.all],
      [german, counts.german],
    ] as const) {
      const sent = await api.call('POST', `/api/campaigns/${id}/send`, { token });
      expect(sent.status).toBe(202);
      expect(sent.body.recipients).toBe(expected);
    }
    const queued = await api.db.query<{ recipient: string }>(
      `SELECT recipient FROM outbox WHERE campaign_id = $1 ORDER BY recipient`,
      [forPharma],
    );
    expect(queued.map((row) => row.recipient)).toEqual([
      'everything@plant.example',
      'pause.over@plant.example',
      'pharma@plant.example',
    ]);
  });

  test('an issue nobody follows is refused, and the audience is for owners and editors only', async () => {
    await addReader('pharma.only@plant.example', { topics: ['pharma'] });
    const id = await createIssue({ topics: ['oil-gas'] });
    expect(await audience(id)).toBe(0);
    const send = await api.call('POST', `/api/campaigns/${id}/send`, { token });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('no_recipients');
    expect(send.body.error.message).toContain('follows the chosen topics');

    expect((await api.call('GET', `/api/campaigns/${id}/audience`)).status).toBe(401);
    expect((await api.call('GET', '/api/campaigns/2147483000/audience', { token })).status).toBe(404);
    expect((await api.call('GET', `/api/campaigns/${id}/audience?x=1`, { token })).status).toBe(400);
    await api.createAdmin('sales.topics@korvel.example', 'topics sales passphrase', 'sales');
    const sales = await api.login('sales.topics@korvel.example', 'topics sales passphrase');
    expect((await api.call('GET', `/api/campaigns/${id}/audience`, { token: sales })).status).toBe(403);
  });
});
