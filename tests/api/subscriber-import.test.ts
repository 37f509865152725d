/**
 * Importing the firm's contacts (issue 36): real HTTP, the real database and the local SMTP catcher. Encodings,
 * separators, duplicates, suppressed addresses, both modes with their mail, re-uploads, cancelling, the report,
 * and files that must change nothing.
 */
import { describe, expect, test } from 'vitest';
import { emailHash } from '../../src/server/mail/hash.ts';
import { addressTag, signLinkToken } from '../../src/server/mail/links.ts';
import { IMPORT_MAX_BYTES } from '../../src/server/import-file.ts';
import { applyImportChunk, createImport } from '../../src/server/repositories/imports.ts';
import { readImport } from '../../src/server/import-file.ts';
import { applyRetention, RETENTION } from '../../src/server/retention.ts';
import { runImport } from '../../src/server/subscriber-import.ts';
import { type Api, type Reply } from './support/harness.ts';
import { linkIn, mailTo, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'owner@korvel.example', password: 'contact importer passphrase' };
let api: Api;
let mail: TestMail;
let token: string;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

const CONSENTED = 'mode=consented&source=Achema%202026%20stand%2C%20signed%20form&consentedOn=2026-06-12';

/** Uploads `body` as text/csv with `query`; the background run is waited for. */
async function upload(body: BodyInit, query = CONSENTED, headers: Record<string, string> = {}) {
  const reply = await api.call('POST', `/api/subscribers/import?${query}`, {
    token,
    body,
    headers: { 'content-type': 'text/csv', ...headers },
  });
  await api.settle();
  return reply;
}

/** Uploads and returns the finished import's status. */
async function imported(body: BodyInit, query = CONSENTED, headers: Record<string, string> = {}) {
  const reply = await upload(body, query, headers);
  expect(reply.status, reply.text).toBe(202);
  const status = await api.call('GET', `/api/subscribers/import/${reply.body.id}`, { token });
  expect(status.status).toBe(200);
  return status.body;
}

interface Row {
  email: string;
  status: string;
  name: string | null;
  lang: string;
  topics: string[];
  consent_mode: string | null;
  consent_source: string | null;
  consented_at: Date | null;
}

async function subscriber(email: string): Promise<Row | undefined> {
  const [row] = await api.db.query<Row & Record<string, unknown>>(
    `SELECT email, status, name, lang, topics, consent_mode, consent_source, consented_at FROM subscribers
     WHERE lower(email) = lower($1)`,
    [email],
  );
  return row;
}

const count = async (sql: string) =>
  (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n ${sql}`))[0]!.n;

describe('consent on record', () => {
  test('a UTF-8 file with BOM and ";" becomes confirmed subscribers with name, language, topics and the source', async () => {
    const csv =
      '\uFEFFE-Mail;Name;Sprache;Themen;Einwilligungsdatum\n' +
      'Lena.Vogt@Chemie-Werk.example;Lena Vogt;de;pharma|Oil & Gas;15.06.2026\n' +
      'r.okafor@plant.example;Ruth Okafor;en;company-news;\n';
    const status = await imported(csv);
    expect(status).toMatchObject({ state: 'done', total: 2, added: 2, updated: 0, skipped: 0, rejected: [] });
    expect(await subscriber('lena.vogt@chemie-werk.example')).toMatchObject({
      email: 'Lena.Vogt@chemie-werk.example',
      status: 'confirmed',
      name: 'Lena Vogt',
      lang: 'de',
      topics: ['pharma', 'oil-gas'],
      consent_mode: 'consented',
      consent_source: 'Achema 2026 stand, signed form',
    });
    // A row without its own date takes the date the firm gave for all of them.
    expect(new Date((await subscriber('r.okafor@plant.example'))!.consented_at!).toISOString()).toBe(
      '2026-06-12T00:00:00.000Z',
    );
    // Consent on record sends nothing.
    await runWorker(api.db);
    expect(mail.catcher.messages()).toHaveLength(0);
  });

  test('a Windows-1252 file with "," keeps its umlauts', async () => {
    const csv = Buffer.from('email,name,lang\njuergen@mueller-anlagen.example,Jürgen Müßig,de\n', 'latin1');
    const status = await imported(csv);
    expect(status.added).toBe(1);
    expect((await subscriber('juergen@mueller-anlagen.example'))!.name).toBe('Jürgen Müßig');
  });

  test('a declared windows-1252 charset is honoured, and mapped columns may have any header', async () => {
    const csv = Buffer.from('Kontakt;Vollständiger Name\nbjoern@oel.example;Björn Ström\n', 'latin1');
    const status = await imported(
      csv,
      `${CONSENTED}&email=Kontakt&name=${encodeURIComponent('Vollständiger Name')}`,
      { 'content-type': 'text/csv; charset=windows-1252' },
    );
    expect(status.added).toBe(1);
    expect((await subscriber('bjoern@oel.example'))!.name).toBe('Björn Ström');
  });

  test('confirms an address that was waiting for confirmation, and leaves a confirmed one as it is', async () => {
    await api.db.query(
      `INSERT INTO subscribers (email, status, lang, consented_at) VALUES
         ('waiting@refinery.example', 'pending', 'en', now()), ('known@refinery.example', 'confirmed', 'de', now())`,
    );
    const status = await imported('email,lang\nwaiting@refinery.example,en\nKNOWN@refinery.example,en\n');
    expect(status).toMatchObject({ added: 0, updated: 1, skipped: 1 });
    expect(await subscriber('waiting@refinery.example')).toMatchObject({
      status: 'confirmed',
      consent_mode: 'consented',
    });
    // The subscriber chose German on the site; the list does not overrule that.
    expect((await subscriber('known@refinery.example'))!.lang).toBe('de');
  });
});

describe('duplicates, suppressions and re-uploads', () => {
  test('an address repeated in the file is imported once; the repeat is skipped naming the first line', async () => {
    const reply = await upload('email\nsame@fab.example\nother@fab.example\n SAME@Fab.example \n');
    const status = (await api.call('GET', `/api/subscribers/import/${reply.body.id}`, { token })).body;
    expect(status).toMatchObject({ added: 2, skipped: 1, total: 3 });
    const report = await api.call('GET', `/api/subscribers/import/${reply.body.id}/report`, { token });
    expect(report.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(report.headers.get('content-disposition')).toContain('attachment');
    expect(report.text).toContain('4,SAME@fab.example,skipped,repeats line 2');
    expect(await count(`FROM subscribers WHERE lower(email) = 'same@fab.example'`)).toBe(1);
  });

  test('unsubscribed, bounced and complained addresses are reported, never subscribed again', async () => {
    // A real unsubscribe: the row is deleted and only the hash stays.
    await imported('email\nleft@pharma.example\n');
    const [left] = await api.db.query<{ id: number }>(
      `SELECT id FROM subscribers WHERE email = 'left@pharma.example'`,
    );
    const unsubscribe = await signLinkToken('unsubscribe', {
      subscriberId: left!.id,
      tag: addressTag('left@pharma.example'),
    });
    const gone = await api.call('POST', `/newsletter/unsubscribe?token=${unsubscribe}`, {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(gone.status).toBe(200);
    expect(await subscriber('left@pharma.example')).toBeUndefined();
    await api.db.query(
      `INSERT INTO subscribers (email, status, lang) VALUES ('bounced@pharma.example', 'bounced', 'en'),
         ('angry@pharma.example', 'complained', 'en')`,
    );
    await api.db.query(
      `INSERT INTO mail_suppressions (email_hash, reason, source, email) VALUES ($1, 'hard_bounce', 'smtp', $2)`,
      [emailHash('gone@pharma.example'), 'gone@pharma.example'],
    );

    for (const query of [CONSENTED, 'mode=confirm&source=CRM%20export']) {
      const status = await imported(
        'email\nleft@pharma.example\nbounced@pharma.example\nangry@pharma.example\ngone@pharma.example\n',
        query,
      );
      expect(status).toMatchObject({ added: 0, updated: 0, skipped: 0 });
      expect(status.rejected).toEqual([
        { line: 2, reason: 'unsubscribed earlier: only the person can subscribe again' },
        { line: 3, reason: 'the address bounced: it is on the suppression list' },
        { line: 4, reason: 'the person marked a newsletter as spam: it is on the suppression list' },
        { line: 5, reason: 'the address bounced: it is on the suppression list' },
      ]);
    }
    expect(await subscriber('left@pharma.example')).toBeUndefined();
    expect(await subscriber('gone@pharma.example')).toBeUndefined();
    expect((await subscriber('bounced@pharma.example'))!.status).toBe('bounced');
    expect((await subscriber('angry@pharma.example'))!.status).toBe('complained');
    await runWorker(api.db);
    expect(mail.catcher.messages()).toHaveLength(0);
    // The first import's report no longer holds the address that unsubscribed.
    expect(
      await count(`FROM subscriber_import_rows WHERE email = 'left@pharma.example' AND outcome = 'added'`),
    ).toBe(0);
  });

  test('uploading the same file again adds nothing and sends nothing', async () => {
    const csv = 'email;lang\nrepeat-a@food.example;de\nrepeat-b@food.example;en\n';
    const query = 'mode=confirm&source=Anuga%202025%20badge%20scans';
    const first = await imported(csv, query);
    expect(first.added).toBe(2);
    const subscribers = await count('FROM subscribers');
    const mails = await count('FROM outbox');
    const second = await imported(csv, query);
    expect(second).toMatchObject({ added: 0, updated: 0, skipped: 2, rejected: [] });
    expect(await count('FROM subscribers')).toBe(subscribers);
    expect(await count('FROM outbox')).toBe(mails);
    const third = await imported(csv);
    // Consent on record for people who were asked: they are confirmed now, still once each.
    expect(third).toMatchObject({ added: 0, updated: 2 });
    expect(await count('FROM subscribers')).toBe(subscribers);
  });
});

describe('ask for consent', () => {
  test('each new address gets the double opt-in mail in its language through the outbox and stays pending', async () => {
    const status = await imported(
      'email,language\nasked-en@energy.example,en\nasked-de@energy.example,Deutsch\n',
      'mode=confirm&source=Hannover%20Messe%202026%20business%20cards',
    );
    expect(status).toMatchObject({ added: 2, state: 'done' });
    expect(await subscriber('asked-de@energy.example')).toMatchObject({
      status: 'pending',
      lang: 'de',
      consent_mode: 'confirm',
      consent_source: 'Hannover Messe 2026 business cards',
    });
    // Paced like a newsletter issue: only the worker sends them, never the attempt right after a request.
    expect(
      await count(`FROM outbox WHERE template = 'newsletter-confirm' AND paced AND recipient LIKE 'asked-%'`),
    ).toBe(2);
    expect(mail.catcher.messages()).toHaveLength(0);
    await runWorker(api.db);
    const [english] = mailTo(mail.catcher, 'asked-en@energy.example');
    const [german] = mailTo(mail.catcher, 'asked-de@energy.example');
    expect(english?.subject).toBe('Confirm your subscription to the Korvel newsletter');
    expect(german?.subject).toBe('Bitte bestätigen Sie Ihre Anmeldung zum Korvel-Newsletter');
    // They never signed up: the mail says the firm asks them.
    expect(english!.text).toContain(
      'We know you from our work and would like to send you the Korvel newsletter',
    );
    expect(english!.text).not.toContain('Someone, we hope you');
    expect(german!.text).toContain('Wir kennen Sie aus unserer Arbeit');
    const link = linkIn(german!, `${SITE_URL}/de/newsletter/confirm?token=`);
    const confirmed = await api.call('POST', link.slice(SITE_URL.length), {
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(confirmed.status).toBe(200);
    expect((await subscriber('asked-de@energy.example'))!.status).toBe('confirmed');
  });

  test('the confirmation mails keep to MAIL_RATE_PER_MINUTE', async () => {
    const saved = process.env.MAIL_RATE_PER_MINUTE;
    process.env.MAIL_RATE_PER_MINUTE = '2';
    // The minute's budget starts empty, as if the earlier tests' mail had left a minute ago.
    await api.db.query(`UPDATE outbox SET claimed_at = claimed_at - interval '2 minutes'`);
    try {
      await imported(
        'email\npaced-1@chem.example\npaced-2@chem.example\npaced-3@chem.example\n',
        'mode=confirm&source=Website%20contact%20list',
      );
      await runWorker(api.db);
      expect(mail.catcher.messages().filter((m) => m.envelope.to[0]!.startsWith('paced-'))).toHaveLength(2);
    } finally {
      if (saved === undefined) delete process.env.MAIL_RATE_PER_MINUTE;
      else process.env.MAIL_RATE_PER_MINUTE = saved;
      // The third mail may go at the next run's budget; the next test starts without it.
      await api.db.query(`UPDATE outbox SET status = 'cancelled' WHERE recipient LIKE 'paced-%'`);
    }
  });
});

describe('rows that are refused', () => {
  test('each refusal names its line and reason; the good rows are imported', async () => {
    const status = await imported(
      [
        'email;name;lang;topics;consent date',
        'good@site.example;Good Row;de;food;2026-05-01',
        'not-an-address;Bad Address;en;;2026-05-01',
        'lang@site.example;;fr;;2026-05-01',
        'topic@site.example;;en;gardening;2026-05-01',
        'future@site.example;;en;;2099-01-01',
        'date@site.example;;en;;31.02.2026',
        ';Only A Name;en;;2026-05-01',
        'year0@site.example;;en;;0000-01-01',
      ].join('\r\n'),
    );
    expect(status.added).toBe(1);
    expect(status.rejected.map((r: { line: number }) => r.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(status.rejected[0].reason).toMatch(/^invalid e-mail address/);
    expect(status.rejected[1].reason).toBe('unknown language "fr" (use en or de)');
    expect(status.rejected[2].reason).toMatch(/^unknown topic "gardening"/);
    expect(status.rejected[3].reason).toBe('the consent date is in the future');
    expect(status.rejected[4].reason).toMatch(/^unreadable consent date "31.02.2026"/);
    expect(status.rejected[5].reason).toBe('no e-mail address');
    expect(status.rejected[6].reason).toMatch(/^unreadable consent date "0000-01-01"/);
  });
});

describe('files that change nothing', () => {
  const nothingChanged = async (reply: Reply, status: number, code: string) => {
    expect(reply.status).toBe(status);
    expect(reply.body.error.code).toBe(code);
    expect(await count('FROM subscriber_imports WHERE id > 0')).toBe(before);
  };
  let before = 0;

  test('50,001 rows are refused; 50,000 are not counted against it', async () => {
    before = await count('FROM subscriber_imports');
    const rows = Array.from({ length: 50_001 }, (_, i) => `bulk-${i}@big.example`);
    await nothingChanged(await upload(`email\n${rows.join('\n')}\n`), 400, 'too_many_rows');
    expect(await count(`FROM subscribers WHERE email LIKE 'bulk-%'`)).toBe(0);
  });

  test('a cell that starts like a formula refuses the file; a phone number does not', async () => {
    before = await count('FROM subscriber_imports');
    await nothingChanged(
      await upload('email,name\nsafe@x.example,Ann\nformula@x.example,=HYPERLINK("http://evil.example")\n'),
      400,
      'formula_cells',
    );
    await nothingChanged(await upload('email,name\n@SUM(A1)@x.example,Ann\n'), 400, 'formula_cells');
    const phone = await imported('email,phone\nphone@x.example,+49 89 1234-56\n');
    expect(phone.added).toBe(1);
  });

  test('no e-mail column, an unknown mapped column, or no consent date for consent on record', async () => {
    before = await count('FROM subscriber_imports');
    await nothingChanged(await upload('name,company\nAnn,Korvel\n'), 400, 'no_email_column');
    await nothingChanged(
      await upload('email\na@b.example\n', `${CONSENTED}&name=Fullname`),
      400,
      'unknown_column',
    );
    await nothingChanged(
      await upload('email\na@b.example\n', 'mode=consented&source=Fair'),
      400,
      'no_consent_date',
    );
  });

  test('not CSV, too large, wrong media type, no rows, a query without mode or source, or a consentedOn before 1990', async () => {
    before = await count('FROM subscriber_imports');
    const workbook = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    await nothingChanged(await upload(workbook), 400, 'not_csv');
    await nothingChanged(await upload(Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a')), 413, 'payload_too_large');
    await nothingChanged(
      await upload('email\na@b.example\n', CONSENTED, { 'content-type': 'application/json' }),
      415,
      'unsupported_media_type',
    );
    await nothingChanged(await upload('email\n'), 400, 'empty_file');
    await nothingChanged(await upload('email\na@b.example\n', 'source=Fair'), 400, 'invalid_query');
    await nothingChanged(await upload('email\na@b.example\n', 'mode=confirm'), 400, 'invalid_query');
    await nothingChanged(
      await upload('email\na@b.example\n', 'mode=consented&source=Fair&consentedOn=01.01.0000'),
      400,
      'invalid_query',
    );
    await nothingChanged(await upload('email\n"a@b.example\n'), 400, 'invalid_csv');
  });
});

describe('the job', () => {
  /** An import stored but not yet run, as if its run had not started. */
  async function stored(rows: number, mode: 'consented' | 'confirm', label: string = mode) {
    const [admin] = await api.db.query<{ id: number }>('SELECT id FROM admins LIMIT 1');
    const text = `email\n${Array.from({ length: rows }, (_, i) => `job-${label}-${i}@cancel.example`).join('\n')}\n`;
    const { rows: read } = readImport(text, {
      mapping: {},
      defaultLang: 'en',
      defaultConsentDate: new Date('2026-01-10T00:00:00Z'),
      needsConsentDate: mode === 'consented',
      now: new Date(),
    });
    return createImport(api.db, { createdBy: admin!.id, mode, source: 'Cancel test', rows: read });
  }

  test('cancelling stops the rows not yet applied and the confirmation mails not yet sent', async () => {
    const id = await stored(2500, 'confirm');
    expect(await applyImportChunk(api.db, id)).toBe(true);
    const cancelled = await api.call('POST', `/api/subscribers/import/${id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', total: 2500, processed: 1000, added: 1000 });
    await runImport(api.db, id);
    expect(await count(`FROM subscribers WHERE email LIKE 'job-confirm-%'`)).toBe(1000);
    expect(
      await count(
        `FROM outbox WHERE idempotency_key LIKE 'newsletter-import:${id}:%' AND status = 'pending'`,
      ),
    ).toBe(0);
    await runWorker(api.db);
    expect(mail.catcher.messages().map((m) => m.envelope.to)).toEqual([]);
    const report = await api.call('GET', `/api/subscribers/import/${id}/report`, { token });
    expect(report.text).toContain(
      'job-confirm-2499@cancel.example,not imported,not imported: the import was cancelled first',
    );
    const again = await api.call('POST', `/api/subscribers/import/${id}/cancel`, { token });
    expect(again.status).toBe(409);
  });

  test('a job whose run ended early is finished by the scheduled worker', async () => {
    const id = await stored(1500, 'consented');
    const worker = (await import('../../netlify/functions/mail-worker.mts')).default;
    const reply = await worker();
    expect((await reply.json()).imports).toBeGreaterThanOrEqual(1);
    const status = await api.call('GET', `/api/subscribers/import/${id}`, { token });
    expect(status.body).toMatchObject({ state: 'done', added: 1500, processed: 1500 });
  });

  test('only the owner and editors may import; an unknown import is 404', async () => {
    await api.createAdmin('sales@korvel.example', 'sales person passphrase', 'sales');
    const sales = await api.login('sales@korvel.example', 'sales person passphrase');
    const refused = await api.call('POST', `/api/subscribers/import?${CONSENTED}`, {
      token: sales,
      body: 'email\na@b.example\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(403);
    await api.createAdmin('editor@korvel.example', 'editor person passphrase', 'editor');
    const editor = await api.login('editor@korvel.example', 'editor person passphrase');
    const accepted = await api.call('POST', `/api/subscribers/import?${CONSENTED}`, {
      token: editor,
      body: 'email\neditor-added@b.example\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(accepted.status).toBe(202);
    await api.settle();
    expect((await api.call('GET', '/api/subscribers/import/999999', { token })).status).toBe(404);
    const [logged] = await api.db.query<{ target: string }>(
      `SELECT target FROM activity_log WHERE action = 'subscribers.import' ORDER BY id DESC LIMIT 1`,
    );
    expect(logged!.target).toContain('consent on record');
  });

  test('the report rows are deleted after the retention period; the job and its subscribers stay', async () => {
    const id = await stored(3, 'consented', 'retention');
    await runImport(api.db, id);
    await api.db.query(
      `UPDATE subscriber_imports SET created_at = now() - make_interval(days => $2) WHERE id = $1`,
      [id, RETENTION.importRowsDays + 1],
    );
    const report = await applyRetention(api.db);
    expect(report.importRows).toBeGreaterThanOrEqual(3);
    expect(await count(`FROM subscriber_import_rows WHERE import_id = ${id}`)).toBe(0);
    expect(await count(`FROM subscriber_imports WHERE id = ${id}`)).toBe(1);
    expect(await count(`FROM subscribers WHERE import_id = ${id}`)).toBe(3);
  });
});
