/**
 * German as a stored language (issue 25), through real HTTP, a real SMTP catcher (mailparser) and ical.js:
 * the language of the page a visitor signs up, writes or books on is stored with them; their mail, its
 * calendar file and the pages behind its links are in that language and link to `/de` pages; the firm's own
 * notifications stay English; an issue reaches the confirmed subscribers of its own language only; and a
 * language the site does not have is a 400 that stores nothing.
 */
import ICAL from 'ical.js';
import { beforeEach, describe, expect, test } from 'vitest';
import type { CaughtMail } from '../../scripts/lib/mail-catcher.ts';
import { loadMigrations, migrate } from '../../src/server/migrate.ts';
import { openTestDb, type Api } from './support/harness.ts';
import { linkIn, mailTo, NOTIFY_TO, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'editor@korvel.example', password: 'language editor passphrase' };
let api: Api;
let mail: TestMail;
let token: string;
let ip = 1;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

const nextIp = () => `198.51.100.${ip++}`;

const signUp = (json: Record<string, unknown>) =>
  api.call('POST', '/api/newsletter', { ip: nextIp(), json: { consent: true, source: '/de', ...json } });

const message = (json: Record<string, unknown>) =>
  api.call('POST', '/api/contact', {
    ip: nextIp(),
    json: {
      kind: 'contact',
      fullName: 'Jana Weber',
      company: 'Rheintal Pharma GmbH',
      email: 'jana@rheintal.example',
      subject: 'Reinraumklasse B für eine Abfüllung',
      message: 'Wir planen eine aseptische Abfüllung und suchen Unterstützung bei der Qualifizierung.',
      privacy: true,
      fillMs: 9000,
      source: '/de/contact',
      ...json,
    },
  });

async function freeSlot(): Promise<string> {
  const reply = await api.call('GET', '/api/meeting-slots');
  const days = reply.body.days as { slots: { start: string; available: boolean }[] }[];
  return days.flatMap((d) => d.slots.filter((s) => s.available).map((s) => s.start))[0]!;
}

const book = async (json: Record<string, unknown>) =>
  api.call('POST', '/api/contact', {
    ip: nextIp(),
    json: {
      kind: 'meeting',
      fullName: 'Jana Weber',
      company: 'Rheintal Pharma GmbH',
      email: 'jana@rheintal.example',
      subject: 'CCS für eine Abfüllanlage',
      slot: await freeSlot(),
      timeZone: 'Europe/Berlin',
      privacy: true,
      fillMs: 9000,
      source: '/de/contact',
      ...json,
    },
  });

/** The path and query of a link in a mail, for calling the local functions. */
const pathOf = (link: string) => link.slice(SITE_URL.length);

const count = async (table: string) =>
  (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

/** SUMMARY, DESCRIPTION and METHOD of a mail's calendar file, read by ical.js. */
function calendarText(message: CaughtMail) {
  const file = message.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  if (!file) throw new Error(`no calendar file in "${message.subject}"`);
  const calendar = new ICAL.Component(ICAL.parse(file.content));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    summary: String(event.getFirstPropertyValue('summary')),
    description: String(event.getFirstPropertyValue('description')),
    location: event.getFirstPropertyValue('location'),
  };
}

beforeEach(async () => {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM campaigns');
  await api.db.query('DELETE FROM subscribers');
  await api.db.query('DELETE FROM inquiries');
  await api.db.query('DELETE FROM rate_limits');
});

describe('a sign-up on a German page', () => {
  test('is stored as German and gets a German confirmation, confirm page and welcome, all linking to /de', async () => {
    const reply = await signUp({ email: 'jana@rheintal.example', lang: 'de', source: '/de/blog/gmp' });
    expect(reply.status).toBe(202);
    expect(reply.body.message).toMatch(/^Vielen Dank\. Bitte sehen Sie in Ihrem Posteingang nach/);
    const [row] = await api.db.query<{ lang: string; status: string }>(
      'SELECT lang, status FROM subscribers WHERE email = $1',
      ['jana@rheintal.example'],
    );
    expect(row).toEqual({ lang: 'de', status: 'pending' });

    await api.settle();
    const [confirmation] = mailTo(mail.catcher, 'jana@rheintal.example');
    expect(confirmation!.subject).toBe('Bitte bestätigen Sie Ihre Anmeldung zum Korvel-Newsletter');
    expect(confirmation!.text).toContain('Anmeldung bestätigen');
    expect(confirmation!.text).toContain('Der Link ist 7 Tage gültig.');
    expect(confirmation!.text).not.toMatch(/Confirm your subscription|Privacy policy/);
    expect(confirmation!.html).toContain('lang="de-DE"');
    expect(confirmation!.html).toContain(`href="${SITE_URL}/de/privacy-policy"`);
    expect(confirmation!.html).toContain(`href="${SITE_URL}/de"`);
    const link = linkIn(confirmation!, `${SITE_URL}/de/newsletter/confirm?token=`);

    const page = await api.call('GET', pathOf(link));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de-DE">');
    expect(page.text).toContain('Bitte bestätigen Sie Ihre Anmeldung');
    expect(page.text).toMatch(/<form action="\/de\/newsletter\/confirm\?token=[\w.-]+" method="post">/);
    expect(page.text).toContain('href="/de/privacy-policy"');

    const confirmed = await api.call('POST', pathOf(link));
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Ihre Anmeldung ist bestätigt');
    await api.settle();
    const welcome = mailTo(mail.catcher, 'jana@rheintal.example')[1]!;
    expect(welcome.subject).toBe('Willkommen beim Korvel-Newsletter');
    expect(welcome.html).toContain(`href="${SITE_URL}/de/blog"`);
    expect(welcome.headers['list-unsubscribe']).toMatch(
      new RegExp(`^<${SITE_URL}/de/newsletter/unsubscribe\\?token=[\\w.-]+>$`),
    );
    const unsubscribe = await api.call(
      'GET',
      pathOf(linkIn(welcome, `${SITE_URL}/de/newsletter/unsubscribe?token=`)),
    );
    expect(unsubscribe.text).toContain('Vom Newsletter abmelden');
  });

  test('without a lang field takes the language of its source page, and an English page stays English', async () => {
    await signUp({ email: 'plain@rheintal.example', source: '/de/news/achema' });
    await signUp({ email: 'reader@plant.example', source: '/blog/gmp' });
    const rows = await api.db.query<{ email: string; lang: string }>(
      'SELECT email, lang FROM subscribers ORDER BY email',
    );
    expect(rows).toEqual([
      { email: 'plain@rheintal.example', lang: 'de' },
      { email: 'reader@plant.example', lang: 'en' },
    ]);
    await api.settle();
    expect(mailTo(mail.catcher, 'plain@rheintal.example')[0]!.subject).toMatch(/^Bitte bestätigen/);
    const english = mailTo(mail.catcher, 'reader@plant.example')[0]!;
    expect(english.subject).toBe('Confirm your subscription to the Korvel newsletter');
    linkIn(english, `${SITE_URL}/newsletter/confirm?token=`);
  });

  test('a link of a German mail that was tampered with answers in German', async () => {
    const page = await api.call('GET', '/de/newsletter/confirm?token=a.b.c');
    expect(page.status).toBe(400);
    expect(page.text).toContain('Dieser Link ist ungültig');
    expect(page.text).toContain('href="/de"');
  });
});

describe('a language the site does not have', () => {
  test.each([
    ['the newsletter sign-up', () => signUp({ email: 'x@plant.example', lang: 'fr' })],
    ['a contact message', () => message({ lang: 'DE' })],
    ['a meeting request', () => book({ lang: 'de-DE' })],
    ['a language that is not text', () => message({ lang: 1 })],
  ])('is a 400 naming the field, and %s stores nothing', async (_, send) => {
    const reply = await send();
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_failed');
    expect(reply.body.error.fields.lang).toBe('The language is one of "en", "de".');
    await api.settle();
    expect(await count('subscribers')).toBe(0);
    expect(await count('inquiries')).toBe(0);
    expect(await count('outbox')).toBe(0);
    expect(mail.catcher.messages()).toHaveLength(0);
  });
});

describe('a contact message from a German page', () => {
  test('gets a German acknowledgement and the German thank-you page; the firm is told in English', async () => {
    const reply = await message({ lang: 'de' });
    expect(reply.status).toBe(201);
    expect(reply.body.next).toBe('/de/thanks');
    const [row] = await api.db.query<{ lang: string }>('SELECT lang FROM inquiries');
    expect(row!.lang).toBe('de');

    await api.settle();
    const [ack] = mailTo(mail.catcher, 'jana@rheintal.example');
    expect(ack!.subject).toBe('Wir haben Ihre Nachricht erhalten');
    expect(ack!.html).toContain('Wie es weitergeht');
    expect(ack!.text).toMatch(/Ihre Referenz: #\d+/);
    const [firm] = mailTo(mail.catcher, NOTIFY_TO);
    expect(firm!.subject).toBe('Inquiry: Reinraumklasse B für eine Abfüllung (Jana Weber)');
    expect(firm!.text).toContain('A message arrived through the contact form.');
    // The firm's mail names the sender's language, so the reply can be written in it.
    expect(firm!.html).toMatch(/>Language<\/td>\s*<td[^>]*>German<\/td>/);

    const list = await api.call('GET', '/api/inquiries', { token });
    expect(list.body[0].lang).toBe('de');
  });
});

describe('a meeting request from a German page', () => {
  test('gets German mail with a German calendar file and German cancel pages; the firm’s copy stays English', async () => {
    const reply = await book({ lang: 'de' });
    expect(reply.status).toBe(201);
    expect(reply.body.next).toMatch(/^\/de\/thanks\?meeting=/);
    await api.settle();

    const [ack] = mailTo(mail.catcher, 'jana@rheintal.example');
    expect(ack!.subject).toMatch(
      /^Ihre Terminanfrage für (Montag|Dienstag|Mittwoch|Donnerstag|Freitag), \d{1,2}\. \p{L}+ \d{4}, \d\d:\d\d Uhr \(Belgrader Zeit\)$/u,
    );
    expect(ack!.text).toContain('Angefragte Zeit');
    expect(ack!.text).toMatch(/Uhr Belgrader Zeit \((MEZ|MESZ)\)/);
    const calendar = calendarText(ack!);
    expect(calendar.method).toBe('REQUEST');
    expect(calendar.summary).toBe('30-minütiges Gespräch mit Korvel Engineering');
    expect(calendar.description).toMatch(/^Ein 30-minütiges Gespräch mit Korvel Engineering\. Fragen: /);

    const [firm] = mailTo(mail.catcher, NOTIFY_TO);
    expect(firm!.subject).toMatch(/^Meeting request: /);
    expect(firm!.html).toMatch(/>Language<\/td>\s*<td[^>]*>German<\/td>/);
    expect(calendarText(firm!).summary).toBe('Meeting: Jana Weber');

    const cancelLink = linkIn(ack!, `${SITE_URL}/de/meeting/cancel?token=`);
    const cancelPage = await api.call('GET', pathOf(cancelLink));
    expect(cancelPage.status).toBe(200);
    expect(cancelPage.text).toContain('<html lang="de-DE">');
    expect(cancelPage.text).toContain('Termin absagen?');
    expect(cancelPage.text).toMatch(/Uhr Belgrader Zeit \((MEZ|MESZ)\)/);
    const reschedule = await api.call(
      'GET',
      pathOf(linkIn(ack!, `${SITE_URL}/de/meeting/reschedule?token=`)),
    );
    expect(reschedule.text).toContain('Freie Zeiten der nächsten zehn Arbeitstage, Belgrader Zeit');

    mail.catcher.clear();
    const cancelled = await api.call('POST', pathOf(cancelLink), {
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('Ihr Termin ist abgesagt');
    expect(cancelled.text).toContain('href="/de/contact#book-a-meeting"');
    await api.settle();
    const [gone] = mailTo(mail.catcher, 'jana@rheintal.example');
    expect(gone!.subject).toMatch(/^Abgesagt: Ihr Termin am /);
    expect(gone!.html).toContain(`href="${SITE_URL}/de/contact#book-a-meeting"`);
    expect(calendarText(gone!)).toMatchObject({
      method: 'CANCEL',
      summary: '30-minütiges Gespräch mit Korvel Engineering',
    });
  });

  test('confirmed by the firm, the invitation is German and names the video call in German', async () => {
    await book({ lang: 'de' });
    const [{ id }] = (await api.db.query<{ id: number }>('SELECT id FROM inquiries')) as [{ id: number }];
    await api.settle();
    mail.catcher.clear();
    const decided = await api.call('POST', `/api/inquiries/${id}/meeting`, {
      token,
      json: { decision: 'confirm', callLink: 'https://meet.korvel.example/r/de-1' },
    });
    expect(decided.status).toBe(200);
    await api.settle();
    const [confirmed] = mailTo(mail.catcher, 'jana@rheintal.example');
    expect(confirmed!.subject).toMatch(/^Bestätigt: unser Termin am /);
    const calendar = calendarText(confirmed!);
    expect(calendar.description).toBe(
      'Ein 30-minütiges Gespräch mit Korvel Engineering. Videogespräch: https://meet.korvel.example/r/de-1. ' +
        'Fragen: info@korvel.example, +381 11 010 2010.',
    );
    expect(calendar.location).toBe('Videogespräch');
  });

  test('the thank-you page’s calendar file is German with lang=de, and another lang is a 400', async () => {
    const start = await freeSlot();
    const uid = '0b5c1f9e-6d0a-4c55-9f5e-1a2b3c4d5e6f';
    const ics = await api.call('GET', `/api/meeting.ics?${new URLSearchParams({ start, uid, lang: 'de' })}`);
    expect(ics.status).toBe(200);
    const event = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(
      'Korvel Engineering: 30-minütiges Gespräch (angefragt)',
    );
    const bad = await api.call('GET', `/api/meeting.ics?${new URLSearchParams({ start, uid, lang: 'xx' })}`);
    expect(bad.status).toBe(400);
  });
});

describe('newsletter issues have a language', () => {
  const ISSUE = {
    subject: 'Annex 1 zwei Jahre danach: Was Inspektoren zur CCS fragen',
    markdown: 'Die überarbeitete **EU GMP Annex 1** gilt seit dem 25. August 2023.',
  };

  async function subscribers() {
    await api.db.query(
      `INSERT INTO subscribers (email, status, lang, consented_at, confirmed_at) VALUES
         ('de1@list.example', 'confirmed', 'de', now(), now()),
         ('de2@list.example', 'confirmed', 'de', now(), now()),
         ('de-pending@list.example', 'pending', 'de', now(), NULL),
         ('en1@list.example', 'confirmed', 'en', now(), now()),
         ('en2@list.example', 'confirmed', 'en', now(), now()),
         ('en3@list.example', 'confirmed', 'en', now(), now())`,
    );
  }

  const send = async (id: number) => {
    const reply = await api.call('POST', `/api/campaigns/${id}/send`, { token });
    await api.settle();
    while ((await runWorker(api.db)).sent > 0);
    return reply;
  };

  test('is English unless set, is returned and listed with it, and can be changed while a draft', async () => {
    const english = await api.call('POST', '/api/campaigns', { token, json: ISSUE });
    expect(english.status).toBe(201);
    expect((await api.call('GET', `/api/campaigns/${english.body.id}`, { token })).body.lang).toBe('en');
    const german = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, lang: 'de' } });
    const list = await api.call('GET', '/api/campaigns', { token });
    expect(list.body.map((c: { id: number; lang: string }) => [c.id, c.lang])).toEqual([
      [german.body.id, 'de'],
      [english.body.id, 'en'],
    ]);
    const patched = await api.call('PATCH', `/api/campaigns/${english.body.id}`, {
      token,
      json: { lang: 'de' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.lang).toBe('de');
    const bad = await api.call('PATCH', `/api/campaigns/${english.body.id}`, { token, json: { lang: 'fr' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.lang).toBe('The language is "en" (English) or "de" (German).');
    expect((await api.call('GET', `/api/campaigns/${english.body.id}`, { token })).body.lang).toBe('de');
  });

  test('a German issue reaches the German confirmed subscribers only, in a German frame with /de links', async () => {
    await subscribers();
    const { body } = await api.call('POST', '/api/campaigns', {
      token,
      json: { ...ISSUE, lang: 'de', articles: ['blog/gmp'] },
    });
    const sent = await send(body.id);
    expect(sent.status).toBe(202);
    expect(sent.body.recipients).toBe(2);
    const copies = mail.catcher.messages().filter((m) => m.subject === ISSUE.subject);
    expect(copies.flatMap((m) => m.envelope.to).sort()).toEqual(['de1@list.example', 'de2@list.example']);
    for (const copy of copies) {
      expect(copy.html).toContain('lang="de-DE"');
      expect(copy.text).toContain('Diese Ausgabe im Browser ansehen');
      expect(copy.headers['list-unsubscribe']).toContain(`${SITE_URL}/de/newsletter/unsubscribe?token=`);
      // The article card shows the German twin's title and leads to its German page.
      expect(copy.html).toContain('Arzneimittel oder Nahrungsergänzungsmittel');
      expect(copy.html).not.toContain('Medicines versus dietary supplements');
      expect(copy.html).toContain(encodeURIComponent(`${SITE_URL}/de/blog/gmp`));
    }
  });

  test('an English issue reaches the English confirmed subscribers only', async () => {
    await subscribers();
    const { body } = await api.call('POST', '/api/campaigns', { token, json: ISSUE });
    expect((await send(body.id)).body.recipients).toBe(3);
    const copies = mail.catcher.messages().filter((m) => m.subject === ISSUE.subject);
    expect(copies.flatMap((m) => m.envelope.to).sort()).toEqual([
      'en1@list.example',
      'en2@list.example',
      'en3@list.example',
    ]);
    expect(copies[0]!.text).toContain('View this issue in your browser');
  });

  test('with no confirmed subscriber of its language, the send is a 409 naming it and the issue stays a draft', async () => {
    await api.db.query(
      `INSERT INTO subscribers (email, status, lang, consented_at, confirmed_at)
       VALUES ('en1@list.example', 'confirmed', 'en', now(), now())`,
    );
    const { body } = await api.call('POST', '/api/campaigns', { token, json: { ...ISSUE, lang: 'de' } });
    const reply = await api.call('POST', `/api/campaigns/${body.id}/send`, { token });
    expect(reply.status).toBe(409);
    expect(reply.body.error.message).toBe('There are no confirmed German subscribers to send to.');
    expect((await api.call('GET', `/api/campaigns/${body.id}`, { token })).body.status).toBe('draft');
  });

  test('the admin counts the confirmed subscribers of a language, and refuses one it does not know', async () => {
    await subscribers();
    const german = await api.call('GET', '/api/newsletter?status=confirmed&lang=de&page=1&pageSize=1', {
      token,
    });
    expect(german.headers.get('x-total-count')).toBe('2');
    const bad = await api.call('GET', '/api/newsletter?lang=fr', { token });
    expect(bad.status).toBe(400);
  });
});

describe('a form from a German page that needs attention (issue 39)', () => {
  const empty = { fullName: '', email: '', subject: '', message: '', privacy: false };

  test('is a 400 with its stable code and every word in German: empty, then wrong', async () => {
    const blank = await message({ lang: 'de', ...empty });
    expect(blank.status).toBe(400);
    expect(blank.body.error.code).toBe('validation_failed');
    expect(blank.body.error.message).toBe(
      'Bitte prüfen Sie die markierten Felder, und senden Sie das Formular erneut.',
    );
    expect(blank.body.error.fields).toEqual({
      fullName: 'Geben Sie Ihren Vor- und Nachnamen ein.',
      email: 'Geben Sie Ihre E-Mail-Adresse ein.',
      subject: 'Geben Sie einen Betreff ein.',
      message: 'Schreiben Sie Ihre Nachricht.',
      privacy: 'Stimmen Sie der Datenschutzerklärung zu, damit wir Ihre Nachricht speichern dürfen.',
    });

    const wrong = await message({
      lang: 'de',
      fullName: 'Jana\nWeber',
      email: 'jana@rheintal',
      phone: 'bitte anrufen',
      message: 'x'.repeat(5001),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({
      fullName: 'Schreiben Sie diese Angabe in eine Zeile.',
      email: 'Der Teil nach dem @ ist keine gültige Domain.',
      phone: 'Geben Sie die Telefonnummer nur mit Ziffern, Leerzeichen und + ( ) / - . ein.',
      // The limit in German digits: a thousands point.
      message: 'Hier sind höchstens 5.000 Zeichen möglich.',
    });
    expect(await count('inquiries')).toBe(0);
  });

  test('the same form from an English page answers in English, with the same code', async () => {
    const reply = await message({ lang: 'en', source: '/contact', ...empty, message: 'x'.repeat(5001) });
    expect(reply.body.error.code).toBe('validation_failed');
    expect(reply.body.error.message).toBe('Check the highlighted fields and send the form again.');
    expect(reply.body.error.fields.fullName).toBe('Enter your full name.');
    expect(reply.body.error.fields.message).toBe('Use at most 5,000 characters here.');
  });

  test('a meeting request for a time not offered, and one without a time, answer in German', async () => {
    const gone = await book({ lang: 'de', slot: '2020-01-06T08:00:00.000Z' });
    expect(gone.status).toBe(400);
    expect(gone.body.error.fields).toEqual({
      slot: 'Diese Uhrzeit wird nicht mehr angeboten. Wählen Sie eine der angezeigten Zeiten.',
    });
    const none = await book({ lang: 'de', slot: '', subject: '' });
    expect(none.body.error.fields).toEqual({
      slot: 'Wählen Sie eine Uhrzeit für den Termin.',
      subject: 'Geben Sie ein Thema ein.',
    });
  });

  test('a request without a lang field takes German from its source page', async () => {
    const reply = await message({ lang: undefined, privacy: false });
    expect(reply.body.error.fields).toEqual({
      privacy: 'Stimmen Sie der Datenschutzerklärung zu, damit wir Ihre Nachricht speichern dürfen.',
    });
  });

  test('the newsletter sign-up answers in German, its rate limit too', async () => {
    const wrong = await signUp({ email: 'jana.weber', consent: false, lang: 'de' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('validation_failed');
    expect(wrong.body.error.fields).toEqual({
      email: 'Geben Sie die E-Mail-Adresse in der Form name@firma.de ein.',
      consent: 'Setzen Sie das Häkchen, um dem Empfang des Newsletters zuzustimmen.',
    });
    const from = '203.0.113.77';
    let last = await api.call('POST', '/api/newsletter', {
      ip: from,
      json: { email: 'a0@plant.example', consent: true, source: '/de', lang: 'de' },
    });
    for (let i = 1; i <= 20; i += 1)
      last = await api.call('POST', '/api/newsletter', {
        ip: from,
        json: { email: `a${i}@plant.example`, consent: true, source: '/de', lang: 'de' },
      });
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('rate_limited');
    expect(last.body.error.message).toBe(
      'Aus Ihrem Netzwerk kamen zu viele Anmeldungen. Versuchen Sie es später noch einmal.',
    );
  });
});

test('migration 0012 keeps every existing subscriber, inquiry and issue English and refuses other languages', async () => {
  const all = await loadMigrations();
  const db = await openTestDb(all.filter((m) => m.version < 12));
  try {
    await db.query(`INSERT INTO subscribers (email, status) VALUES ('old@plant.example', 'confirmed')`);
    await db.query(
      `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
       VALUES ('contact', 'Bo', 'bo@plant.example', 's', 'm', 'p')`,
    );
    await db.query(`INSERT INTO campaigns (subject, markdown) VALUES ('Old issue', 'Text')`);
    expect(await migrate(db, all)).toContain('0012_language.sql');
    for (const table of ['subscribers', 'inquiries', 'campaigns']) {
      expect(await db.query(`SELECT lang FROM ${table}`)).toEqual([{ lang: 'en' }]);
      await expect(db.query(`UPDATE ${table} SET lang = 'fr'`)).rejects.toThrow(/lang_check/);
    }
  } finally {
    await db.close();
  }
});
