/**
 * The Subscribers tab's contact import (issue 36) in the browser at 1440 px, against the preview and its
 * embedded database: a German Excel file (Windows-1252, `;`) whose columns are recognised, consent on record,
 * the progress ending with the counts and the rejected rows, the report downloaded, the list refreshed; a
 * pasted list without an e-mail column stopped before upload, and a file with a formula refused by the server.
 * axe scans the form and the result. Each run works on addresses of its own.
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  apiToken,
  createAdmin,
  openPanel,
  removeAdmin,
  sql,
  unique,
  type Credentials,
} from './admin-support.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 150_000 });

const t = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce(
    (text, [name, value]) => text.replace(`{${name}}`, String(value)),
    message(`admin:${key}`),
  );

const tag = unique('import');
const source = `Achema 2026 stand, signed form (${tag})`;
const unsubscribed = `left-${tag}@plant.example`;
let owner: Credentials;
let token: string;

test.beforeAll(async ({ request }) => {
  owner = await createAdmin('e2e-import-owner');
  token = await apiToken(request, owner);
  // An address that unsubscribed earlier: only its hash is kept.
  await sql('INSERT INTO mail_suppressions (email_hash) VALUES ($1)', [
    createHash('sha256').update(unsubscribed).digest('hex'),
  ]);
});

test.afterAll(async () => {
  await sql('DELETE FROM subscribers WHERE email LIKE $1', [`%${tag}%`]);
  await sql('DELETE FROM subscriber_imports WHERE source LIKE $1', [`%${tag}%`]);
  await sql('DELETE FROM mail_suppressions WHERE email_hash = $1', [
    createHash('sha256').update(unsubscribed).digest('hex'),
  ]);
  if (owner) await removeAdmin(owner);
});

/** Opens the Subscribers tab and unfolds the import. */
async function openImport(page: Page) {
  await openPanel(page, token);
  await page.getByRole('tab', { name: message('admin:tabs.subscribers') }).click();
  await page.getByText(t('subscriber_import.title'), { exact: true }).click();
  return page.getByRole('form', { name: t('subscriber_import.title') });
}

test(
  'a German Excel file is imported with consent on record, and its report downloaded',
  DESKTOP,
  async ({ page }) => {
    const form = await openImport(page);
    const csv = [
      'E-Mail;Name;Sprache;Einwilligungsdatum',
      `juergen-${tag}@mueller.example;Jürgen Müßig;de;12.06.2026`,
      `ruth-${tag}@plant.example;Ruth Okafor;en;12.06.2026`,
      `not-an-address-${tag};Nobody;en;12.06.2026`,
      `${unsubscribed};Left Earlier;en;12.06.2026`,
    ].join('\r\n');
    await form.getByLabel(t('subscriber_import.file')).setInputFiles({
      name: 'messe-kontakte.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'latin1'),
    });
    // The columns are recognised by their German headers.
    await expect(form.getByLabel(t('subscriber_import.field_email'), { exact: true })).toHaveValue('E-Mail');
    await expect(form.getByLabel(t('subscriber_import.field_consentDate'))).toHaveValue('Einwilligungsdatum');
    await expect(form.getByLabel(t('subscriber_import.field_topics'))).toHaveValue('');
    await form.getByLabel(t('subscriber_import.source')).fill(source);
    await expect(form.getByLabel(t('subscriber_import.mode_consented'), { exact: false })).toBeChecked();
    await expectNoAxeViolations(page);

    await form.getByRole('button', { name: t('subscriber_import.start') }).click();
    const done = page.getByRole('heading', { name: t('subscriber_import.state_done') });
    await expect(done).toBeFocused();
    await expect(page.getByText(t('subscriber_import.progress', { processed: 4, total: 4 }))).toBeVisible();
    const counts = page.locator('.admin-import dl');
    await expect(counts.locator('div').filter({ hasText: t('subscriber_import.added') })).toContainText('2');
    await expect(counts.locator('div').filter({ hasText: t('subscriber_import.rejected') })).toContainText(
      '2',
    );
    await expect(page.locator('.admin-import__rejected li')).toHaveText([
      /^Line 4: invalid e-mail address/,
      'Line 5: unsubscribed earlier: only the person can subscribe again',
    ]);
    await expectNoAxeViolations(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t('subscriber_import.report') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^korvel-import-\d+-report\.csv$/);
    const report = await readFile(await download.path(), 'utf8');
    expect(report).toContain(`2,juergen-${tag}@mueller.example,added,`);
    expect(report).toContain(`5,${unsubscribed},rejected,unsubscribed earlier`);

    const [row] = await sql<{ name: string; lang: string; status: string; consent_source: string }>(
      'SELECT name, lang, status, consent_source FROM subscribers WHERE email = $1',
      [`juergen-${tag}@mueller.example`],
    );
    expect(row).toEqual({ name: 'Jürgen Müßig', lang: 'de', status: 'confirmed', consent_source: source });
    // The list below shows the new subscribers without a reload.
    await page.getByRole('searchbox', { name: message('admin:subscribers.search') }).fill(tag);
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(2);
  },
);

test(
  'a pasted list needs an e-mail column, and a file with a formula is refused',
  DESKTOP,
  async ({ page }) => {
    const form = await openImport(page);
    await form.getByLabel(t('subscriber_import.paste')).fill('Name;Firma\nAnn;Korvel');
    await form.getByLabel(t('subscriber_import.source')).fill(source);
    await form.getByLabel(t('subscriber_import.mode_confirm'), { exact: false }).check();
    await form.getByRole('button', { name: t('subscriber_import.start') }).click();
    await expect(form.getByRole('alert')).toHaveText(t('subscriber_import.error_no_email_column'));

    await form.getByLabel(t('subscriber_import.file')).setInputFiles({
      name: 'export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`email,name\nformula-${tag}@x.example,=HYPERLINK("http://evil.example")\n`),
    });
    await form.getByRole('button', { name: t('subscriber_import.start') }).click();
    await expect(form.getByRole('alert')).toHaveText(t('subscriber_import.error_formula_cells'));
    await expectNoAxeViolations(page);
    expect(
      await sql('SELECT 1 FROM subscribers WHERE email = $1', [`formula-${tag}@x.example`]),
    ).toHaveLength(0);
  },
);
