/**
 * Lead mail over real SMTP: what reaches the firm and the visitor for a contact message and a meeting
 * request, the admin's meeting decisions, and the outbox under faults (SMTP down, a permanent refusal,
 * two workers at once, hostile header values).
 */
import { describe, expect, test } from 'vitest';
import { createTransport, processOutbox } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import {
  calendarOf,
  dueNow,
  mailTo,
  NOTIFY_TO,
  runWorker,
  SITE_URL,
  useMailApi,
  type TestMail,
} from './support/mail.ts';

const ADMIN = { email: 'desk@korvel.example', password: 'a long admin passphrase' };
const REFUSED = 'refused@bounce.example';
let api: Api;
let mail: TestMail;
let token: string;
let ip = 1;

const contact = (overrides: Record<string, unknown> = {}) =>
  api.call('POST', '/api/contact', {
    ip: `198.51.100.${ip++}`,
    json: {
      fullName: 'Vesna Ilić',
      company: 'Dunav Biologics',
      email: `vesna.${ip}@dunav.example`,
      position: 'Project manager',
      phone: '+381 21 555 0142',
      subject: 'Buffer preparation area for a mAb plant',
      message: 'We need a basic design for buffer hold tanks.\nCan you quote by January?',
      privacy: true,
      fillMs: 9000,
      source: '/contact',
      ...overrides,
    },
  });

async function freeSlot(index = 0): Promise<string> {
  const reply = await api.call('GET', '/api/meeting-slots');
  const slots = reply.body.days.flatMap((d: { slots: { start: string; available: boolean }[] }) =>
    d.slots.filter((s) => s.available).map((s) => s.start),
  );
  return slots[index];
}

const meeting = (slot: string, email: string) =>
  api.call('POST', '/api/contact', {
    ip: `198.51.100.${ip++}`,
    json: {
      kind: 'meeting',
      fullName: 'Goran Đurić',
      email,
      subject: 'Utilities for a QC lab',
      slot,
      privacy: true,
      fillMs: 8000,
    },
  });

async function outboxOf(inquiryId: number) {
  return api.db.query<{
    template: string;
    status: string;
    attempts: number;
    failure_kind: string | null;
    last_error: string | null;
  }>(
    'SELECT template, status, attempts, failure_kind, last_error FROM outbox WHERE inquiry_id = $1 ORDER BY id',
    [inquiryId],
  );
}

async function lastInquiryId(): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT max(id)::int AS id FROM inquiries');
  return row!.id;
}

useMailApi(
  ADMIN,
  // 554 (5.6.0, the transaction failed): permanent, but about the message, not the recipient, so no bounce.
  { refuse: (rcpt) => (rcpt === REFUSED ? 554 : undefined) },
  (started) => ({ api, mail, token } = started),
);

describe('a contact message', () => {
  test('reaches the firm with every field, Reply-To the visitor, text and HTML', async () => {
    const reply = await contact({ email: 'vesna@dunav.example' });
    expect(reply.status).toBe(201);
    await api.settle();
    const [notice] = mailTo(mail.catcher, NOTIFY_TO);
    expect(notice).toBeDefined();
    expect(notice!.subject).toBe('Inquiry: Buffer preparation area for a mAb plant (Vesna Ilić)');
    expect(notice!.replyTo).toBe('"Vesna Ilić" <vesna@dunav.example>');
    expect(notice!.from).toBe('"Korvel Engineering" <no-reply@korvel.example>');
    expect(notice!.headers['auto-submitted']).toBe('auto-generated');
    for (const value of [
      'Dunav Biologics',
      'Project manager',
      '+381 21 555 0142',
      'buffer hold tanks',
      '/contact',
    ])
      expect(notice!.text).toContain(value);
    expect(notice!.html).toContain('Can you quote by January?');
    expect(notice!.html).toContain(`${SITE_URL}/admin`);
    const id = await lastInquiryId();
    expect(notice!.messageId).toBe(`<contact.${id}.firm@korvel.example>`);
  });

  test('reaches the visitor as an acknowledgement that repeats nothing they typed', async () => {
    await contact({
      email: 'spam-target@victim.example',
      fullName: 'Buy cheap valves at spam.example',
      subject: 'Visit spam.example today',
      message: 'CLICK https://spam.example/offer NOW',
    });
    await api.settle();
    const [ack] = mailTo(mail.catcher, 'spam-target@victim.example');
    expect(ack!.subject).toBe('We have received your message');
    expect(ack!.replyTo).toBe(NOTIFY_TO);
    const id = await lastInquiryId();
    expect(ack!.text).toContain(`#${id}`);
    for (const typed of ['spam.example', 'cheap valves', 'CLICK']) {
      expect(ack!.text).not.toContain(typed);
      expect(ack!.html).not.toContain(typed);
      expect(ack!.subject).not.toContain(typed);
    }
  });

  test('is stored and both mails are queued in one transaction, each sent once', async () => {
    await contact();
    await api.settle();
    const id = await lastInquiryId();
    expect((await outboxOf(id)).map((r) => [r.template, r.status])).toEqual([
      ['contact-notify', 'sent'],
      ['contact-ack', 'sent'],
    ]);
    await runWorker(api.db);
    expect(mail.catcher.messages()).toHaveLength(2);
  });
});

describe('a meeting request', () => {
  test('reaches the firm and the visitor, each with a tentative invitation for the slot', async () => {
    const slot = await freeSlot();
    expect((await meeting(slot, 'goran@qc-lab.example')).status).toBe(201);
    await api.settle();
    const [notice] = mailTo(mail.catcher, NOTIFY_TO);
    const [ack] = mailTo(mail.catcher, 'goran@qc-lab.example');
    expect(notice!.subject).toMatch(/^Meeting request: \w+ \d{1,2} \w+ 20\d\d, \d\d:\d\d \(Goran Đurić\)$/);
    expect(notice!.replyTo).toBe('"Goran Đurić" <goran@qc-lab.example>');
    // The firm's copy invites its meetings address to the same event the visitor holds.
    expect(calendarOf(notice!)).toMatchObject({ method: 'REQUEST', status: 'TENTATIVE', start: slot });
    expect(calendarOf(notice!).uid).toBe(calendarOf(ack!).uid);

    expect(ack!.text).toContain('Belgrade time');
    expect(ack!.text).not.toContain('Utilities for a QC lab');
    const event = calendarOf(ack!);
    expect(event.contentType).toMatch(/^text\/calendar/);
    expect(event).toMatchObject({ method: 'REQUEST', status: 'TENTATIVE', sequence: 0, start: slot });
    expect(new Date(event.end).getTime() - new Date(slot).getTime()).toBe(30 * 60_000);
    expect(event.attendees).toEqual([`mailto:${NOTIFY_TO}`, 'mailto:goran@qc-lab.example']);
  });

  test('confirmed in the admin: the visitor gets the call link and a CONFIRMED update of the same event', async () => {
    const slot = await freeSlot();
    await meeting(slot, 'ana@vaccines.example');
    await api.settle();
    const tentative = calendarOf(mailTo(mail.catcher, 'ana@vaccines.example')[0]!);
    const id = await lastInquiryId();
    const callLink = 'https://meet.korvel.example/r/4821-qc';
    const reply = await api.call('POST', `/api/inquiries/${id}/meeting`, {
      token,
      json: { decision: 'confirm', callLink },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ meetingStatus: 'confirmed', callLink });
    await api.settle();
    const confirmation = mailTo(mail.catcher, 'ana@vaccines.example')[1]!;
    expect(confirmation.subject).toMatch(/^Confirmed: our meeting on /);
    expect(confirmation.text).toContain(callLink);
    const event = calendarOf(confirmation);
    expect(event).toMatchObject({
      method: 'REQUEST',
      status: 'CONFIRMED',
      uid: tentative.uid,
      url: callLink,
    });
    expect(event.sequence).toBeGreaterThan(tentative.sequence);

    const twice = await api.call('POST', `/api/inquiries/${id}/meeting`, {
      token,
      json: { decision: 'confirm', callLink },
    });
    expect(twice.status).toBe(409);
  });

  test('declined in the admin: the visitor gets the note and a link to pick again, and the slot is free', async () => {
    const slot = await freeSlot();
    await meeting(slot, 'dejan@refinery.example');
    await api.settle();
    const id = await lastInquiryId();
    const note = 'Our process team is on site that week.\nAny time from the following Monday suits us.';
    const reply = await api.call('POST', `/api/inquiries/${id}/meeting`, {
      token,
      json: { decision: 'decline', note },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.meetingStatus).toBe('declined');
    await api.settle();
    const decline = mailTo(mail.catcher, 'dejan@refinery.example')[1]!;
    expect(decline.text).toContain('Any time from the following Monday suits us.');
    expect(decline.text).toContain(`${SITE_URL}/contact#book-a-meeting`);
    expect(calendarOf(decline)).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', sequence: 1 });

    expect(await freeSlot()).toBe(slot);
    expect((await meeting(slot, 'someone.else@plant.example')).status).toBe(201);
  });

  test('decisions refuse bad bodies, other kinds and unknown ids', async () => {
    await contact();
    const contactId = await lastInquiryId();
    const call = (id: number | string, json: unknown) =>
      api.call('POST', `/api/inquiries/${id}/meeting`, { token, json });
    expect((await call(contactId, { decision: 'confirm', callLink: 'https://meet.example/x' })).status).toBe(
      409,
    );
    expect((await call(999_999, { decision: 'decline', note: 'No.' })).status).toBe(404);
    expect((await call(contactId, { decision: 'confirm', callLink: 'javascript:alert(1)' })).status).toBe(
      400,
    );
    expect(
      (await call(contactId, { decision: 'confirm', callLink: 'https://a.example/\r\nBcc: x@y' })).status,
    ).toBe(400);
    expect((await call(contactId, { decision: 'decline', note: '' })).status).toBe(400);
    expect((await call(contactId, { decision: 'maybe' })).status).toBe(400);
    expect((await call('abc', { decision: 'decline', note: 'x' })).status).toBe(400);
    expect(
      (
        await api.call('POST', `/api/inquiries/${contactId}/meeting`, {
          json: { decision: 'decline', note: 'x' },
        })
      ).status,
    ).toBe(401);
  });
});

describe('the outbox', () => {
  test('keeps mail while SMTP is down and delivers each exactly once when it is back', async () => {
    await mail.catcher.stopSmtp();
    try {
      const replies = [await contact(), await contact(), await contact()];
      expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
      await api.settle();
      await runWorker(api.db);
      const waiting = await api.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox WHERE status = 'pending' AND failure_kind = 'connection'`,
      );
      expect(waiting[0]!.n).toBe(6);
      const health = await api.call('GET', '/api/health');
      expect(health.body.outbox.pending).toBe(6);
    } finally {
      await mail.catcher.startSmtp();
    }
    // The backoff has not run out, yet the first worker run after the outage sends everything.
    await runWorker(api.db);
    await runWorker(api.db);
    const ids = mail.catcher.messages().map((m) => m.messageId);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  test('marks a permanently refused mail failed after its retries, shows it to the admin, and retries on request', async () => {
    await contact({ email: REFUSED });
    await api.settle();
    const id = await lastInquiryId();
    for (let i = 0; i < 3; i += 1) {
      await dueNow(api.db);
      await runWorker(api.db);
    }
    const rows = await outboxOf(id);
    expect(rows[1]).toMatchObject({
      template: 'contact-ack',
      status: 'failed',
      attempts: 3,
      failure_kind: 'permanent',
    });
    expect(rows[1]!.last_error).toMatch(/^554 5\.6\.0 /);
    expect(rows[0]!.status).toBe('sent');

    const list = await api.call('GET', '/api/inquiries?page=1&pageSize=25', { token });
    const listed = list.body.find((i: { id: number }) => i.id === id);
    expect(listed.mail.map((m: { status: string }) => m.status)).toEqual(['sent', 'failed']);
    expect(listed.mail[1].lastError).toMatch(/554/);

    const failedId = listed.mail[1].id;
    const retry = await api.call('POST', `/api/mail/${failedId}/retry`, { token });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await api.call('POST', `/api/mail/${listed.mail[0].id}/retry`, { token })).status).toBe(409);
    expect((await api.call('POST', '/api/mail/999999/retry', { token })).status).toBe(404);
    expect((await api.call('POST', `/api/mail/${failedId}/retry`)).status).toBe(401);
  });

  test('two workers running at once send every mail exactly once', async () => {
    for (let i = 0; i < 12; i += 1) {
      await api.db.query(
        `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
         VALUES ('contact', 'Batch sender', $1, 'Batch', 'Batch message', 'privacy-2026-11')`,
        [`batch${i}@plant.example`],
      );
    }
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, inquiry_id)
       SELECT 'batch-ack:' || id, 'contact-ack', email, id FROM inquiries WHERE full_name = 'Batch sender'`,
    );
    const [a, b] = [createTransport(process.env.SMTP_URL!), createTransport(process.env.SMTP_URL!)];
    try {
      const reports = await Promise.all([
        processOutbox(api.db, { transport: a, batchSize: 3 }),
        processOutbox(api.db, { transport: b, batchSize: 3 }),
      ]);
      expect(reports[0]!.sent + reports[1]!.sent).toBe(12);
    } finally {
      a.close();
      b.close();
    }
    const ids = mail.catcher.messages().map((m) => m.messageId);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  test('a CR/LF or an overlong value stored in a field never becomes a header of its own', async () => {
    const [{ id }] = (await api.db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
       VALUES ('contact', E'Eve\\r\\nBcc: victim@elsewhere.example', 'eve@plant.example',
               E'Hello\\r\\nX-Injected: yes\\n' || repeat('long ', 34), 'Body', 'privacy-2026-11') RETURNING id`,
    )) as [{ id: number }];
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, inquiry_id) VALUES ($1, 'contact-notify', $2, $3)`,
      [`crlf:${id}`, NOTIFY_TO, id],
    );
    await runWorker(api.db);
    const [notice] = mailTo(mail.catcher, NOTIFY_TO);
    expect(notice!.envelope.to).toEqual([NOTIFY_TO]);
    expect(notice!.headers['x-injected']).toBeUndefined();
    expect(notice!.headers.bcc).toBeUndefined();
    expect(notice!.subject).not.toMatch(/[\r\n]/);
    expect(notice!.subject).toMatch(
      /^Inquiry: Hello X-Injected: yes long .*… \(Eve Bcc: victim@elsewhere\.example\)$/,
    );
    expect(notice!.replyTo).toBe('"Eve Bcc: victim@elsewhere.example" <eve@plant.example>');
  });

  test('a quote or backslash in a name stays in Reply-To, quoted by nodemailer', async () => {
    const [{ id }] = (await api.db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
       VALUES ('contact', $1, 'eve@plant.example', 'Quotes', 'Body', 'privacy-2026-11') RETURNING id`,
      ['Eve "the boss" \\ O\'Brien'],
    )) as [{ id: number }];
    await api.db.query(
      `INSERT INTO outbox (idempotency_key, template, recipient, inquiry_id) VALUES ($1, 'contact-notify', $2, $3)`,
      [`quotes:${id}`, NOTIFY_TO, id],
    );
    await runWorker(api.db);
    const notice = mailTo(mail.catcher, NOTIFY_TO).find((m) => m.subject.startsWith('Inquiry: Quotes'));
    expect(notice!.replyTo).toBe('"Eve \\"the boss\\" \\\\ O\'Brien" <eve@plant.example>');
  });

  test('health reports that mail is configured and how much waits, and no secret', async () => {
    const reply = await api.call('GET', '/api/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, mail: 'configured' });
    expect(reply.body.outbox).toEqual({
      pending: expect.any(Number),
      failed: expect.any(Number),
      oldestPendingSeconds: expect.any(Number),
    });
    expect(reply.text).not.toContain(process.env.SMTP_URL!);
  });
});

describe('without SMTP_URL', () => {
  test('requests still succeed, mail waits in the outbox and health says "unconfigured"', async () => {
    const smtpUrl = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    try {
      expect((await contact()).status).toBe(201);
      await api.settle();
      const rows = await outboxOf(await lastInquiryId());
      expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
      expect((await runWorker(api.db)).configured).toBe(false);
      const health = await api.call('GET', '/api/health');
      expect(health.body.mail).toBe('unconfigured');
      expect(health.body.outbox.pending).toBeGreaterThanOrEqual(2);
    } finally {
      process.env.SMTP_URL = smtpUrl;
    }
    await runWorker(api.db);
    expect(mail.catcher.messages()).toHaveLength(2);
  });
});
