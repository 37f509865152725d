/**
 * A subscriber's record (issue 36, item 4) in the browser at both widths, against the preview and its embedded
 * database: a subscriber imported with consent on record, sent an issue that bounced for now, with a preference
 * change, opened from the list; the record shows each part; Export downloads the JSON; Erase asks first, then
 * leaves only the hash on the suppression list. axe scans the record and the confirmation. Each run works on an
 * address of its own.
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import {
  apiToken,
  createAdmin,
  openPanel,
  removeAdmin,
  sql,
  unique,
  type Credentials,
} from './admin-support.ts';
import { expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const t = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce(
    (text, [name, value]) => text.replace(`{${name}}`, String(value)),
    message(`admin:${key}`),
  );

let owner: Credentials;
let token: string;
const tags: string[] = [];

test.beforeAll(async ({ request }) => {
  owner = await createAdmin('e2e-record-owner');
  token = await apiToken(request, owner);
});

test.afterAll(async () => {
  for (const tag of tags) {
    await sql('DELETE FROM subscribers WHERE email LIKE $1', [`%${tag}%`]);
    await sql('DELETE FROM subscriber_imports WHERE source LIKE $1', [`%${tag}%`]);
    await sql('DELETE FROM outbox WHERE idempotency_key LIKE $1', [`%${tag}%`]);
    await sql('DELETE FROM campaigns WHERE subject LIKE $1', [`%${tag}%`]);
    await sql('DELETE FROM mail_suppressions WHERE email_hash = $1', [hashOf(addressOf(tag))]);
  }
  if (owner) await removeAdmin(owner);
});

const addressOf = (tag: string) => `vesna-${tag}@pharma-plant.example`;
const hashOf = (email: string) => createHash('sha256').update(email).digest('hex');

/** A subscriber from a trade-fair import, sent one issue that bounced for now, who later switched to German. */
async function seed(tag: string) {
  const email = addressOf(tag);
  const source = `Achema 2026 stand, signed form (${tag})`;
  const [job] = await sql<{ id: number }>(
    `INSERT INTO subscriber_imports (created_by, mode, source, total, processed, added, state, finished_at)
     VALUES ((SELECT id FROM admins WHERE email = $1), 'consented', $2, 1, 1, 1, 'done', now()) RETURNING id`,
    [owner.email, source],
  );
  const [subscriber] = await sql<{ id: number }>(
    `INSERT INTO subscribers (email, status, lang, name, topics, consent_mode, consent_source, consented_at,
       confirmed_at, import_id)
     VALUES ($1, 'confirmed', 'de', 'Vesna Marković', '{pharma}', 'consented', $2, '2026-06-12T10:00:00Z', now(), $3)
     RETURNING id`,
    [email, source, job!.id],
  );
  const id = subscriber!.id;
  await sql(
    `INSERT INTO subscriber_import_rows (import_id, line, email, name, lang, outcome, subscriber_id)
     VALUES ($1, 2, $2, 'Vesna Marković', 'de', 'added', $3)`,
    [job!.id, email, id],
  );
  const [campaign] = await sql<{ id: number }>(
    `INSERT INTO campaigns (subject, markdown, status, lang, recipients, send_started_at, finished_at)
     VALUES ($1, 'Annex 1 in practice.', 'sent', 'de', 1, now(), now()) RETURNING id`,
    [`Reinraumqualifizierung 2027 (${tag})`],
  );
  const [copy] = await sql<{ id: number }>(
    `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id, campaign_id, status, sent_at)
     VALUES ($1, 'campaign', $2, $3, $4, 'failed', now()) RETURNING id`,
    [`campaign:${tag}`, email, id, campaign!.id],
  );
  await sql(
    `INSERT INTO mail_events (source, event_id, kind, outbox_id, campaign_id, subscriber_id, email_hash, status,
       diagnostic, occurred_at)
     VALUES ('smtp', $1, 'soft_bounce', $2, $3, $4, $5, '4.2.2', 'mailbox full', now())`,
    [`soft-${tag}`, copy!.id, campaign!.id, id, hashOf(email)],
  );
  await sql(
    `INSERT INTO subscriber_changes (subscriber_id, kind, detail) VALUES ($1, 'language', '{"from": "en", "to": "de"}')`,
    [id],
  );
  return { id, email, source, subject: `Reinraumqualifizierung 2027 (${tag})` };
}

test('opening a subscriber shows the record; Export downloads it; Erase asks, then erases', async ({
  page,
}) => {
  const tag = unique('record');
  tags.push(tag);
  const { id, email, source, subject } = await seed(tag);
  await openPanel(page, token);
  await page.getByRole('searchbox', { name: message('admin:subscribers.search') }).fill(email);
  const row = page.getByRole('table').locator('tbody tr').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  const open = row.getByRole('button', { name: `${t('subscriber_record.open')} ${email}` });
  await open.click();

  const record = page.getByRole('dialog', { name: new RegExp(t('subscriber_record.title')) });
  await expect(record).toBeVisible();
  await expect(record.getByRole('heading', { level: 2 })).toContainText(email);
  await expect(record).toContainText('Vesna Marković');
  const signUp = record.getByRole('region', { name: t('subscriber_record.section_signup') });
  await expect(signUp).toContainText(t('subscriber_record.consent_consented'));
  await expect(signUp).toContainText(source);
  await expect(signUp).toContainText(t('subscriber_record.via_import', { id: '' }).trim());
  const preferences = record.getByRole('region', { name: t('subscriber_record.section_preferences') });
  await expect(preferences).toContainText(t('subscriber_record.lang_de'));
  await expect(preferences).toContainText(message('nav:sectors.pharma'));
  await expect(record.getByRole('region', { name: t('subscriber_record.section_imports') })).toContainText(
    t('subscriber_record.import_added'),
  );
  const issues = record.getByRole('region', { name: t('subscriber_record.section_issues') });
  await expect(issues).toContainText(subject);
  await expect(issues).toContainText(t('subscriber_record.outcome_soft_bounced'));
  await expect(record.getByRole('region', { name: t('subscriber_record.section_changes') })).toContainText(
    t('subscriber_record.change_language', {
      from: t('subscriber_record.lang_en'),
      to: t('subscriber_record.lang_de'),
    }),
  );
  const bounces = record.getByRole('region', { name: t('subscriber_record.section_bounces') });
  await expect(bounces).toContainText(t('subscriber_record.kind_soft_bounce'));
  await expect(bounces).toContainText('mailbox full');
  await expect(record.getByRole('button', { name: t('subscriber_record.close') })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('record.png') });
  await record.getByRole('button', { name: t('subscriber_record.close') }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('record-actions.png') });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    record.getByRole('button', { name: t('subscriber_record.export') }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^korvel-subscriber-${id}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
  );
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(exported.subscriber).toMatchObject({ id, email, name: 'Vesna Marković', lang: 'de' });
  expect(exported.subscriber.issues).toEqual([expect.objectContaining({ subject, outcome: 'soft_bounced' })]);

  // Erase: cancelling changes nothing; confirming erases and the row leaves the list.
  const erase = record.getByRole('button', { name: t('subscriber_record.erase'), exact: true });
  await erase.click();
  const confirm = page.getByRole('dialog', { name: t('subscriber_record.erase_title') });
  await expect(confirm).toContainText(email);
  await expect(confirm.getByRole('button', { name: t('subscriber_record.erase_cancel') })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('record-erase.png') });
  await confirm.getByRole('button', { name: t('subscriber_record.erase_cancel') }).click();
  await expect(confirm).toBeHidden();
  await expect(record).toBeVisible();
  expect(await sql('SELECT id FROM subscribers WHERE id = $1', [id])).toHaveLength(1);

  await erase.click();
  await confirm.getByRole('button', { name: t('subscriber_record.erase_accept') }).click();
  await expect(page.getByText(t('subscriber_record.erased'))).toBeVisible();
  await expect(record).toBeHidden();
  await expect(row).toHaveCount(0);
  expect(await sql('SELECT id FROM subscribers WHERE id = $1', [id])).toEqual([]);
  const [suppression] = await sql(
    'SELECT reason, source, email FROM mail_suppressions WHERE email_hash = $1',
    [hashOf(email)],
  );
  expect(suppression).toEqual({ reason: 'erased', source: 'admin', email: null });
  expect(await sql('SELECT email FROM subscriber_import_rows WHERE subscriber_id = $1', [id])).toEqual([
    { email: null },
  ]);
});
