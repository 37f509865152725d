/**
 * POST /api/contact (messages and meeting requests), GET /api/meeting-slots and GET /api/meeting.ics:
 * what is stored, what is not, and the bad-input catalogue the newsletter endpoints pass too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CONTACT_LIMITS, PRIVACY_POLICY_VERSION } from '../../src/lib/schemas.ts';
import { MIN_FILL_MS } from '../../src/server/contact.ts';
import { startApi, type Api, type CallOptions } from './support/harness.ts';

const ADMIN = { email: 'inbox@korvel.example', password: 'a careful inbox passphrase' };
let api: Api;
let token: string;
/** Every test speaks from its own address, so the hourly limit only bites where a test means it to. */
let ipCounter = 1;
const nextIp = () => `203.0.113.${ipCounter++}`;

const message = {
  fullName: 'Marija Petrović',
  company: 'Hemofarm Pilot Plant',
  email: 'marija.petrovic@plant.example',
  position: 'Head of Engineering',
  phone: '+381 64 123 4567',
  subject: 'Cleanroom upgrade for a fill-finish line',
  message: 'We are planning to upgrade a Grade B corridor and need a basic design by March.',
  privacy: true,
  fillMs: 42_000,
  source: '/contact',
};

async function inquiryCount(): Promise<number> {
  const [row] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inquiries');
  return row!.n;
}

const post = (json: unknown, options: CallOptions = {}) =>
  api.call('POST', '/api/contact', { json, ip: nextIp(), ...options });

const form = (fields: Record<string, string>, ip = nextIp()) =>
  api.call('POST', '/api/contact', {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ip,
  });

async function freeSlots(): Promise<string[]> {
  const reply = await api.call('GET', '/api/meeting-slots');
  expect(reply.status).toBe(200);
  return reply.body.days.flatMap((day: { slots: { start: string; available: boolean }[] }) =>
    day.slots.filter((s) => s.available).map((s) => s.start),
  );
}

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin(ADMIN.email, ADMIN.password);
  token = await api.login(ADMIN.email, ADMIN.password);
});
afterAll(() => api?.close());

describe('POST /api/contact', () => {
  test('stores a message with the privacy-policy version and answers 201 pointing at /thanks', async () => {
    const before = await inquiryCount();
    const reply = await post(message);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: 'Thank you for getting in touch.', next: '/thanks' });
    expect(await inquiryCount()).toBe(before + 1);
    const [row] = await api.db.query(
      `SELECT kind, full_name, company, email, position, phone, subject, message, privacy_version, source_page,
        meeting_start FROM inquiries ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      kind: 'contact',
      full_name: message.fullName,
      company: message.company,
      email: message.email,
      position: message.position,
      phone: message.phone,
      subject: message.subject,
      message: message.message,
      privacy_version: PRIVACY_POLICY_VERSION,
      source_page: '/contact',
      meeting_start: null,
    });
  });

  test('stores markup as the plain text it is, and the admin reads it back unchanged', async () => {
    const markup = '<img src=x onerror=alert(1)> & <b>bold</b> "quoted"';
    expect((await post({ ...message, subject: markup, message: markup })).status).toBe(201);
    const list = await api.call('GET', '/api/inquiries?page=1&pageSize=1', { token });
    expect(list.body[0].subject).toBe(markup);
    expect(list.body[0].message).toBe(markup);
  });

  test('stores empty optional fields as NULL', async () => {
    const { company: _c, position: _p, ...required } = message;
    expect((await post({ ...required, phone: '' })).status).toBe(201);
    const [row] = await api.db.query(
      'SELECT company, position, phone FROM inquiries ORDER BY id DESC LIMIT 1',
    );
    expect(row).toEqual({ company: null, position: null, phone: null });
  });

  test('answers bots like people and stores nothing: honeypot, too fast, or no fill time', async () => {
    const genuine = await post(message);
    const before = await inquiryCount();
    const bots = [
      { ...message, website: 'https://spam.example' },
      { ...message, fillMs: MIN_FILL_MS - 1 },
      (({ fillMs: _f, ...rest }) => rest)(message),
    ];
    for (const bot of bots) {
      const reply = await post(bot);
      expect(reply.status).toBe(genuine.status);
      expect(reply.text).toBe(genuine.text);
    }
    expect(await inquiryCount()).toBe(before);
  });

  test('names every field that needs attention and stores nothing', async () => {
    const before = await inquiryCount();
    const reply = await post({ email: 'not-an-address', fillMs: 9000 });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_failed');
    expect(Object.keys(reply.body.error.fields).sort()).toEqual(
      ['email', 'fullName', 'message', 'privacy', 'subject'].sort(),
    );
    expect(await inquiryCount()).toBe(before);
  });

  test('limits each network to ten messages an hour', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i += 1) expect((await post(message, { ip })).status).toBe(201);
    const before = await inquiryCount();
    const eleventh = await post(message, { ip });
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await inquiryCount()).toBe(before);
  });
});

describe('POST /api/contact as a plain form (no JavaScript)', () => {
  const fields = {
    kind: 'contact',
    fullName: 'Nikola Jovanović',
    company: '',
    email: 'nikola@plant.example',
    position: '',
    phone: '',
    subject: 'Question about validation support',
    message: 'Can you support a CSV project for a packaging line?',
    privacy: 'on',
    website: '',
    source: '/contact',
  };

  test('stores the message and answers 303 to /thanks', async () => {
    const before = await inquiryCount();
    const reply = await form(fields);
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe('/thanks');
    expect(await inquiryCount()).toBe(before + 1);
  });

  test('sends the visitor back to /contact with the fields to fix, storing nothing', async () => {
    const before = await inquiryCount();
    const { privacy: _p, ...unticked } = fields;
    const reply = await form({ ...unticked, fullName: '', subject: 'Two\r\nlines' });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe(
      `/contact?invalid=${encodeURIComponent('fullName,subject,privacy')}#form-errors`,
    );
    expect(await inquiryCount()).toBe(before);
  });

  test('treats a filled honeypot as success and stores nothing', async () => {
    const before = await inquiryCount();
    const reply = await form({ ...fields, website: 'https://spam.example' });
    expect(reply.headers.get('location')).toBe('/thanks');
    expect(await inquiryCount()).toBe(before);
  });
});

describe('meeting requests', () => {
  const request = (slot: string, extra: Record<string, unknown> = {}) => ({
    kind: 'meeting',
    fullName: 'Stefan Ilić',
    email: 'stefan.ilic@plant.example',
    subject: 'Feasibility of a second API suite',
    slot,
    privacy: true,
    fillMs: 20_000,
    ...extra,
  });

  beforeEach(async () => {
    await api.db.query("DELETE FROM inquiries WHERE kind = 'meeting'");
  });

  test('offer ten working days of 30-minute slots from 09:00 to 16:30 Belgrade time', async () => {
    const reply = await api.call('GET', '/api/meeting-slots');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body.timeZone).toBe('Europe/Belgrade');
    expect(reply.body.minutes).toBe(30);
    expect(reply.body.days).toHaveLength(10);
    for (const day of reply.body.days) expect(day.slots).toHaveLength(15);
  });

  test('store a meeting row, and the slot is not offered again', async () => {
    const [slot] = await freeSlots();
    const reply = await post(request(slot!));
    expect(reply.status).toBe(201);
    expect(reply.body.meetingStart).toBe(slot);
    // The thank-you page gets the slot and the meeting's calendar UID (for its .ics download).
    expect(reply.body.next).toMatch(
      new RegExp(`^/thanks\\?meeting=${encodeURIComponent(slot!)}&uid=[0-9a-f]{8}-[0-9a-f-]{27}$`),
    );
    const rows = await api.db.query<{ kind: string; meeting_start: Date; subject: string }>(
      "SELECT kind, meeting_start, subject FROM inquiries WHERE kind = 'meeting'",
    );
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.meeting_start).toISOString()).toBe(slot);
    expect(await freeSlots()).not.toContain(slot);

    const again = await post(request(slot!, { email: 'someone.else@plant.example' }));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slot_taken');
    expect(again.body.error.fields.slot).toBeTruthy();
  });

  test('two requests for one slot at the same moment store one row', async () => {
    const [slot] = await freeSlots();
    const replies = await Promise.all([post(request(slot!)), post(request(slot!))]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    const [row] = await api.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM inquiries WHERE kind = 'meeting'",
    );
    expect(row!.n).toBe(1);
  });

  test('refuse a time that is not offered', async () => {
    for (const slot of ['2020-01-06T08:00:00.000Z', 'tomorrow at nine', '']) {
      const reply = await post(request(slot));
      expect(reply.status).toBe(400);
      expect(reply.body.error.fields.slot).toBeTruthy();
    }
    const [first] = await freeSlots();
    const offGrid = new Date(Date.parse(first!) + 15 * 60_000).toISOString();
    expect((await post(request(offGrid))).status).toBe(400);
    expect(await inquiryCount()).toBeGreaterThan(0);
    const [row] = await api.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM inquiries WHERE kind = 'meeting'",
    );
    expect(row!.n).toBe(0);
  });

  test('the .ics holds the slot: DTSTART and DTEND 30 minutes later', async () => {
    const reply = await api.call(
      'GET',
      '/api/meeting.ics?start=2026-11-24T08:00:00.000Z&uid=0b6f3c2e-5d1a-4c8e-9f3b-7a2d4e6c8b10',
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(reply.headers.get('content-disposition')).toContain('attachment');
    expect(reply.text).toContain('\r\nDTSTART:20261124T080000Z\r\n');
    expect(reply.text).toContain('\r\nDTEND:20261124T083000Z\r\n');
  });
});

describe('the contact bad-input catalogue', () => {
  const long = (n: number) => 'x'.repeat(n);
  const rows: { name: string; options: CallOptions; status: number; code: string }[] = [
    {
      name: 'malformed JSON',
      options: { body: '{"fullName": "A",', headers: { 'content-type': 'application/json' } },
      status: 400,
      code: 'invalid_json',
    },
    {
      name: 'empty body',
      options: { body: '', headers: { 'content-type': 'application/json' } },
      status: 400,
      code: 'invalid_json',
    },
    { name: 'JSON array', options: { json: [message] }, status: 400, code: 'validation_failed' },
    { name: 'JSON null', options: { json: null }, status: 400, code: 'validation_failed' },
    {
      name: 'wrong content type',
      options: { body: JSON.stringify(message), headers: { 'content-type': 'text/plain' } },
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'charset other than UTF-8',
      options: {
        body: JSON.stringify(message),
        headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      },
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'body over the cap',
      options: { json: { ...message, message: long(30_000) } },
      status: 413,
      code: 'payload_too_large',
    },
    {
      name: 'repeated form field',
      options: {
        body: 'fullName=A&fullName=B',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      status: 400,
      code: 'invalid_form',
    },
    ...(Object.entries(CONTACT_LIMITS) as [keyof typeof CONTACT_LIMITS, number][]).map(([field, max]) => ({
      name: `${field} over ${max} characters`,
      options: { json: { ...message, [field]: field === 'phone' ? `+${'1'.repeat(max)}` : long(max + 1) } },
      status: 400,
      code: 'validation_failed',
    })),
    ...[
      ['e-mail with CR/LF', { email: 'a@plant.example\r\nBcc: victim@plant.example' }],
      ['e-mail with NUL', { email: 'a\u0000@plant.example' }],
      ['name with CR/LF', { fullName: 'Ana\r\nBcc: x' }],
      ['subject with LF', { subject: 'Hello\nBcc: x' }],
      ['message with NUL', { message: 'Hello\u0000there' }],
      ['name as a number', { fullName: 42 }],
      ['message as an object', { message: { text: 'hi' } }],
      ['privacy as a string', { privacy: 'yes' }],
      ['privacy false', { privacy: false }],
      ['fillMs as a string', { fillMs: '5000' }],
      ['negative fillMs', { fillMs: -1 }],
      ['phone with letters', { phone: 'call me maybe' }],
      ['source that is a full URL', { source: 'https://evil.example/' }],
      ['unknown kind', { kind: 'complaint' }],
      ['extra field id', { id: 7 }],
      ['blank name', { fullName: '   ' }],
    ].map(([name, change]) => ({
      name: name as string,
      options: { json: { ...message, ...(change as object) } },
      status: 400,
      code: 'validation_failed',
    })),
    {
      name: 'extra field __proto__',
      options: {
        body: `{"__proto__": {"admin": true}, ${JSON.stringify(message).slice(1)}`,
        headers: { 'content-type': 'application/json' },
      },
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'meeting without a slot',
      options: {
        json: { kind: 'meeting', fullName: 'A', email: 'a@plant.example', subject: 'x', privacy: true },
      },
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'meeting with contact-only fields',
      options: {
        json: {
          kind: 'meeting',
          fullName: 'A',
          email: 'a@plant.example',
          subject: 'x',
          slot: '2030-01-07T08:00:00.000Z',
          privacy: true,
          message: 'hi',
        },
      },
      status: 400,
      code: 'validation_failed',
    },
  ];

  let before: number;
  beforeAll(async () => {
    before = await inquiryCount();
  });

  test.each(rows)('$name → $status $code', async ({ options, status, code }) => {
    const reply = await api.call('POST', '/api/contact', { ip: nextIp(), ...options });
    expect(reply.status).toBe(status);
    expect(reply.body?.error?.code).toBe(code);
    expect(reply.text).not.toMatch(/at \w+ \(|SELECT|INSERT|stack/i);
  });

  test('no row of the catalogue stored anything', async () => {
    expect(await inquiryCount()).toBe(before);
  });

  test.each([
    ['GET', '/api/contact', 'POST'],
    ['PUT', '/api/contact', 'POST'],
    ['POST', '/api/meeting-slots', 'GET, HEAD'],
    ['DELETE', '/api/meeting.ics', 'GET, HEAD'],
  ])('%s %s → 405 with Allow: %s', async (method, path, allow) => {
    const reply = await api.call(method, path);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe(allow);
  });

  test.each([
    '/api/meeting.ics',
    '/api/meeting.ics?start=2026-11-24T08:15:00.000Z',
    '/api/meeting.ics?start=2026-11-24',
    '/api/meeting.ics?start=2026-11-24T08:00:00%2B01:00',
    '/api/meeting.ics?start=2026-11-24T08:00:00Z&x=1',
    '/api/meeting-slots?from=2026-01-01',
  ])('%s → 400', async (path) => {
    const reply = await api.call('GET', path);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_query');
  });
});
