/**
 * Scheduled issues and the public archive (issue 36) through the preview, its functions and the mail worker it
 * calls every 5 s: an issue scheduled in the admin (Belgrade time) is sent by the scheduled function once its
 * moment has come, then appears in the archive at /newsletter, whose pages (and the empty state) pass axe.
 */
import type { Page } from '@playwright/test';
import { apiToken, bearer, createAdmin, openPanel, removeAdmin, sql, unique } from './admin-support.ts';
import { caughtMail } from './mail-inbox.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';

// Every step crosses the local function runtime and the mail worker: allow for a loaded machine.
const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 300_000 });

const t = (key: string) => message(`admin:campaigns.${key}`);
const archive = (key: string) => message(`newsletter:archive.${key}`);

/** Tomorrow at 10:00 on Belgrade's clock, as a `datetime-local` value. */
function tomorrowAtTenInBelgrade(): string {
  const day = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Belgrade', dateStyle: 'short' }).format(
    new Date(Date.now() + 86_400_000),
  );
  return `${day}T10:00`;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test(
  'an issue scheduled in the admin is sent by the scheduled function and then listed in the archive',
  DESKTOP,
  async ({ page, request }) => {
    // Desktop project only: it mails every confirmed English subscriber of the preview's list.
    const admin = await createAdmin('issue-scheduler');
    const tag = unique('scheduled');
    const readers = [1, 2].map((n) => `${tag}-r${n}@list.example`);
    await sql(
      `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
       SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
      [readers],
    );
    try {
      const token = await apiToken(request, admin);
      await openPanel(page, token);
      await page.getByRole('tab', { name: message('admin:tabs.campaigns') }).click();
      await page.getByRole('button', { name: t('new') }).click();
      const subject = `Plant notes ${tag}`;
      await page.getByLabel(t('subject')).fill(subject);
      await page
        .getByLabel(t('preheader'))
        .fill('What a pinch analysis tells you before you buy a heat pump.');
      await page
        .getByLabel(t('markdown'))
        .fill('## Heat first\n\nA **pinch analysis** shows where a heat pump pays.');

      const schedule = page.getByRole('group', { name: t('schedule_legend') });
      await expect(schedule).toContainText(t('schedule_none'));
      await schedule.getByLabel(t('schedule_when')).fill(tomorrowAtTenInBelgrade());
      await schedule.getByRole('button', { name: t('schedule_save') }).click();
      const state = schedule.getByRole('status');
      await expect(state).toContainText(/Scheduled for \w{3}, \d{1,2} \w{3} \d{4}, 10:00 Belgrade time/);
      await expect(schedule.getByRole('button', { name: t('schedule_clear') })).toBeVisible();
      await expectNoAxeViolations(page, (scan) => scan.exclude('.admin-preview__frame'));
      await shot(page, 'issue-scheduled');

      const [row] = await sql<{ id: number; scheduled_at: Date }>(
        'SELECT id, scheduled_at FROM campaigns WHERE subject = $1',
        [subject],
      );
      expect(row!.scheduled_at.toISOString()).toMatch(/T0[89]:00:00\.000Z$/);
      // Time passes: the moment comes, and the preview's worker (every 5 s) starts the issue.
      await sql(`UPDATE campaigns SET scheduled_at = now() - interval '1 second' WHERE id = $1`, [row!.id]);
      await expect
        .poll(
          async () =>
            (await caughtMail(request))
              .filter((m) => m.subject === subject && readers.some((r) => m.envelope.to.includes(r)))
              .map((m) => m.envelope.to[0])
              .sort(),
          { timeout: 150_000 },
        )
        .toEqual(readers);

      await expect
        .poll(
          async () => {
            const reply = await request.get(`/api/campaigns/${row!.id}`, { headers: bearer(token) });
            return ((await reply.json()) as { status: string }).status;
          },
          { timeout: 150_000 },
        )
        .toBe('sent');
      const started = await sql<{ action: string }>(
        `SELECT action FROM activity_log WHERE target LIKE $1 ORDER BY id`,
        [`campaign ${row!.id}%`],
      );
      expect(started.map((entry) => entry.action)).toEqual(['campaign.schedule', 'campaign.scheduled_start']);

      await page.getByRole('button', { name: t('back') }).click();
      await page.getByRole('button', { name: `${t('open')}: ${subject}` }).click();
      await expect(page.locator('.admin-campaign__state .admin-campaign-status')).toHaveText(
        t('status_sent'),
      );
      await expect(page.getByText(/Started by the schedule, planned for/)).toBeVisible();
      await expect(page.getByRole('checkbox', { name: t('archive_on') })).toBeChecked();
      await expectNoAxeViolations(page, (scan) => scan.exclude('.admin-preview__frame'));
      await shot(page, 'issue-sent-by-schedule');

      await page.goto('/newsletter');
      const entry = page.getByRole('listitem').filter({ hasText: subject });
      await expect(entry).toContainText(archive('sent_on'));
      await expectNoAxeViolations(page);
      await shot(page, 'archive-with-issue');
      await entry.getByRole('link', { name: subject }).click();
      await expect(page.getByRole('heading', { name: subject })).toBeVisible();
      expect(await page.content()).not.toMatch(/unsubscribe\?token|\/newsletter\/click\//);

      // Taken out of the archive in the admin, the issue leaves the page.
      await openPanel(page, token);
      await page.getByRole('tab', { name: message('admin:tabs.campaigns') }).click();
      await page.getByRole('button', { name: `${t('open')}: ${subject}` }).click();
      await page.getByRole('checkbox', { name: t('archive_on') }).uncheck();
      await expect(page.locator('.admin-toast').filter({ hasText: t('archive_unlisted') })).toBeVisible();
      const listed = await request.get('/newsletter', { headers: { 'cache-control': 'no-cache' } });
      expect(await listed.text()).not.toContain(subject);
    } finally {
      await sql('DELETE FROM subscribers WHERE email LIKE $1', [`${tag}-%`]);
      await removeAdmin(admin);
    }
  },
);

test('the archive pages in both languages and the empty state pass axe at this width', async ({ page }) => {
  for (const [path, name] of [
    ['/newsletter', 'archive-en'],
    ['/de/newsletter', 'archive-de'],
    // The built page before the function lists anything: the empty state.
    ['/newsletter/index.html', 'archive-empty'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('region', { name: /Issues sent|Versandte Ausgaben/ })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/newsletter$/);
    await expect(page.locator('link[rel="alternate"][hreflang="de"]')).toHaveAttribute(
      'href',
      /\/de\/newsletter$/,
    );
    await expectNoAxeViolations(page);
    await shot(page, name);
  }
  await page.goto('/newsletter/index.html');
  await expect(page.getByRole('heading', { name: archive('empty_title') })).toBeVisible();
});
