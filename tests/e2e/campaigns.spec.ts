/**
 * Newsletter issues from the admin, through the preview, its functions, the mail worker and the local SMTP
 * catcher: compose with a live preview, send a test copy, send to every confirmed subscriber of the issue's
 * language behind a dialog that names how many, follow the progress to "Sent", and check what each reader
 * received (a German issue: the German readers only).
 */
import type { Page } from '@playwright/test';
import { apiToken, bearer, createAdmin, openPanel, removeAdmin, sql, unique } from './admin-support.ts';
import germanMail from '../../src/i18n/locales/de/mail.json' with { type: 'json' };
import { caughtMail } from './mail-inbox.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';
import { REFUSED_ADDRESS } from '../../playwright.config.ts';

// Every step crosses the local function runtime and the mail worker: allow for a loaded machine.
const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 300_000 });

const t = (key: string) => message(`admin:campaigns.${key}`);
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

/**
 * axe checks the admin page; the preview frame is sandboxed without scripts, so axe cannot run inside it
 * (and would wait for it until the test times out). What the frame shows is the mail, checked in the API tests.
 */
async function startIssue(page: Page, subject: string) {
  await page.getByRole('tab', { name: message('admin:tabs.campaigns') }).click();
  await page.getByRole('button', { name: t('new') }).click();
  await expect(page.getByRole('heading', { name: t('new_heading') })).toBeFocused();
  await page.getByLabel(t('subject')).fill(subject);
  await page.getByLabel(t('preheader')).fill('Three findings from recent Annex 1 inspections.');
  await page
    .getByLabel(t('markdown'))
    .fill(
      '## What inspectors ask\n\nA **contamination control strategy** that names its owners.\n\n- Filter integrity\n- Glove checks',
    );
  await page
    .getByRole('group', { name: t('articles') })
    .getByRole('checkbox')
    .first()
    .check();
}

test('an issue is composed with a live preview and passes axe at this width', async ({ page, request }) => {
  const admin = await createAdmin('issue-editor');
  try {
    await openPanel(page, await apiToken(request, admin));
    const subject = `Annex 1 notes ${unique('preview')}`;
    await startIssue(page, subject);
    const frame = page.frameLocator(`iframe[title="${t('preview_frame')}"]`);
    await expect(frame.getByRole('heading', { name: subject })).toBeVisible();
    await expect(frame.getByText('contamination control strategy')).toBeVisible();
    await expect(frame.getByRole('link', { name: message('mail:campaign.read') }).first()).toBeVisible();

    await page.getByRole('button', { name: t('preview_phone') }).click();
    await expect(page.getByRole('button', { name: t('preview_phone') })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.getByRole('button', { name: t('preview_text') }).click();
    await expect(page.getByLabel(t('preview_text'), { exact: true })).toContainText('Filter integrity');

    // Without a subject the draft is not saved: the error summary takes focus and the field is marked.
    await page.getByLabel(t('subject')).fill('');
    await page.getByRole('button', { name: t('save') }).click();
    await expect(page.getByRole('alert')).toBeFocused();
    await expect(page.getByLabel(t('subject'))).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel(t('subject')).fill(subject);
    await expectNoAxeViolations(page, (scan) => scan.exclude('.admin-preview__frame'));
    await page.screenshot({ path: test.info().outputPath('campaign-editor.png'), fullPage: true });
  } finally {
    await removeAdmin(admin);
  }
});

/**
 * Whom a send of an issue in `lang` without topics reaches now: the dialog counts exactly these (GET
 * /api/campaigns/{id}/audience), the button the language's confirmed subscribers, paused readers included.
 */
async function reachable(lang: 'en' | 'de'): Promise<number> {
  return confirmedIn(lang, 'AND (paused_until IS NULL OR paused_until <= now())');
}

/** The language's confirmed subscribers now (what the send button counts), narrowed by `and` if given. */
async function confirmedIn(lang: 'en' | 'de', and = ''): Promise<number> {
  const [row] = await sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM subscribers WHERE status = 'confirmed' AND lang = $1 ${and}`,
    [lang],
  );
  return row!.n;
}

test(
  'compose, test, send to every confirmed subscriber, follow the progress to Sent',
  DESKTOP,
  async ({ page, request }) => {
    // Desktop project only: one send per run is enough; it mails the whole list.
    const admin = await createAdmin('issue-sender');
    const tag = unique('issue');
    const readers = [1, 2, 3].map((n) => `${tag}-r${n}@list.example`);
    const pending = `${tag}-pending@list.example`;
    await sql(
      `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
      [readers],
    );
    await sql(`INSERT INTO subscribers (email, status, consented_at) VALUES ($1, 'pending', now())`, [
      pending,
    ]);
    try {
      const token = await apiToken(request, admin);
      await openPanel(page, token);
      const subject = `Quarterly notes ${tag}`;
      await startIssue(page, subject);

      await page.getByRole('button', { name: t('send_test') }).click();
      await expect(
        page.locator('.admin-toast').filter({ hasText: fill(t('test_sent'), { email: admin.email }) }),
      ).toBeVisible();
      await expect
        .poll(
          async () =>
            (await caughtMail(request))
              .filter((m) => m.subject === `[Test] ${subject}`)
              .map((m) => m.envelope.to),
          {
            timeout: 60_000,
          },
        )
        .toEqual([[admin.email]]);

      const send = page.getByRole('button', { name: /^Send to \d+ confirmed English subscribers?$/ });
      const count = Number(/\d+/.exec((await send.textContent()) ?? '')![0]);
      expect(count).toBeGreaterThanOrEqual(readers.length);
      await send.click();
      const dialog = page.getByRole('dialog', { name: t('send_title') });
      const language = t('lang_en');
      const exact = await reachable('en');
      await expect(dialog).toContainText(fill(t('send_text_other'), { count: exact, language }));
      await expect(dialog.getByRole('button', { name: t('dialog_cancel') })).toBeFocused();
      await dialog
        .getByRole('button', { name: fill(t('send_accept_other'), { count: exact, language }) })
        .click();

      await expect(page.getByRole('progressbar', { name: t('progress_label') })).toBeVisible();
      await expect(page.locator('.admin-campaign__state .admin-campaign-status')).toHaveText(
        t('status_sent'),
        {
          timeout: 150_000,
        },
      );
      await expectNoAxeViolations(page, (scan) => scan.exclude('.admin-preview__frame'));

      const all = await caughtMail(request);
      for (const reader of readers) {
        const copies = all.filter((m) => m.subject === subject && m.envelope.to.includes(reader));
        expect(copies, reader).toHaveLength(1);
        expect(copies[0]!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
        expect(copies[0]!.headers['list-unsubscribe']).toMatch(
          /^<http[^>]+\/newsletter\/unsubscribe\?token=/,
        );
      }
      expect(all.filter((m) => m.envelope.to.includes(pending))).toEqual([]);

      const [row] = await sql<{ id: number }>('SELECT id FROM campaigns WHERE subject = $1', [subject]);
      const reply = await request.get(`/api/campaigns/${row!.id}`, { headers: bearer(token) });
      const campaign = (await reply.json()) as {
        status: string;
        recipients: number;
        counts: { sent: number };
      };
      expect(campaign.status).toBe('sent');
      expect(campaign.counts.sent).toBe(campaign.recipients);

      await page.getByRole('button', { name: t('back') }).click();
      await expect(page.getByRole('row', { name: new RegExp(subject) })).toContainText(t('status_sent'));
    } finally {
      await sql('DELETE FROM subscribers WHERE email LIKE $1', [`${tag}-%`]);
      await removeAdmin(admin);
    }
  },
);

test(
  'a German issue: the language choice counts and names the German readers, and only they get it',
  DESKTOP,
  async ({ page, request }) => {
    // Desktop project only: one send per run is enough; it mails the whole list.
    const admin = await createAdmin('issue-sender-de');
    const tag = unique('ausgabe');
    const german = [1, 2].map((n) => `${tag}-de${n}@list.example`);
    const english = `${tag}-en@list.example`;
    await sql(
      `INSERT INTO subscribers (email, status, lang, consented_at, confirmed_at)
     SELECT e, 'confirmed', l, now(), now() FROM unnest($1::text[], $2::text[]) AS t(e, l)`,
      [
        [...german, english],
        ['de', 'de', 'en'],
      ],
    );
    // Other tests of the run add and remove German readers meanwhile: the button's count is the list's at the
    // moment the panel asked, somewhere between these two readings.
    const before = await confirmedIn('de');
    try {
      await openPanel(page, await apiToken(request, admin));
      const subject = `Annex 1: Was Inspektoren fragen ${tag}`;
      await startIssue(page, subject);
      const choice = page.getByRole('group', { name: t('lang') });
      await expect(choice.getByRole('radio', { name: t('lang_en') })).toBeChecked();
      await choice.getByRole('radio', { name: t('lang_de') }).check();

      const language = t('lang_de');
      const send = page.getByRole('button', { name: /^Send to \d+ confirmed German subscribers?$/ });
      const count = Number(/\d+/.exec((await send.textContent()) ?? '')![0]);
      const after = await confirmedIn('de');
      expect(count).toBeGreaterThanOrEqual(Math.min(before, after));
      expect(count).toBeLessThanOrEqual(Math.max(before, after));
      // The preview shows the German frame the readers will get.
      const frame = page.frameLocator(`iframe[title="${t('preview_frame')}"]`);
      await expect(frame.getByText(germanMail.campaign.view_online)).toBeVisible();
      await expectNoAxeViolations(page, (scan) => scan.exclude('.admin-preview__frame'));
      await page.screenshot({ path: test.info().outputPath('campaign-editor-german.png'), fullPage: true });

      await send.click();
      const dialog = page.getByRole('dialog', { name: t('send_title') });
      const exact = await reachable('de');
      await expect(dialog).toContainText(fill(t('send_text_other'), { count: exact, language }));
      await dialog
        .getByRole('button', { name: fill(t('send_accept_other'), { count: exact, language }) })
        .click();
      await expect(page.locator('.admin-campaign__state .admin-campaign-status')).toHaveText(
        t('status_sent'),
        {
          timeout: 150_000,
        },
      );

      const all = (await caughtMail(request)).filter((m) => m.subject === subject);
      expect(
        all
          .flatMap((m) => m.envelope.to)
          .filter((to) => to.startsWith(tag))
          .sort(),
      ).toEqual(german);
      expect(all[0]!.headers['list-unsubscribe']).toMatch(/^<http[^>]+\/de\/newsletter\/unsubscribe\?token=/);

      await page.getByRole('button', { name: t('back') }).click();
      await expect(page.getByRole('row', { name: new RegExp(subject) })).toContainText(language);
    } finally {
      await sql('DELETE FROM subscribers WHERE email LIKE $1', [`${tag}-%`]);
      await removeAdmin(admin);
    }
  },
);

test(
  'an address the mail server refuses for good is suppressed at the send and left out of the next issue',
  DESKTOP,
  async ({ request }) => {
    // Desktop project only, and in this file so that no other send runs meanwhile: it mails the whole list.
    const admin = await createAdmin('issue-bounces');
    const tag = unique('bounce');
    const reader = `${tag}-reader@list.example`;
    await sql('DELETE FROM mail_suppressions WHERE email = $1', [REFUSED_ADDRESS]);
    await sql('DELETE FROM subscribers WHERE email = $1', [REFUSED_ADDRESS]);
    await sql(
      `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
       SELECT e, 'confirmed', now(), now() FROM unnest($1::text[]) AS e`,
      [[reader, REFUSED_ADDRESS]],
    );
    try {
      const headers = bearer(await apiToken(request, admin));
      /** Creates and sends an issue; resolves once it is Sent, with its copies' recipients. */
      const sendIssue = async (subject: string) => {
        const created = await request.post('/api/campaigns', {
          headers,
          data: { subject, markdown: 'Two dates for the **Annex 1** workshop.' },
        });
        const { id } = (await created.json()) as { id: number };
        expect((await request.post(`/api/campaigns/${id}/send`, { headers })).status()).toBe(202);
        const campaign = async () =>
          (await (await request.get(`/api/campaigns/${id}`, { headers })).json()) as {
            status: string;
            delivery: { sent: number; hardBounces: number };
          };
        await expect.poll(async () => (await campaign()).status, { timeout: 150_000 }).toBe('sent');
        // A copy names its reader by the subscriber row (the address is emptied 30 days on).
        const recipients = await sql<{ recipient: string }>(
          `SELECT coalesce(o.recipient, s.email) AS recipient
             FROM outbox o LEFT JOIN subscribers s ON s.id = o.subscriber_id WHERE o.campaign_id = $1`,
          [id],
        );
        return { delivery: (await campaign()).delivery, recipients: recipients.map((r) => r.recipient) };
      };

      const first = await sendIssue(`Workshop dates ${tag}`);
      expect(first.recipients).toEqual(expect.arrayContaining([reader, REFUSED_ADDRESS]));
      expect(first.delivery.hardBounces).toBe(1);
      const [subscriber] = await sql<{ status: string }>('SELECT status FROM subscribers WHERE email = $1', [
        REFUSED_ADDRESS,
      ]);
      expect(subscriber!.status).toBe('bounced');
      const listed = await request.get(`/api/suppressions?q=${encodeURIComponent(REFUSED_ADDRESS)}`, {
        headers,
      });
      expect(
        ((await listed.json()) as { email: string; reason: string; source: string; detail: string }[]).map(
          (row) => [row.email, row.reason, row.source, /^550 5\.1\.1/.test(row.detail)],
        ),
      ).toEqual([[REFUSED_ADDRESS, 'hard_bounce', 'smtp', true]]);

      const second = await sendIssue(`Workshop reminder ${tag}`);
      expect(second.recipients).toContain(reader);
      expect(second.recipients).not.toContain(REFUSED_ADDRESS);
      const caught = (await caughtMail(request)).filter((m) => m.subject.endsWith(tag));
      expect(caught.filter((m) => m.envelope.to.includes(reader))).toHaveLength(2);
      expect(caught.filter((m) => m.envelope.to.includes(REFUSED_ADDRESS))).toEqual([]);
    } finally {
      await sql('DELETE FROM mail_suppressions WHERE email = $1', [REFUSED_ADDRESS]);
      await sql('DELETE FROM subscribers WHERE email = ANY($1::text[])', [[reader, REFUSED_ADDRESS]]);
      await removeAdmin(admin);
    }
  },
);
