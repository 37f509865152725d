/**
 * Insight (issue 24) through real HTTP: the beacon (good input, every kind of bad input, bots), the daily
 * counters and the p75 read from the vitals histograms, conversions counted at their functions, the signed
 * click redirect and unsubscribes per newsletter issue, retention, and the schema holding no personal data.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { percentile75, VITAL_BUCKETS, vitalBucket } from '../../src/lib/insight-vitals.ts';
import { campaignClickSignature } from '../../src/server/mail/links.ts';
import { INSIGHT_TABLES, utcDay } from '../../src/server/repositories/insight.ts';
import { applyRetention } from '../../src/server/retention.ts';
import { type Api, type CallOptions, type Reply } from './support/harness.ts';
import { linkIn, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'insight@korvel.example', password: 'an insight admin passphrase' };
let api: Api;
let mail: TestMail;
let token: string;

/** A desktop Firefox: a real visitor's browser. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const VISITOR_IP = '198.51.100.77';
const today = utcDay();

const beacon = (json: unknown, options: CallOptions = {}) =>
  api.call('POST', '/api/collect', {
    body: typeof json === 'string' ? json : JSON.stringify(json),
    ip: VISITOR_IP,
    ...options,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': BROWSER,
      origin: api.url,
      'sec-fetch-site': 'same-origin',
      ...options.headers,
    },
  });

const insights = async (query = `from=${today}&to=${today}`) => {
  const reply = await api.call('GET', `/api/insights?${query}`, { token });
  expect(reply.status).toBe(200);
  return reply.body;
};

/** Every counter row of every measurement table, to show that a refused beacon changed nothing. */
async function snapshot(): Promise<string> {
  const tables = await Promise.all(
    INSIGHT_TABLES.map((table) => api.db.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3`)),
  );
  return JSON.stringify(tables);
}

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));
beforeEach(async () => {
  for (const table of INSIGHT_TABLES) await api.db.query(`DELETE FROM ${table}`);
});

describe('POST /api/collect', () => {
  test('counts a page view, its entry, a brochure download, a search and the vitals, and answers 204', async () => {
    const reply = await beacon({
      path: '/blog/gmp',
      width: 390,
      referrer: 'www.LinkedIn.com',
      utm: { source: 'LinkedIn', medium: 'social', campaign: 'Annex 1' },
      events: ['brochure'],
      searches: [{ query: '  Cleanroom   HVAC ', results: 0 }],
      vitals: { LCP: 2100, INP: 120, CLS: 0.04, FCP: 900, TTFB: 300 },
    });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');

    const body = await insights();
    expect(body.pages).toEqual([{ path: '/blog/gmp', views: 1 }]);
    expect(body.devices).toEqual([{ device: 'phone', views: 1 }]);
    expect(body.days).toEqual([{ day: today, views: 1, entries: 1 }]);
    expect(body.referrers).toEqual([{ source: 'linkedin.com', views: 1 }]);
    expect(body.campaigns).toEqual([{ source: 'linkedin', medium: 'social', campaign: 'annex 1', views: 1 }]);
    expect(body.conversions).toEqual({ contact: 0, meeting: 0, signup: 0, confirmed: 0, brochure: 1 });
    expect(body.searches).toEqual([{ query: 'cleanroom hvac', results: 0, count: 1 }]);
    expect(body.vitals.map((v: { metric: string }) => v.metric)).toEqual([
      'LCP',
      'INP',
      'CLS',
      'FCP',
      'TTFB',
    ]);
  });

  test('a navigation inside the site is a view, not an entry; a trailing slash and a filter view count for their page', async () => {
    const own = new URL(api.url).hostname;
    expect((await beacon({ path: '/pharma/', width: 1440, referrer: own })).status).toBe(204);
    expect((await beacon({ path: '/blog/topic/gmp', width: 1000, referrer: own })).status).toBe(204);
    const body = await insights();
    expect(body.pages).toEqual([
      { path: '/blog', views: 1 },
      { path: '/pharma', views: 1 },
    ]);
    expect(body.devices).toEqual([
      { device: 'desktop', views: 1 },
      { device: 'tablet', views: 1 },
    ]);
    expect(body.referrers).toEqual([]);
    expect(body.days[0].entries).toBe(0);
  });

  test('a German page counts under its own path, its filter views for the German list', async () => {
    const own = new URL(api.url).hostname;
    expect((await beacon({ path: '/de/blog/gmp', width: 1440, referrer: own })).status).toBe(204);
    expect((await beacon({ path: '/de/blog/topic/gmp/', width: 1440, referrer: own })).status).toBe(204);
    expect((await beacon({ path: '/blog/gmp', width: 1440, referrer: own })).status).toBe(204);
    expect((await beacon({ path: '/de/admin', width: 1440 })).status).toBe(400);
    expect((await insights()).pages).toEqual([
      { path: '/blog/gmp', views: 1 },
      { path: '/de/blog', views: 1 },
      { path: '/de/blog/gmp', views: 1 },
    ]);
  });

  test('drops search queries that look like personal data and keeps the rest', async () => {
    const searches = [
      { query: 'ana.petrovic@plant.example', results: 0 },
      { query: 'Bulevar kralja Aleksandra 73', results: 0 },
      { query: '12 Baker Street', results: 0 },
      { query: 'order 2026-1126-07', results: 0 },
      { query: 'Annex 1', results: 4 },
    ];
    const phone = [
      { query: '+381 64 123 4567', results: 0 },
      { query: 'ISO 14644-1', results: 2 },
    ];
    expect((await beacon({ path: '/search', width: 1440, searches: phone })).status).toBe(204);
    expect((await beacon({ path: '/search', width: 1440, searches })).status).toBe(204);
    expect((await insights()).searches).toEqual([
      { query: 'annex 1', results: 4, count: 1 },
      { query: 'iso 14644-1', results: 2, count: 1 },
    ]);
  });

  const good = { path: '/contact', width: 1440 };
  const refusals: [string, () => Promise<Reply>, number, string?][] = [
    ['a body that is not JSON', () => beacon('{"path":'), 400, 'invalid_json'],
    ['an empty body', () => beacon(''), 400, 'invalid_json'],
    ['an array', () => beacon([good]), 400, 'validation_failed'],
    ['a path that is no page of the site', () => beacon({ ...good, path: '/wp-login.php' }), 400],
    ['an admin screen', () => beacon({ ...good, path: '/admin' }), 400],
    ['a full URL as path', () => beacon({ ...good, path: 'https://evil.example/contact' }), 400],
    ['a malformed escape in the path', () => beacon({ ...good, path: '/%E0%A4%A' }), 400],
    ['a CLS of 1,000', () => beacon({ ...good, vitals: { CLS: 1000 } }), 400],
    ['a negative LCP', () => beacon({ ...good, vitals: { LCP: -5 } }), 400],
    ['an LCP as text', () => beacon({ ...good, vitals: { LCP: '2000' } }), 400],
    ['an unknown metric', () => beacon({ ...good, vitals: { FID: 10 } }), 400],
    ['a missing width', () => beacon({ path: '/contact' }), 400],
    ['a fractional width', () => beacon({ ...good, width: 390.5 }), 400],
    ['an unknown field', () => beacon({ ...good, visitorId: 'abc' }), 400],
    ['a conversion the functions count', () => beacon({ ...good, events: ['contact'] }), 400],
    ['a referrer that is a full URL', () => beacon({ ...good, referrer: 'https://x.example/a?b' }), 400],
    ['six searches', () => beacon({ ...good, searches: Array(6).fill({ query: 'gmp', results: 1 }) }), 400],
    ['a body over 2 KB', () => beacon({ ...good, referrer: 'a'.repeat(3000) }), 413],
    [
      'a form post',
      () => beacon(good, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
    ],
    ['a foreign Origin', () => beacon(good, { headers: { origin: 'https://evil.example' } }), 403],
    ['a cross-site fetch', () => beacon(good, { headers: { 'sec-fetch-site': 'cross-site' } }), 403],
    ['a GET', () => api.call('GET', '/api/collect'), 405],
  ];
  for (const [what, send, status, code] of refusals) {
    test(`refuses ${what} with ${status} and changes nothing`, async () => {
      await beacon(good);
      const before = await snapshot();
      const reply = await send();
      expect(reply.status).toBe(status);
      if (code) expect(reply.body.error.code).toBe(code);
      expect(await snapshot()).toBe(before);
    });
  }

  const bots = [
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    [
      'headless Chrome',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    ],
    [
      'Lighthouse',
      'Mozilla/5.0 (Linux; Android 11) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36 Chrome-Lighthouse',
    ],
    ['curl', 'curl/8.11.1'],
    ['no user-agent at all', ''],
  ] as const;
  for (const [name, agent] of bots) {
    test(`answers ${name} with 204 and counts nothing`, async () => {
      const reply = await beacon({ ...good, events: ['brochure'] }, { headers: { 'user-agent': agent } });
      expect(reply.status).toBe(204);
      expect(await snapshot()).toBe(JSON.stringify(INSIGHT_TABLES.map(() => [])));
    });
  }
});

describe('GET /api/insights', () => {
  test('adds beacons up per page and reads the 75th percentile of each vital from its histogram', async () => {
    // Eight LCP samples on /pharma: the 75th percentile (the 6th of 8) lies in the bucket (2250, 2500].
    const lcps = [900, 1100, 1500, 2300, 2400, 2450, 3900, 5200];
    for (const LCP of lcps)
      expect((await beacon({ path: '/pharma', width: 1440, vitals: { LCP } })).status).toBe(204);
    for (const CLS of [0.3, 0.3, 0.3, 0.01]) await beacon({ path: '/food', width: 1440, vitals: { CLS } });

    const body = await insights();
    expect(body.pages).toEqual([
      { path: '/pharma', views: 8 },
      { path: '/food', views: 4 },
    ]);
    const lcp = body.vitals.find((v: { path: string }) => v.path === '/pharma');
    // Target 6 of 8; 3 samples lie below 2250 and 3 inside (2250, 2500]: three thirds of the way, i.e. 2500.
    expect(lcp).toEqual({ path: '/pharma', metric: 'LCP', p75: 2500, samples: 8, rating: 'good' });
    const exact = [...lcps].sort((a, b) => a - b)[5]!;
    const bucket = VITAL_BUCKETS.LCP[vitalBucket('LCP', exact)]!;
    expect(lcp.p75).toBeLessThanOrEqual(bucket);
    const cls = body.vitals.find((v: { path: string }) => v.path === '/food');
    expect(cls).toMatchObject({ metric: 'CLS', samples: 4, rating: 'poor' });
    expect(cls.p75).toBeGreaterThan(0.25);
    expect(cls.p75).toBeLessThanOrEqual(0.3);
  });

  test('percentile75 interpolates inside the bucket that holds the 75th percentile', () => {
    expect(percentile75('LCP', new Map([[14, 4]]))).toBe(2438);
    expect(percentile75('INP', new Map())).toBeUndefined();
  });

  test('lists every day of the range, zero where nothing was counted', async () => {
    await beacon({ path: '/', width: 1440 });
    const from = utcDay(new Date(Date.now() - 6 * 86_400_000));
    const body = await insights(`from=${from}&to=${today}`);
    expect(body.days).toHaveLength(7);
    expect(body.days.at(-1)).toEqual({ day: today, views: 1, entries: 1 });
    expect(body.days.slice(0, 6).every((d: { views: number }) => d.views === 0)).toBe(true);
    expect(body.referrers).toEqual([{ source: '', views: 1 }]);
  });

  test('answers 401 without a token, 403 to the sales role and 400 for a bad range', async () => {
    expect((await api.call('GET', '/api/insights')).status).toBe(401);
    const sales = { email: 'sales-insight@korvel.example', password: 'a sales engineer reads leads' };
    await api.createAdmin(sales.email, sales.password, 'sales');
    const refused = await api.call('GET', '/api/insights', {
      token: await api.login(sales.email, sales.password),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    for (const query of [
      'from=2026-02-30',
      'from=yesterday',
      'from=2026-11-26&to=2026-11-01',
      'from=2020-01-01&to=2026-11-26',
      'days=7',
    ]) {
      const reply = await api.call('GET', `/api/insights?${query}`, { token });
      expect(reply.status, query).toBe(400);
    }
  });

  test('counts contact messages and meeting requests at the function, and sign-ups and their confirmation', async () => {
    const contact = await api.call('POST', '/api/contact', {
      ip: '203.0.113.90',
      json: {
        fullName: 'Marija Petrović',
        email: 'marija.petrovic@plant.example',
        subject: 'Cleanroom upgrade for a fill-finish line',
        message: 'We are planning to upgrade a Grade B corridor and need a basic design by March.',
        privacy: true,
        fillMs: 42_000,
        source: '/contact',
      },
    });
    expect(contact.status).toBe(201);
    const signUp = await api.call('POST', '/api/newsletter', {
      ip: '203.0.113.91',
      json: { email: 'reader.one@plant.example', consent: true, source: '/blog/gmp' },
    });
    expect(signUp.status).toBe(202);
    await api.settle();
    await runWorker(api.db);
    const confirmMail = mail.catcher
      .messages()
      .find((m) => m.envelope.to.includes('reader.one@plant.example'))!;
    const confirm = linkIn(confirmMail, `${SITE_URL}/newsletter/confirm?token=`);
    expect((await api.call('POST', confirm.slice(SITE_URL.length))).status).toBe(200);
    expect((await insights()).conversions).toEqual({
      contact: 1,
      meeting: 0,
      signup: 1,
      confirmed: 1,
      brochure: 0,
    });
  });
});

describe('newsletter clicks and unsubscribes', () => {
  test('a link in a delivered issue redirects to the article and counts one click for that issue; a changed target is 400', async () => {
    await api.db.query('DELETE FROM outbox');
    await api.db.query('DELETE FROM subscribers');
    await api.db.query(
      `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
       SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
      [['one@list.example', 'two@list.example']],
    );
    const created = await api.call('POST', '/api/campaigns', {
      token,
      json: {
        subject: 'Closed systems in practice',
        markdown: 'Read [the article](/blog/closed-systems) first.',
        articles: ['blog/gmp'],
      },
    });
    const id = created.body.id as number;
    expect((await api.call('POST', `/api/campaigns/${id}/send`, { token })).status).toBe(202);
    await api.settle();
    await runWorker(api.db);
    const copies = mail.catcher.messages().filter((m) => m.subject === 'Closed systems in practice');
    expect(copies).toHaveLength(2);

    const article = `${SITE_URL}/blog/closed-systems`;
    const clickLink = new RegExp(
      `${SITE_URL}/newsletter/click/${id}\\?url=[^&\\s\\]]+&sig=[A-Za-z0-9_-]{22}`,
    );
    const link = clickLink.exec(copies[0]!.text)?.[0] ?? '';
    expect(new URL(link).searchParams.get('url')).toBe(article);
    expect(copies[1]!.text).toContain(link);
    expect(copies[0]!.html).not.toContain(`href="${article}"`);

    const click = await api.call('GET', link.slice(SITE_URL.length), { headers: { 'user-agent': BROWSER } });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe(article);

    const changed = new URL(link);
    changed.searchParams.set('url', 'https://evil.example/phish');
    const tampered = await api.call('GET', `${changed.pathname}${changed.search}`, {
      headers: { 'user-agent': BROWSER },
    });
    expect(tampered.status).toBe(400);
    expect(tampered.headers.get('location')).toBeNull();
    const otherIssue = link.slice(SITE_URL.length).replace(`/click/${id}?`, `/click/${id + 1}?`);
    expect((await api.call('GET', otherIssue, { headers: { 'user-agent': BROWSER } })).status).toBe(400);
    const scanner = await api.call('GET', link.slice(SITE_URL.length), {
      headers: { 'user-agent': 'curl/8.11.1' },
    });
    expect(scanner.status).toBe(302);

    const unsubscribe = linkIn(copies[1]!, `${SITE_URL}/newsletter/unsubscribe?token=`);
    expect((await api.call('POST', unsubscribe.slice(SITE_URL.length))).status).toBe(200);
    // The same link again unsubscribes nobody and counts nothing.
    expect((await api.call('POST', unsubscribe.slice(SITE_URL.length))).status).toBe(410);

    const [issue] = (await insights()).issues;
    expect(issue).toEqual({
      id,
      subject: 'Closed systems in practice',
      sentAt: expect.any(String),
      delivered: 2,
      clicks: 1,
      unsubscribes: 1,
      links: [{ url: article, clicks: 1 }],
    });
    expect((await insights()).subscribers.at(-1)).toMatchObject({ confirmed: 1, unsubscribed: 1 });
    expect(campaignClickSignature(id, article)).toBe(new URL(link).searchParams.get('sig'));
  });
});

describe('retention and personal data', () => {
  test('deletes counters older than 25 months and keeps younger ones', async () => {
    await api.db.query(
      `INSERT INTO insight_page_views (day, path, device, views) VALUES
         ((now() AT TIME ZONE 'UTC')::date - interval '25 months 1 day', '/old', 'desktop', 3),
         ((now() AT TIME ZONE 'UTC')::date - interval '24 months', '/kept', 'desktop', 2)`,
    );
    const report = await applyRetention(api.db);
    expect(report.insightRows).toBe(1);
    const rows = await api.db.query<{ path: string }>('SELECT path FROM insight_page_views');
    expect(rows.map((r) => r.path)).toEqual(['/kept']);
  });

  test('no column of a measurement table is meant for, or holds, an address, a user-agent or an e-mail', async () => {
    const columns = await api.db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name LIKE 'insight%' ORDER BY table_name, ordinal_position`,
    );
    expect(new Set(columns.map((c) => c.table_name))).toEqual(new Set(INSIGHT_TABLES));
    for (const { table_name, column_name, data_type } of columns) {
      expect(column_name, `${table_name}.${column_name}`).not.toMatch(
        /(^|_)(ip|inet|addr|address|agent|ua|email|mail|visitor|user|session|client|subscriber|reader|fingerprint|hash)(_|$)/,
      );
      expect(data_type, `${table_name}.${column_name}`).not.toMatch(/inet|cidr|macaddr/);
    }

    await beacon(
      {
        path: '/contact',
        width: 1440,
        referrer: 'mail.example',
        searches: [{ query: 'ana@plant.example', results: 0 }],
        utm: { source: 'ana@plant.example' },
      },
      { headers: { 'user-agent': BROWSER } },
    );
    const stored = await snapshot();
    expect(stored).toContain('/contact');
    expect(stored).not.toContain(VISITOR_IP);
    expect(stored).not.toContain('Firefox');
    expect(stored).not.toContain('@');
  });
});
