/**
 * Mail through the preview and its local SMTP catcher: the newsletter's double opt-in and one-click
 * unsubscribe as a visitor and the admin see them, a sign-up on a German page answered in German, and a
 * meeting confirmed from the inquiries tab.
 */
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
import { germanMessage } from './i18n-support.ts';
import { waitForMail } from './mail-inbox.ts';
import {
  DESKTOP,
  expectNoAxeViolations,
  expect as baseExpect,
  message,
  reachFor,
  signUpInFooter,
  test,
} from './fixtures.ts';

// Every step crosses the local function runtime and the mail worker: allow for a loaded machine.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const t = (key: string) => message(`admin:${key}`);

const subscriberRow = (page: Page, email: string) =>
  page
    .getByRole('table', { name: t('subscribers.heading') })
    .locator('tbody tr')
    .filter({ hasText: email });

const pendingBadge = (page: Page, email: string) =>
  subscriberRow(page, email).locator('.admin-badge--pending');

async function searchSubscribers(page: Page, token: string, email: string) {
  await openPanel(page, token);
  await page.getByRole('searchbox', { name: t('subscribers.search') }).fill(email);
}

// One address, one flow: the desktop project runs it.
test.describe('mail', DESKTOP, () => {
  let admin: Credentials;
  let token: string;

  test.beforeAll(async ({ request }) => {
    admin = await createAdmin('e2e-mail');
    token = await apiToken(request, admin);
  });
  test.afterAll(async () => {
    if (admin) await removeAdmin(admin);
  });

  test('a sign-up on a German page gets the German confirmation mail, whose link opens the German page', async ({
    page,
    request,
  }) => {
    const de = (key: string) => germanMessage(key)!;
    const email = `${unique('leser')}@anlage.example`;
    await page.goto('/de/blog');
    const form = page.locator('footer form[action="/api/newsletter"]');
    await form.scrollIntoViewIfNeeded();
    await reachFor(form);
    await form.getByRole('textbox').fill(email);
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: de('forms:newsletter.subscribe') }).click();
    await expect(page.locator('footer').getByRole('status')).toHaveText(de('forms:newsletter.confirmed'));

    const confirmation = await waitForMail(request, (m) => m.envelope.to.includes(email));
    expect(confirmation.subject).toBe(de('mail:newsletter_confirm.subject'));
    const [row] = await sql<{ lang: string }>('SELECT lang FROM subscribers WHERE email = $1', [email]);
    expect(row?.lang).toBe('de');
    const link = /http:\/\/127\.0\.0\.1:\d+\/de\/newsletter\/confirm\?token=[\w.-]+/.exec(
      confirmation.text,
    )![0];
    await page.goto(link);
    await expect(page.locator('html')).toHaveAttribute('lang', /^de\b/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(de('mail:pages.confirm.title'));
    await expectNoAxeViolations(page);
  });

  test('a sign-up stays pending until the confirmation form is posted, shows as confirmed in /admin, and one-click unsubscribe removes it', async ({
    page,
    request,
  }) => {
    const email = `${unique('reader')}@plant.example`;

    // Sign up in the footer of an article list, as a visitor would.
    const footer = await signUpInFooter(page, '/blog', email);
    await expect(footer.getByRole('status')).toHaveText(message('forms:newsletter.confirmed'));

    // The confirmation arrives at the SMTP server; the admin sees the address as pending.
    const confirmation = await waitForMail(
      request,
      (m) =>
        m.envelope.to.includes(email) && m.subject === 'Confirm your subscription to the Korvel newsletter',
    );
    const link = /http:\/\/127\.0\.0\.1:\d+\/newsletter\/confirm\?token=[\w.-]+/.exec(confirmation.text)![0];
    await searchSubscribers(page, token, email);
    await expect(pendingBadge(page, email)).toHaveText(new RegExp(`^${t('subscribers.pending')}`));

    // A scanner's bare GET changes nothing; the visitor's button press confirms.
    expect((await request.get(link)).status()).toBe(200);
    const [row] = await sql<{ status: string }>('SELECT status FROM subscribers WHERE email = $1', [email]);
    expect(row?.status).toBe('pending');
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your subscription is confirmed');

    // Confirmed in the admin: the filter finds it, without the pending badge.
    await searchSubscribers(page, token, email);
    await page.getByLabel(t('subscribers.status_filter')).selectOption('confirmed');
    await expect(subscriberRow(page, email)).toHaveCount(1);
    await expect(pendingBadge(page, email)).toHaveCount(0);

    // The welcome mail carries RFC 8058 one-click unsubscribe; a mail provider's POST removes the subscriber.
    const welcome = await waitForMail(
      request,
      (m) => m.envelope.to.includes(email) && m.subject === 'Welcome to the Korvel newsletter',
    );
    expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(.+)>$/.exec(welcome.headers['list-unsubscribe']!)![1]!;
    expect(welcome.text).toContain(unsubscribe);
    await page.goto(unsubscribe);
    await expectNoAxeViolations(page);
    const oneClick = await request.post(unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(oneClick.status()).toBe(200);

    // Gone from the list.
    await searchSubscribers(page, token, email);
    await expect(page.getByText(`No address contains “${email}”.`)).toBeVisible();
  });

  test('a meeting request confirmed in the inquiries tab e-mails the visitor the video-call link', async ({
    page,
    request,
  }) => {
    const name = unique('Meeting guest');
    const email = `${unique('guest')}@plant.example`;
    const [{ id }] = (await sql<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, meeting_start, meeting_status, privacy_version, source_page)
     VALUES ('meeting', $1, $2, date_trunc('hour', now()) + interval '9 days 7 hours', 'requested',
             'privacy-2026-11-25', '/contact') RETURNING id`,
      [name, email],
    )) as [{ id: number }];
    try {
      await openPanel(page, token);
      await page.getByRole('tab', { name: t('tabs.inquiries') }).click();
      const card = page.locator('.admin-inquiry').filter({ hasText: name });
      await expect(card.getByText(t('inquiries.meeting_requested'))).toBeVisible();
      await card.getByRole('button', { name: t('inquiries.confirm') }).click();
      const link = card.getByLabel(t('inquiries.call_link_label'));
      await expect(link).toBeFocused();
      await expectNoAxeViolations(page);
      await link.fill('https://meet.korvel.example/r/e2e-qc');
      await card.getByRole('button', { name: t('inquiries.send_confirmation') }).click();
      await expect(
        page.locator('.admin-toast').filter({ hasText: t('inquiries.confirmed_toast') }),
      ).toBeVisible();
      await expect(card.getByText(t('inquiries.meeting_confirmed'), { exact: true })).toBeVisible();

      const confirmation = await waitForMail(request, (m) => m.envelope.to.includes(email));
      expect(confirmation.subject).toMatch(/^Confirmed: our meeting on /);
      expect(confirmation.text).toContain('https://meet.korvel.example/r/e2e-qc');
      const calendar = confirmation.attachments.find((a) => a.contentType.startsWith('text/calendar'))!;
      expect(calendar.content).toContain('STATUS:CONFIRMED');
      expect(calendar.content).toContain('SEQUENCE:1');

      // The mail's state reaches the card once the worker has sent it: the confirmation to the visitor and the
      // calendar update to the firm.
      await expect
        .poll(async () => {
          await page.reload();
          await page.getByRole('tab', { name: t('tabs.inquiries') }).click();
          await card.waitFor();
          return card.locator('.admin-mail__item--sent').count();
        })
        .toBe(2);
    } finally {
      await sql('DELETE FROM inquiries WHERE id = $1', [id]);
    }
  });
});
