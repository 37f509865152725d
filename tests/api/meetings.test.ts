/**
 * Meetings that stay right in every calendar: every invitation the flow sends, read from the real SMTP catcher
 * and parsed by ical.js — one UID per meeting request with strictly rising SEQUENCE, the firm's calendar told
 * of every change, and the visitor's signed links to cancel or move the meeting (GET changes nothing).
 */
import ICAL from 'ical.js';
import { describe, expect, test } from 'vitest';
import type { CaughtMail } from '../../scripts/lib/mail-catcher.ts';
import { signMeetingLinkToken, addressTag } from '../../src/server/mail/links.ts';
import { type Api } from './support/harness.ts';
import { linkIn, mailTo, NOTIFY_TO, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'meetings-desk@korvel.example', password: 'a long admin passphrase' };
let api: Api;
let mail: TestMail;
let token: string;
let ip = 1;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

/** Everything a calendar reads from one invitation, parsed by ical.js. */
function invitation(message: CaughtMail) {
  const files = message.attachments.filter((a) => a.contentType.startsWith('text/calendar'));
  expect(files, `one calendar file in "${message.subject}"`).toHaveLength(1);
  const calendar = new ICAL.Component(ICAL.parse(files[0]!.content));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const event = events[0]!;
  const time = (name: string) => event.getFirstPropertyValue(name) as ICAL.Time;
  for (const name of ['dtstart', 'dtend', 'dtstamp']) {
    // UTC, never floating: ical.js reads a trailing Z as the UTC zone.
    expect(time(name).zone?.tzid, `${name} in UTC`).toBe('UTC');
  }
  const attendees = event.getAllProperties('attendee').map((p) => ({
    address: String(p.getFirstValue()).toLowerCase(),
    role: p.getParameter('role'),
  }));
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    status: String(event.getFirstPropertyValue('status')),
    start: time('dtstart').toJSDate().toISOString(),
    end: time('dtend').toJSDate().toISOString(),
    stamp: time('dtstamp').toJSDate().getTime(),
    organizer: String(event.getFirstPropertyValue('organizer')).toLowerCase(),
    attendees,
  };
}

async function freeSlots(): Promise<string[]> {
  const reply = await api.call('GET', '/api/meeting-slots');
  return reply.body.days.flatMap((d: { slots: { start: string; available: boolean }[] }) =>
    d.slots.filter((s) => s.available).map((s) => s.start),
  );
}

const book = (slot: string, email: string, extra: Record<string, unknown> = {}) =>
  api.call('POST', '/api/contact', {
    ip: `203.0.113.${ip++}`,
    json: {
      kind: 'meeting',
      fullName: 'Ana Kovač',
      company: 'Sava Vaccines',
      email,
      subject: 'Fill-finish line layout',
      slot,
      privacy: true,
      fillMs: 8000,
      ...extra,
    },
  });

async function idOf(email: string): Promise<number> {
  const [row] = await api.db.query<{ id: number }>(
    'SELECT max(id)::int AS id FROM inquiries WHERE email = $1',
    [email],
  );
  return row!.id;
}

const decide = (id: number, json: unknown) =>
  api.call('POST', `/api/inquiries/${id}/meeting`, { token, json });

/** A plain HTML form post, as the link pages send it without JavaScript. */
const post = (path: string, fields: Record<string, string> = {}) =>
  api.call('POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** The path of a link in a mail, e.g. `/meeting/cancel?token=…`. */
const pathOf = (message: CaughtMail, kind: 'cancel' | 'reschedule') =>
  linkIn(message, `${SITE_URL}/meeting/${kind}?token=`).slice(SITE_URL.length);

const meetingRow = async (id: number) =>
  (
    await api.db.query<{ meeting_status: string; meeting_start: Date; meeting_sequence: number }>(
      'SELECT meeting_status, meeting_start, meeting_sequence FROM inquiries WHERE id = $1',
      [id],
    )
  )[0]!;

/** Settles the request's mail and returns what reached the firm and `visitor` since `before` messages. */
async function newMail(visitor: string, seen: { firm: number; visitor: number }) {
  await api.settle();
  const firm = mailTo(mail.catcher, NOTIFY_TO).slice(seen.firm);
  const theirs = mailTo(mail.catcher, visitor).slice(seen.visitor);
  seen.firm += firm.length;
  seen.visitor += theirs.length;
  return { firm, visitor: theirs };
}

describe('one identity per meeting', () => {
  test('every message to both sides shares the UID, with strictly rising SEQUENCE and fresh DTSTAMP', async () => {
    const visitor = 'ana@sava-vaccines.example';
    const [slot, later] = await freeSlots();
    const seen = { firm: 0, visitor: 0 };
    const sent: ReturnType<typeof invitation>[] = [];
    const expectPair = async (
      expected: { method: string; status: string; start: string; sequence: number },
      since: number,
    ) => {
      const { firm, visitor: theirs } = await newMail(visitor, seen);
      expect(firm).toHaveLength(1);
      expect(theirs).toHaveLength(1);
      for (const message of [firm[0]!, theirs[0]!]) {
        const event = invitation(message);
        expect(event).toMatchObject(expected);
        expect(new Date(event.end).getTime() - new Date(event.start).getTime()).toBe(30 * 60_000);
        expect(event.organizer).toBe(`mailto:${NOTIFY_TO}`);
        expect(event.attendees).toEqual(
          expect.arrayContaining([
            { address: `mailto:${NOTIFY_TO}`, role: 'CHAIR' },
            { address: `mailto:${visitor}`, role: 'REQ-PARTICIPANT' },
          ]),
        );
        expect(event.stamp).toBeGreaterThanOrEqual(Math.floor(since / 1000) * 1000);
        sent.push(event);
      }
      return { firm: firm[0]!, visitor: theirs[0]! };
    };

    let since = Date.now();
    expect((await book(slot!, visitor)).status).toBe(201);
    const requested = await expectPair(
      { method: 'REQUEST', status: 'TENTATIVE', start: slot!, sequence: 0 },
      since,
    );
    const id = await idOf(visitor);

    since = Date.now();
    expect(
      (await decide(id, { decision: 'confirm', callLink: 'https://meet.korvel.example/r/77' })).status,
    ).toBe(200);
    const confirmed = await expectPair(
      { method: 'REQUEST', status: 'CONFIRMED', start: slot!, sequence: 1 },
      since,
    );
    expect(confirmed.firm.subject).toMatch(/^Confirmed: meeting on /);

    since = Date.now();
    const move = await post(pathOf(confirmed.visitor, 'reschedule'), { slot: later! });
    expect(move.status).toBe(200);
    await expectPair({ method: 'REQUEST', status: 'TENTATIVE', start: later!, sequence: 2 }, since);

    since = Date.now();
    const moved = mailTo(mail.catcher, visitor).at(-1)!;
    expect((await post(pathOf(moved, 'cancel'))).status).toBe(200);
    await expectPair({ method: 'CANCEL', status: 'CANCELLED', start: later!, sequence: 3 }, since);

    expect(new Set(sent.map((e) => e.uid)).size).toBe(1);
    expect(sent[0]!.uid).toMatch(/^[0-9a-f-]{36}@www\.korvel\.example$/);
    expect(sent[0]!.uid).not.toContain(slot!.slice(0, 10).replaceAll('-', ''));
    const sequences = sent.map((e) => e.sequence);
    expect(sequences).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    // The firm's and the visitor's copy of one change are stamped as each is written, in either order; a later
    // change is never stamped before an earlier one.
    const pair = (i: number) => [sent[i]!.stamp, sent[i + 1]!.stamp];
    for (let i = 2; i < sent.length; i += 2)
      expect(Math.min(...pair(i))).toBeGreaterThanOrEqual(Math.max(...pair(i - 2)));
    expect(requested.visitor.subject).toMatch(/^Your meeting request for /);

    const history = (await api.call('GET', '/api/inquiries', { token })).body.find(
      (i: { id: number }) => i.id === id,
    ).meetingHistory;
    expect(history.map((h: { change: string }) => h.change)).toEqual([
      'requested',
      'confirmed',
      'rescheduled',
      'cancelled',
    ]);
    expect(history[2]).toMatchObject({ from: slot, start: later });
    for (const entry of history) expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
  });

  test('a slot declined and booked again: two meetings, two UIDs, and the firm gets a CANCEL for the first', async () => {
    const [slot] = await freeSlots();
    await book(slot!, 'ana@first.example');
    await api.settle();
    const first = invitation(mailTo(mail.catcher, 'ana@first.example')[0]!);
    const firmFirst = invitation(mailTo(mail.catcher, NOTIFY_TO)[0]!);
    expect(firmFirst.uid).toBe(first.uid);

    const note = 'Our process team is on site that week.';
    expect((await decide(await idOf('ana@first.example'), { decision: 'decline', note })).status).toBe(200);
    await api.settle();
    const firmCancel = invitation(mailTo(mail.catcher, NOTIFY_TO)[1]!);
    expect(firmCancel).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', uid: first.uid, sequence: 1 });
    const declined = mailTo(mail.catcher, 'ana@first.example')[1]!;
    expect(declined.text).toContain(note);
    expect(invitation(declined)).toMatchObject({ method: 'CANCEL', uid: first.uid, sequence: 1 });

    expect(await freeSlots()).toContain(slot);
    expect((await book(slot!, 'bo@second.example')).status).toBe(201);
    await api.settle();
    const second = invitation(mailTo(mail.catcher, 'bo@second.example')[0]!);
    const firmSecond = invitation(mailTo(mail.catcher, NOTIFY_TO)[2]!);
    expect(second).toMatchObject({ method: 'REQUEST', status: 'TENTATIVE', start: slot, sequence: 0 });
    expect(second.uid).not.toBe(first.uid);
    expect(firmSecond.uid).toBe(second.uid);
  });

  test('the thank-you page’s calendar file carries the meeting’s UID', async () => {
    const [slot] = await freeSlots();
    const reply = await book(slot!, 'file@download.example');
    await api.settle();
    const next = new URL(reply.body.next, SITE_URL);
    expect(next.pathname).toBe('/thanks');
    const ics = await api.call(
      'GET',
      `/api/meeting.ics?start=${encodeURIComponent(slot!)}&uid=${next.searchParams.get('uid')}`,
    );
    expect(ics.status).toBe(200);
    const file = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
    expect(String(file.getFirstPropertyValue('uid'))).toBe(
      invitation(mailTo(mail.catcher, 'file@download.example')[0]!).uid,
    );
    expect((await api.call('GET', `/api/meeting.ics?start=${encodeURIComponent(slot!)}`)).status).toBe(400);
    expect(
      (await api.call('GET', `/api/meeting.ics?start=${encodeURIComponent(slot!)}&uid=meeting-1`)).status,
    ).toBe(400);
  });
});

/** The activity log's entries about inquiry `id`: the visitor's own changes are recorded without an actor. */
const activityOf = (id: number) =>
  api.db.query<{ action: string; actor_id: number | null }>(
    `SELECT action, actor_id FROM activity_log WHERE target = $1 OR target LIKE $2 ORDER BY id`,
    [`inquiry ${id}`, `inquiry ${id}: %`],
  );

describe('the visitor’s links', () => {
  test('cancel: the GET page changes nothing, the POST frees the slot and sends the firm a CANCEL', async () => {
    const visitor = 'cancel@plant.example';
    const [slot] = await freeSlots();
    await book(slot!, visitor);
    await api.settle();
    const id = await idOf(visitor);
    const ack = mailTo(mail.catcher, visitor)[0]!;
    expect(ack.text).toContain('Cancel this meeting');
    expect(ack.text).toContain('Choose another time');
    const path = pathOf(ack, 'cancel');

    for (const method of ['GET', 'HEAD', 'GET']) {
      const page = await api.call(method, path);
      expect(page.status).toBe(200);
    }
    const page = await api.call('GET', path);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Cancel your meeting?');
    expect(page.text).toMatch(/<form action="[^"]+" method="post">/);
    expect(page.text).toContain(`action="${path}"`);
    expect(await meetingRow(id)).toMatchObject({ meeting_status: 'requested', meeting_sequence: 0 });
    expect(await freeSlots()).not.toContain(slot);
    expect(mailTo(mail.catcher, NOTIFY_TO)).toHaveLength(1);

    const done = await post(path);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your meeting is cancelled');
    await api.settle();
    expect(await meetingRow(id)).toMatchObject({ meeting_status: 'cancelled', meeting_sequence: 1 });
    expect(await freeSlots()).toContain(slot);
    const firm = mailTo(mail.catcher, NOTIFY_TO)[1]!;
    expect(firm.subject).toMatch(/^Cancelled by the visitor: /);
    expect(invitation(firm)).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', sequence: 1 });
    const theirs = mailTo(mail.catcher, visitor)[1]!;
    expect(theirs.subject).toMatch(/^Cancelled: your meeting on /);
    expect(invitation(theirs)).toMatchObject({ method: 'CANCEL', sequence: 1 });

    // Used: the same link, and the reschedule link of the same mail, now answer with a page and change nothing.
    for (const used of [await post(path), await api.call('GET', path)]) {
      expect(used.status).toBe(410);
      expect(used.text).toContain('This meeting is already cancelled');
    }
    expect((await api.call('GET', pathOf(ack, 'reschedule'))).status).toBe(410);
    await api.settle();
    expect(mailTo(mail.catcher, NOTIFY_TO)).toHaveLength(2);
    expect(await activityOf(id)).toEqual([{ action: 'meeting.cancelled_by_visitor', actor_id: null }]);
  });

  test('reschedule: the GET lists free times and changes nothing; the POST moves the meeting for both sides', async () => {
    const visitor = 'move@plant.example';
    const [slot, , target] = await freeSlots();
    await book(slot!, visitor, { timeZone: 'America/New_York' });
    await api.settle();
    const id = await idOf(visitor);
    const ack = mailTo(mail.catcher, visitor)[0]!;
    const path = pathOf(ack, 'reschedule');

    const page = await api.call('GET', path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose another time');
    expect(page.text).toContain(`value="${target}"`);
    expect(page.text).not.toContain(`value="${slot}"`);
    expect(page.text).toContain('your time');
    expect(await meetingRow(id)).toMatchObject({ meeting_status: 'requested', meeting_sequence: 0 });

    const moved = await post(path, { slot: target! });
    expect(moved.status).toBe(200);
    expect(moved.text).toContain('Your meeting has been moved');
    await api.settle();
    const row = await meetingRow(id);
    expect(row).toMatchObject({ meeting_status: 'requested', meeting_sequence: 1 });
    expect(new Date(row.meeting_start).toISOString()).toBe(target);
    const free = await freeSlots();
    expect(free).toContain(slot);
    expect(free).not.toContain(target);

    const firm = mailTo(mail.catcher, NOTIFY_TO)[1]!;
    expect(firm.subject).toMatch(/^Moved by the visitor: /);
    expect(invitation(firm)).toMatchObject({ method: 'REQUEST', start: target, sequence: 1 });
    const theirs = mailTo(mail.catcher, visitor)[1]!;
    expect(theirs.subject).toMatch(/^Your meeting is moved to /);
    expect(invitation(theirs)).toMatchObject({ method: 'REQUEST', start: target, sequence: 1 });

    // The first mail's links are used up by the move; the new mail's links work.
    const old = await post(path, { slot: slot! });
    expect(old.status).toBe(409);
    expect(old.text).toContain('This link has been used');
    expect((await api.call('GET', pathOf(ack, 'cancel'))).status).toBe(409);
    expect((await api.call('GET', pathOf(theirs, 'cancel'))).status).toBe(200);
    expect(await activityOf(id)).toEqual([{ action: 'meeting.rescheduled', actor_id: null }]);
  });

  test('a time taken meanwhile or not offered shows the times again and changes nothing', async () => {
    const visitor = 'busy@plant.example';
    const [slot, other] = await freeSlots();
    await book(slot!, visitor);
    await book(other!, 'someone@else.example');
    await api.settle();
    const id = await idOf(visitor);
    const path = pathOf(mailTo(mail.catcher, visitor)[0]!, 'reschedule');
    const taken = await post(path, { slot: other! });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('That time has just been taken');
    expect(taken.text).toContain('type="radio"');
    const cases: [Record<string, string>, number, string][] = [
      [{}, 400, 'Pick one of the free times'],
      [{ slot: 'tomorrow' }, 400, 'Pick one of the free times'],
      [{ slot: '2020-01-06T08:00:00.000Z' }, 400, 'Pick one of the free times'],
      [{ slot: slot! }, 409, 'That time has just been taken'],
    ];
    for (const [fields, status, text] of cases) {
      const reply = await post(path, fields);
      expect(reply.status, JSON.stringify(fields)).toBe(status);
      expect(reply.text).toContain(text);
    }
    const extra = await post(path, { slot: other!, note: 'x' });
    expect(extra.status).toBe(400);
    const json = await api.call('POST', path, { json: { slot: other } });
    expect(json.status).toBe(400);
    expect(await meetingRow(id)).toMatchObject({ meeting_status: 'requested', meeting_sequence: 0 });
  });

  test('tampered, wrong-purpose, expired, declined and past links answer with a page and change nothing', async () => {
    const visitor = 'links@plant.example';
    const [slot] = await freeSlots();
    await book(slot!, visitor);
    await api.settle();
    const id = await idOf(visitor);
    const ack = mailTo(mail.catcher, visitor)[0]!;
    const cancel = pathOf(ack, 'cancel');
    const cancelToken = cancel.split('token=')[1]!;
    const tampered = `${cancelToken.slice(0, -3)}${cancelToken.endsWith('AAA') ? 'BBB' : 'AAA'}`;

    for (const path of [
      `/meeting/cancel?token=${tampered}`,
      `/meeting/reschedule?token=${cancelToken}`,
      `/meeting/cancel?token=${cancelToken}&extra=1`,
      '/meeting/cancel',
      '/meeting/cancel?token=not-a-token',
    ]) {
      for (const reply of [await api.call('GET', path), await post(path)]) {
        expect(reply.status, path).toBe(400);
        expect(reply.text).toContain('This link is not valid');
      }
    }

    const expired = await signMeetingLinkToken(
      'cancel',
      { inquiryId: id, tag: addressTag(visitor), moves: 0 },
      new Date(Date.now() - 60_000),
      new Date(Date.now() - 3_600_000),
    );
    const gone = await post(`/meeting/cancel?token=${expired}`);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('This meeting has already started');

    // A meeting that has started, though its link has not yet expired.
    await api.db.query(`UPDATE inquiries SET meeting_start = now() - interval '5 minutes' WHERE id = $1`, [
      id,
    ]);
    const started = await post(cancel);
    expect(started.status).toBe(410);
    expect(started.text).toContain('This meeting has already started');
    await api.db.query('UPDATE inquiries SET meeting_start = $2 WHERE id = $1', [id, slot]);

    expect((await decide(id, { decision: 'decline', note: 'Away that week.' })).status).toBe(200);
    for (const path of [cancel, pathOf(ack, 'reschedule')]) {
      const declined = await api.call('GET', path);
      expect(declined.status).toBe(410);
      expect(declined.text).toContain('This meeting was declined');
    }
    expect(await meetingRow(id)).toMatchObject({ meeting_status: 'declined', meeting_sequence: 1 });
    expect((await api.call('PUT', cancel)).status).toBe(405);
  });
});

describe('times people read correctly', () => {
  test('mail names the visitor’s own time beside Belgrade’s when their zone reads differently', async () => {
    const [slot, second] = await freeSlots();
    await book(slot!, 'tokyo@plant.example', { timeZone: 'Asia/Tokyo' });
    await book(second!, 'belgrade@plant.example', { timeZone: 'Europe/Budapest' });
    await api.settle();
    const tokyo = mailTo(mail.catcher, 'tokyo@plant.example')[0]!;
    expect(tokyo.text).toContain('Belgrade time');
    expect(tokyo.text).toMatch(/\d\d:\d\d–\d\d:\d\d your time \(Asia\/Tokyo, GMT\+9\)/);
    const firm = mailTo(mail.catcher, NOTIFY_TO).find((m) => m.text.includes('tokyo@plant.example'))!;
    expect(firm.text).toContain("in the visitor's time zone (Asia/Tokyo");
    const same = mailTo(mail.catcher, 'belgrade@plant.example')[0]!;
    expect(same.text).not.toContain('your time');
  });

  test('a time zone that is not an IANA name is refused and nothing is stored', async () => {
    const [slot] = await freeSlots();
    for (const timeZone of ['Mars/Olympus_Mons', '+01:00', 'Europe/../etc', '', 42, 'A'.repeat(80)]) {
      const reply = await book(slot!, 'zone@plant.example', { timeZone });
      expect(reply.status, String(timeZone)).toBe(400);
      expect(reply.body.error.fields).toHaveProperty('timeZone');
    }
    expect(
      await api.db.query('SELECT 1 FROM inquiries WHERE email = $1', ['zone@plant.example']),
    ).toHaveLength(0);
  });
});
