/**
 * The Suppression list tab (issue 34) in the browser, against the preview server and its embedded database:
 * what the owner and an editor see, the search, an axe scan with the list and with the lift dialog open, and
 * a bounce lifted from the keyboard. Each run works on addresses of its own.
 */
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

// Every step waits on a function call, and a loaded machine makes those slow.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 150_000 });

const t = (key: string) => message(`admin:${key}`);
const hash = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('hex');

const tag = unique('supp');
const gone = `gone-${tag}@list.example`;
const spam = `spam-${tag}@list.example`;
let owner: Credentials;
let editor: Credentials;
let ownerToken: string;
let editorToken: string;

test.beforeAll(async ({ request }) => {
  owner = await createAdmin('e2e-supp-owner');
  editor = await createAdmin('e2e-supp-editor', 'editor');
  ownerToken = await apiToken(request, owner);
  editorToken = await apiToken(request, editor);
  await sql(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at) VALUES ($1, 'bounced', now(), now()),
       ($2, 'complained', now(), now())`,
    [gone, spam],
  );
  await sql(
    `INSERT INTO mail_suppressions (email_hash, reason, source, email, detail) VALUES
       ($1, 'hard_bounce', 'smtp', $2, '550 5.1.1 <(recipient)>: no such user here'),
       ($3, 'complaint', 'arf', $4, 'feedback type abuse')`,
    [hash(gone), gone, hash(spam), spam],
  );
});

test.afterAll(async () => {
  await sql('DELETE FROM mail_suppressions WHERE email_hash = ANY($1::text[])', [[hash(gone), hash(spam)]]);
  await sql('DELETE FROM subscribers WHERE email = ANY($1::text[])', [[gone, spam]]);
  if (owner) await removeAdmin(owner);
  if (editor) await removeAdmin(editor);
});

const list = (page: Page) => page.getByRole('table', { name: t('suppressions.heading') });

/** Opens the tab and searches for this run's addresses, until the complaint (never lifted) shows. */
async function openList(page: Page, token: string) {
  await openPanel(page, token);
  await page.getByRole('tab', { name: t('tabs.suppressions') }).click();
  await page.getByRole('searchbox', { name: t('suppressions.search') }).fill(tag);
  await expect(list(page).locator('tbody tr').filter({ hasText: spam })).toHaveCount(1);
}

test(
  'the owner sees why each address is suppressed and lifts a bounce from the keyboard',
  DESKTOP,
  async ({ page }) => {
    await openList(page, ownerToken);
    await expect(list(page).locator('tbody tr')).toHaveCount(2);
    const bounce = list(page).locator('tbody tr').filter({ hasText: gone });
    await expect(bounce).toContainText(t('suppressions.reason_hard_bounce'));
    await expect(bounce).toContainText(t('suppressions.source_smtp'));
    await expect(bounce).toContainText('550 5.1.1');
    const complaint = list(page).locator('tbody tr').filter({ hasText: spam });
    await expect(complaint).toContainText(t('suppressions.reason_complaint'));
    // A complaint is lifted only by a confirmed sign-up: no button for it.
    await expect(complaint.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: t('suppressions.rates_title') })).toBeVisible();
    await expectNoAxeViolations(page);

    await bounce.getByRole('button', { name: `${t('suppressions.lift')} ${gone}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: t('suppressions.lift_title') });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(gone);
    await expectNoAxeViolations(page);
    // Focus starts on Cancel; Tab reaches the lift button.
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: t('suppressions.lift_accept') })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('.admin-toast').filter({ hasText: t('suppressions.lifted') })).toBeVisible();
    await expect(list(page).locator('tbody tr')).toHaveCount(1);
    const [subscriber] = await sql<{ status: string }>('SELECT status FROM subscribers WHERE email = $1', [
      gone,
    ]);
    expect(subscriber!.status).toBe('confirmed');
    const [logged] = await sql<{ actor_email: string }>(
      `SELECT actor_email FROM activity_log WHERE action = 'suppression.lift' ORDER BY id DESC LIMIT 1`,
    );
    expect(logged!.actor_email).toBe(owner.email);
  },
);

test('an editor reads the list and is told who can lift, with no lift button', DESKTOP, async ({ page }) => {
  await openList(page, editorToken);
  await expect(page.getByText(t('suppressions.lift_only_owner'))).toBeVisible();
  await expect(list(page).getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: t('suppressions.col_action') })).toHaveCount(0);
});
