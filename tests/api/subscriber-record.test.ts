/**
 * Each subscriber's record (issue 36, item 4) over real HTTP, the real database and the local SMTP catcher: the
 * record shows every part (sign-up, consent, confirmation, language and topics, issues with their outcome,
 * preference changes, bounces and complaints, imports), the export is the same record as a JSON download, the
 * erasure leaves the address nowhere but as a hash on the suppression list so a later import refuses it, and both
 * are owner/editor actions in the activity log.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { NEWSLETTER_CONSENT_VERSION } from '../../src/lib/schemas.ts';
import { emailHash } from '../../src/server/mail/hash.ts';
import { applyMailEvent } from '../../src/server/mail/suppression.ts';
import { recordAndSuppress } from '../../src/server/repositories/suppressions.ts';
import { type Api } from './support/harness.ts';
import { linkIn, mailTo, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'records@korvel.example', password: 'record keeper passphrase' };
const EDITOR = { email: 'editor.records@korvel.example', password: 'newsletter editor passphrase' };
const SALES = { email: 'sales.records@korvel.example', password: 'sales engineer passphrase' };
const READER = 'Mira.Kostic@Pharma-Plant.example';
const IMPORTED = 'j.weber@anlagenbau.example';
let api: Api;
let mail: TestMail;
let token: string;
let salesToken: string;
let editorToken: string;
let reader: number;
let imported: number;
let issue: number;

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));

const idOf = async (email: string) =>
  (
    await api.db.query<{ id: number }>('SELECT id FROM subscribers WHERE lower(email) = lower($1)', [email])
  )[0]?.id;

async function importCsv(csv: string) {
  const reply = await api.call(
    'POST',
    '/api/subscribers/import?mode=consented&source=Achema%202026%20stand%2C%20signed%20form&consentedOn=2026-06-12',
    { token, body: csv, headers: { 'content-type': 'text/csv' } },
  );
  expect(reply.status, reply.text).toBe(202);
  await api.settle();
  return (await api.call('GET', `/api/subscribers/import/${reply.body.id}`, { token })).body;
}

/** Every table row that mentions `text` anywhere, as `table: row`. */
async function rowsMentioning(text: string): Promise<string[]> {
  const tables = await api.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await api.db.query<{ row: string }>(
      `SELECT t::text AS row FROM "${name}" t WHERE t::text ILIKE '%' || $1 || '%'`,
      [text],
    );
    found.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return found;
}

beforeAll(async () => {
  await api.createAdmin(SALES.email, SALES.password, 'sales');
  salesToken = await api.login(SALES.email, SALES.password);
  await api.createAdmin(EDITOR.email, EDITOR.password, 'editor');
  editorToken = await api.login(EDITOR.email, EDITOR.password);

  // A reader signs up through the form on a blog page and confirms by the link in the mail.
  const signed = await api.call('POST', '/api/newsletter', {
    json: { email: READER, consent: true, source: '/blog/gmp-annex-1' },
  });
  expect(signed.status).toBe(202);
  await api.settle();
  const [confirmation] = mailTo(mail.catcher, 'Mira.Kostic@pharma-plant.example');
  const link = linkIn(confirmation!, `${SITE_URL}/newsletter/confirm?token=`);
  expect((await api.call('POST', link.slice(SITE_URL.length))).status).toBe(200);
  await api.settle();
  reader = (await idOf(READER))!;

  // One issue goes out to them; then they mark it as spam.
  const created = await api.call('POST', '/api/campaigns', {
    token,
    json: { subject: 'Cleanroom qualification in 2027', markdown: 'What changes with Annex 1.' },
  });
  issue = created.body.id;
  expect((await api.call('POST', `/api/campaigns/${issue}/send`, { token })).status).toBe(202);
  await api.settle();
  await runWorker(api.db);
  // A complaint report naming only the address belongs to the latest mail to it: the issue's copy.
  expect(
    await applyMailEvent(api.db, {
      source: 'arf',
      kind: 'complaint',
      eventId: '<arf-1@reports.example>',
      recipient: READER,
      at: new Date('2026-11-20T08:00:00Z'),
    }),
  ).toBe('applied');

  // Their preference changes, as the preference page and the admin write them (db/migrations/0018).
  await api.db.query(
    `INSERT INTO subscriber_changes (subscriber_id, at, kind, detail, admin_id) VALUES
       ($1, '2026-11-01T10:00:00Z', 'topics', '{"from": [], "to": ["pharma"]}', NULL),
       ($1, '2026-11-02T10:00:00Z', 'language', '{"from": "en", "to": "de"}',
         (SELECT id FROM admins WHERE email = $2))`,
    [reader, ADMIN.email],
  );

  // Someone from the firm's trade-fair list, with consent on record.
  const status = await importCsv(
    'email;name;language;topics\nj.weber@anlagenbau.example;Jonas Weber;de;pharma\n',
  );
  expect(status).toMatchObject({ state: 'done', added: 1 });
  imported = (await idOf(IMPORTED))!;
});

describe('GET /api/newsletter/{id}', () => {
  test('shows sign-up, consent, confirmation, language, issues with outcome, changes and complaints', async () => {
    const reply = await api.call('GET', `/api/newsletter/${reader}`, { token });
    expect(reply.status, reply.text).toBe(200);
    const record = reply.body;
    expect(record).toMatchObject({
      id: reader,
      email: 'Mira.Kostic@pharma-plant.example',
      status: 'complained',
      lang: 'en',
      form: { page: '/blog/gmp-annex-1' },
      consent: { mode: 'form', version: NEWSLETTER_CONSENT_VERSION, source: null },
      imports: [],
      suppression: { reason: 'complaint', source: 'arf' },
    });
    expect(Date.parse(record.consent.at)).not.toBeNaN();
    expect(Date.parse(record.confirmation.sentAt)).not.toBeNaN();
    expect(Date.parse(record.confirmation.confirmedAt)).toBeGreaterThanOrEqual(Date.parse(record.consent.at));
    expect(record.issues).toEqual([
      expect.objectContaining({
        campaignId: issue,
        subject: 'Cleanroom qualification in 2027',
        lang: 'en',
        outcome: 'complained',
      }),
    ]);
    expect(record.mail.map((m: { template: string; outcome: string }) => [m.template, m.outcome])).toEqual([
      ['newsletter-confirm', 'sent'],
      ['newsletter-welcome', 'sent'],
    ]);
    expect(record.changes).toEqual([
      {
        at: '2026-11-01T10:00:00.000Z',
        kind: 'topics',
        detail: { from: [], to: ['pharma'] },
        by: 'subscriber',
      },
      { at: '2026-11-02T10:00:00.000Z', kind: 'language', detail: { from: 'en', to: 'de' }, by: 'firm' },
    ]);
    expect(record.bounces).toEqual([
      {
        kind: 'complaint',
        at: '2026-11-20T08:00:00.000Z',
        source: 'arf',
        status: null,
        diagnostic: null,
        campaignId: issue,
      },
    ]);
  });

  test('shows the import and its source for a contact from the firm’s list', async () => {
    const { body } = await api.call('GET', `/api/newsletter/${imported}`, { token });
    expect(body).toMatchObject({
      email: IMPORTED,
      name: 'Jonas Weber',
      status: 'confirmed',
      lang: 'de',
      topics: ['pharma'],
      form: null,
      consent: { mode: 'consented', version: null, source: 'Achema 2026 stand, signed form' },
      imports: [{ source: 'Achema 2026 stand, signed form', mode: 'consented', line: 2, outcome: 'added' }],
      issues: [],
      changes: [],
      bounces: [],
      suppression: null,
    });
    expect(body.consent.at.slice(0, 10)).toBe('2026-06-12');
  });

  test('is refused to sales and without a token; an unknown id is 404 and a bad one 400', async () => {
    expect((await api.call('GET', `/api/newsletter/${reader}`, { token: salesToken })).status).toBe(403);
    expect((await api.call('GET', `/api/newsletter/${reader}`)).status).toBe(401);
    expect((await api.call('GET', '/api/newsletter/2147483647', { token })).body.error.code).toBe(
      'not_found',
    );
    expect((await api.call('GET', '/api/newsletter/abc', { token })).status).toBe(400);
    expect((await api.call('GET', `/api/newsletter/${reader}?full=1`, { token })).status).toBe(400);
  });
});

describe('GET /api/newsletter/{id}/export', () => {
  test('is the record as a JSON download, logged with who exported it', async () => {
    const record = (await api.call('GET', `/api/newsletter/${imported}`, { token })).body;
    const reply = await api.call('GET', `/api/newsletter/${imported}/export`, { token });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="korvel-subscriber-${imported}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual({
      controller: 'Korvel Engineering d.o.o.',
      exportedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      subscriber: record,
    });
    const [logged] = await api.db.query<{ actor_email: string; target: string }>(
      `SELECT actor_email, target FROM activity_log WHERE action = 'subscriber.export' ORDER BY id DESC LIMIT 1`,
    );
    expect(logged).toEqual({ actor_email: ADMIN.email, target: `subscriber ${imported}` });
  });

  test('an editor may export too', async () => {
    const reply = await api.call('GET', `/api/newsletter/${imported}/export`, { token: editorToken });
    expect(reply.status).toBe(200);
    expect(reply.body.subscriber.email).toBe(IMPORTED);
  });

  test('is refused to sales, logs nothing then, and is 404 for nobody', async () => {
    const before = await api.db.query(`SELECT id FROM activity_log WHERE action = 'subscriber.export'`);
    const refused = await api.call('GET', `/api/newsletter/${imported}/export`, { token: salesToken });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-disposition')).toBeNull();
    expect((await api.call('GET', '/api/newsletter/2147483647/export', { token })).status).toBe(404);
    const after = await api.db.query(`SELECT id FROM activity_log WHERE action = 'subscriber.export'`);
    expect(after).toHaveLength(before.length);
  });
});

describe('DELETE /api/newsletter/{id} (erase)', () => {
  test('sales cannot erase: 403 and the subscriber stays', async () => {
    expect((await api.call('DELETE', `/api/newsletter/${reader}`, { token: salesToken })).status).toBe(403);
    expect(await idOf(READER)).toBe(reader);
  });

  test('leaves the address nowhere but as a hash with reason erased, and is logged', async () => {
    expect((await rowsMentioning('mira.kostic')).length).toBeGreaterThan(0);
    const reply = await api.call('DELETE', `/api/newsletter/${reader}`, { token });
    expect(reply.status).toBe(204);
    expect(await rowsMentioning('mira.kostic')).toEqual([]);
    expect(await rowsMentioning('pharma-plant')).toEqual([]);
    const [suppression] = await api.db.query(
      'SELECT reason, source, email, detail FROM mail_suppressions WHERE email_hash = $1',
      [emailHash(READER)],
    );
    expect(suppression).toEqual({ reason: 'erased', source: 'admin', email: null, detail: null });
    expect(
      await api.db.query('SELECT id FROM subscriber_changes WHERE subscriber_id = $1', [reader]),
    ).toEqual([]);
    // The issue's counts stay: its copy and the complaint remain, tied to no one.
    const [copy] = await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE campaign_id = $1 AND template = 'campaign'
         AND status = 'sent' AND recipient IS NULL AND subscriber_id IS NULL`,
      [issue],
    );
    expect(copy!.n).toBe(1);
    const [complaint] = await api.db.query(
      `SELECT subscriber_id, email_hash FROM mail_events WHERE campaign_id = $1 AND kind = 'complaint'`,
      [issue],
    );
    expect(complaint).toEqual({ subscriber_id: null, email_hash: null });
    const [logged] = await api.db.query(
      `SELECT actor_email, target FROM activity_log WHERE action = 'subscriber.erase' ORDER BY id DESC LIMIT 1`,
    );
    expect(logged).toEqual({ actor_email: ADMIN.email, target: `subscriber ${reader}` });
    expect((await api.call('GET', `/api/newsletter/${reader}`, { token })).status).toBe(404);
    expect((await api.call('DELETE', `/api/newsletter/${reader}`, { token })).status).toBe(404);
  });

  test('an import of the erased address afterwards reports it as suppressed and adds nothing', async () => {
    expect((await api.call('DELETE', `/api/newsletter/${imported}`, { token: editorToken })).status).toBe(
      204,
    );
    expect(await rowsMentioning('anlagenbau')).toEqual([]);
    const status = await importCsv(`email\n${READER}\nJ.Weber@Anlagenbau.example\n`);
    expect(status).toMatchObject({ state: 'done', total: 2, added: 0, updated: 0 });
    expect(status.rejected).toEqual([
      { line: 2, reason: 'the person had their data erased: only the person can subscribe again' },
      { line: 3, reason: 'the person had their data erased: only the person can subscribe again' },
    ]);
    expect(await idOf(READER)).toBeUndefined();
    expect(await idOf(IMPORTED)).toBeUndefined();
  });

  test('a later complaint report never writes the erased address back', async () => {
    await recordAndSuppress(api.db, null, {
      email: READER,
      reason: 'complaint',
      source: 'arf',
      detail: 'a late report',
      status: 'complained',
      cancelReason: 'the address is suppressed: its owner marked our mail as spam',
    });
    const [suppression] = await api.db.query(
      'SELECT reason, email FROM mail_suppressions WHERE email_hash = $1',
      [emailHash(READER)],
    );
    expect(suppression).toEqual({ reason: 'erased', email: null });
  });

  test('the erasure shows on the suppression list without an address and cannot be lifted there', async () => {
    const list = await api.call('GET', '/api/suppressions?reason=erased', { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body.every((s: { email: string | null }) => s.email === null)).toBe(true);
    const lift = await api.call('DELETE', `/api/suppressions/${list.body[0].id}`, { token });
    expect(lift.status).toBe(409);
  });
});
