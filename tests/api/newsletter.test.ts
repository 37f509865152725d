import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NEWSLETTER_CONSENT_VERSION } from '../../src/lib/schemas.ts';
import { startApi, type Api } from './support/harness.ts';

const ADMIN = { email: 'editor@korvel.example', password: 'correct horse battery staple' };
let api: Api;
let token: string;

async function subscriberCount(): Promise<number> {
  const [row] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscribers');
  return row!.n;
}

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin(ADMIN.email, ADMIN.password);
  token = await api.login(ADMIN.email, ADMIN.password);
});
afterAll(() => api?.close());

describe('POST /api/newsletter', () => {
  test('answers 202 and stores the address with consent version and source page', async () => {
    const reply = await api.call('POST', '/api/newsletter', {
      json: { email: 'Ivana.Ristic@Plant.example', consent: true, source: '/blog/gmp' },
    });
    expect(reply.status).toBe(202);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    const rows = await api.db.query(
      'SELECT email, consent_version, source_page, status FROM subscribers WHERE lower(email) = $1',
      ['ivana.ristic@plant.example'],
    );
    expect(rows).toEqual([
      {
        email: 'Ivana.Ristic@plant.example',
        consent_version: NEWSLETTER_CONSENT_VERSION,
        source_page: '/blog/gmp',
        status: 'pending',
      },
    ]);
  });

  test('gives a known address, in any letter case, the same reply and no second row', async () => {
    const first = await api.call('POST', '/api/newsletter', {
      json: { email: 'known@plant.example', consent: true, source: '/' },
    });
    const before = await subscriberCount();
    const again = await api.call('POST', '/api/newsletter', {
      json: { email: 'KNOWN@Plant.example', consent: true, source: '/news' },
    });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(await subscriberCount()).toBe(before);
  });

  test('answers a filled honeypot like a sign-up and stores nothing', async () => {
    const before = await subscriberCount();
    const reply = await api.call('POST', '/api/newsletter', {
      json: { email: 'bot@spam.example', consent: true, source: '/', website: 'http://spam.example' },
    });
    expect(reply.status).toBe(202);
    expect(await subscriberCount()).toBe(before);
  });

  test('stores an internationalised domain in its ASCII form', async () => {
    await api.call('POST', '/api/newsletter', {
      json: { email: 'ana@bücher.example', consent: true, source: '/' },
    });
    const rows = await api.db.query('SELECT email FROM subscribers WHERE email = $1', [
      'ana@xn--bcher-kva.example',
    ]);
    expect(rows).toHaveLength(1);
  });

  test('20 parallel sign-ups of one address in different letter case leave exactly one row', async () => {
    const variants = Array.from({ length: 20 }, (_, i) =>
      [...'race.condition@plant.example'].map((c, j) => ((i >> (j % 5)) & 1 ? c.toUpperCase() : c)).join(''),
    );
    const replies = await Promise.all(
      variants.map((email, i) =>
        api.call('POST', '/api/newsletter', {
          json: { email, consent: true, source: '/' },
          ip: `203.0.113.${i + 1}`,
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202));
    const rows = await api.db.query('SELECT id FROM subscribers WHERE lower(email) = $1', [
      'race.condition@plant.example',
    ]);
    expect(rows).toHaveLength(1);
  });
});

describe('GET /api/newsletter', () => {
  test('returns every subscriber as {id, email, created_temp} without paging parameters', async () => {
    await api.db.query(`INSERT INTO subscribers (email, created_at) VALUES ('imported@old.example', NULL)`);
    const reply = await api.call('GET', '/api/newsletter', { token });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const count = await subscriberCount();
    expect(reply.body).toHaveLength(count);
    expect(reply.headers.get('x-total-count')).toBe(String(count));
    for (const subscriber of reply.body) {
      expect(Object.keys(subscriber)).toEqual(['id', 'email', 'created_temp', 'status']);
      expect(typeof subscriber.id).toBe('number');
    }
    const imported = reply.body.find((s: { email: string }) => s.email === 'imported@old.example');
    expect(imported.created_temp).toBeNull();
    const signedUp = reply.body.find((s: { email: string }) => s.email === 'known@plant.example');
    expect(new Date(signedUp.created_temp).toISOString()).toBe(signedUp.created_temp);
  });

  test('pages with page and pageSize and reports the total in X-Total-Count', async () => {
    const total = await subscriberCount();
    const first = await api.call('GET', '/api/newsletter?page=1&pageSize=2', { token });
    const second = await api.call('GET', '/api/newsletter?page=2&pageSize=2', { token });
    expect(first.body).toHaveLength(2);
    expect(second.body).toHaveLength(2);
    expect(first.headers.get('x-total-count')).toBe(String(total));
    expect(second.body[0].id).toBeGreaterThan(first.body[1].id);
    const past = await api.call('GET', '/api/newsletter?page=999&pageSize=50', { token });
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe(String(total));
  });

  test('filters by q (case-insensitive, % and _ literal) and sorts by e-mail', async () => {
    const reply = await api.call('GET', '/api/newsletter?q=PLANT.EX&sort=-email', { token });
    const emails = reply.body.map((s: { email: string }) => s.email);
    expect(emails.length).toBeGreaterThanOrEqual(3);
    expect(emails.every((e: string) => e.toLowerCase().includes('plant.ex'))).toBe(true);
    expect(emails).toEqual([...emails].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
    const literal = await api.call('GET', '/api/newsletter?q=%25', { token });
    expect(literal.body).toEqual([]);
  });
});

describe('DELETE /api/newsletter/{id}', () => {
  test('deletes the row and answers 204, then 404 for the same id', async () => {
    const [row] = await api.db.query<{ id: number }>(
      `INSERT INTO subscribers (email) VALUES ('leaving@plant.example') RETURNING id`,
    );
    const first = await api.call('DELETE', `/api/newsletter/${row!.id}`, { token });
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    const second = await api.call('DELETE', `/api/newsletter/${row!.id}`, { token });
    expect(second.status).toBe(404);
    expect(second.body.error.code).toBe('not_found');
  });

  test('20 parallel deletes of one id give one 204 and nineteen 404s', async () => {
    const [row] = await api.db.query<{ id: number }>(
      `INSERT INTO subscribers (email) VALUES ('contested@plant.example') RETURNING id`,
    );
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api.call('DELETE', `/api/newsletter/${row!.id}`, { token })),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([204, ...Array(19).fill(404)]);
  });
});

describe('sessions', () => {
  test('logout answers 204 and the token stops working; a new login works at once', async () => {
    const session = await api.login(ADMIN.email, ADMIN.password);
    expect((await api.call('GET', '/api/newsletter?page=1&pageSize=1', { token: session })).status).toBe(200);
    expect((await api.call('POST', '/admin/logout', { token: session })).status).toBe(204);
    const reused = await api.call('GET', '/api/newsletter', { token: session });
    expect(reused.status).toBe(401);
    const fresh = await api.login(ADMIN.email, ADMIN.password);
    expect((await api.call('GET', '/api/newsletter?page=1&pageSize=1', { token: fresh })).status).toBe(200);
    token = fresh;
  });

  test('a password change revokes earlier tokens', async () => {
    const before = await api.login(ADMIN.email, ADMIN.password);
    await api.createAdmin(ADMIN.email, `${ADMIN.password}!`);
    expect((await api.call('GET', '/api/newsletter', { token: before })).status).toBe(401);
    token = await api.login(ADMIN.email, `${ADMIN.password}!`);
  });
});

describe('GET /api/inquiries', () => {
  test('lists contact messages and meeting requests, newest first', async () => {
    await api.db.query(
      `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version, created_at)
       VALUES ('contact', 'Mira Lazić', 'mira@plant.example', 'Cleanroom upgrade', 'Grade C to B conversion.', 'privacy-2026-11', now() - interval '1 day')`,
    );
    await api.db.query(
      `INSERT INTO inquiries (kind, full_name, email, meeting_start, meeting_status, privacy_version)
       VALUES ('meeting', 'Luka Babić', 'luka@plant.example', '2026-12-01T09:00:00Z', 'requested', 'privacy-2026-11')`,
    );
    const reply = await api.call('GET', '/api/inquiries', { token });
    expect(reply.status).toBe(200);
    expect(reply.body.map((i: { kind: string }) => i.kind)).toEqual(['meeting', 'contact']);
    expect(reply.body[0]).toMatchObject({
      fullName: 'Luka Babić',
      meetingStart: '2026-12-01T09:00:00.000Z',
      meetingStatus: 'requested',
      mail: [],
    });
    expect(reply.headers.get('x-total-count')).toBe('2');
  });

  test('refuses a request without a token', async () => {
    const reply = await api.call('GET', '/api/inquiries');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('POST /api/newsletter as a plain form (no JavaScript)', () => {
  const form = (fields: Record<string, string>) =>
    api.call('POST', '/api/newsletter', {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: '192.0.2.77',
    });

  test('stores the address and sends the visitor back to the confirmation on the same page', async () => {
    const reply = await form({
      email: 'no-js@plant.example',
      consent: 'on',
      source: '/blog/gmp',
      website: '',
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe('/blog/gmp#newsletter-confirmed');
    const rows = await api.db.query('SELECT email FROM subscribers WHERE email = $1', [
      'no-js@plant.example',
    ]);
    expect(rows).toHaveLength(1);
  });

  test('sends an unticked consent back to the error note and stores nothing', async () => {
    const before = await subscriberCount();
    const reply = await form({ email: 'unticked@plant.example', source: '/news' });
    expect(reply.headers.get('location')).toBe('/news#newsletter-error');
    expect(await subscriberCount()).toBe(before);
  });

  test('never redirects off the site, whatever the source field says', async () => {
    for (const source of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const reply = await form({ email: 'x@plant.example', consent: 'on', source });
      expect(reply.status).toBe(303);
      expect(reply.headers.get('location')).toBe('/#newsletter-error');
    }
  });
});
