/**
 * Stored XSS in /admin (docs/security.md): markup left in every inquiry, mail and subscriber field the admin
 * reads is shown as the text it is in both tabs, runs nothing and adds no element. Rows go straight into
 * the preview's database, past the API's validation, as if an older version or a bug had stored them.
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
import { DESKTOP, expect as baseExpect, message, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const t = (key: string) => message(`admin:${key}`);
const marker = unique('xss');
/** Each payload tells on itself through a dialog and a global counter if it ever runs. */
const run = `alert('${marker}');window.__xss=(window.__xss||0)+1`;
const payloads = {
  script: `<script>${run}</script>`,
  img: `<img src=x onerror="${run}">`,
  svg: `"><svg onload="${run}">`,
  iframe: `<iframe srcdoc="<script>parent.${run}</script>"></iframe>`,
};
const all = Object.values(payloads).join(' ');

// Escaping does not depend on the viewport: the desktop project runs it.
test.describe('stored markup', DESKTOP, () => {
  let admin: Credentials;
  let token: string;
  const inquiryIds: number[] = [];
  const subscriberIds: number[] = [];

  test.beforeAll(async ({ request }) => {
    admin = await createAdmin('e2e-xss');
    token = await apiToken(request, admin);
    const subscribers = await sql<{ id: number }>(
      `INSERT INTO subscribers (email, status, source_page)
     SELECT e, s, '/' || e FROM unnest($1::text[], $2::text[]) AS t(e, s) RETURNING id`,
      [
        [
          `${marker}<img src=x onerror=${run.replace(/\s/g, '')}>@plant.example`,
          `${marker}"><script>${run}</script>@plant.example`,
        ],
        ['confirmed', 'pending'],
      ],
    );
    subscriberIds.push(...subscribers.map((s) => s.id));
    const inquiries = await sql<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, company, email, position, phone, subject, message, meeting_start,
       meeting_status, call_link, decline_note, privacy_version, source_page)
     VALUES
       ('contact', $1, $2, $3, $4, $5, $6, $7, NULL, NULL, NULL, NULL, 'privacy-2026-11', $8),
       ('meeting', $2, $1, $3, NULL, NULL, $6, NULL, date_trunc('hour', now()) + interval '500 days',
        'confirmed', $9, NULL, 'privacy-2026-11', '/contact'),
       ('meeting', $4, NULL, $3, NULL, NULL, $2, NULL, date_trunc('hour', now()) + interval '501 days',
        'declined', NULL, $7, 'privacy-2026-11', '/contact')
     RETURNING id`,
      [
        `${marker} ${payloads.script}`.slice(0, 120),
        payloads.img.slice(0, 160),
        `${marker}"><svg/onload=alert(1)>@plant.example`,
        payloads.svg.slice(0, 120),
        `+381<img src=x onerror=alert(1)>`.slice(0, 40),
        `${marker} ${payloads.iframe}`.slice(0, 200),
        all,
        `/x${payloads.img}`.slice(0, 200),
        `javascript:${run}`,
      ],
    );
    inquiryIds.push(...inquiries.map((i) => i.id));
    await sql(
      `INSERT INTO outbox (idempotency_key, template, recipient, inquiry_id, status, attempts, last_error)
     VALUES ($1, 'contact-ack', 'x@plant.example', $2, 'failed', 3, $3)`,
      [`${marker}:mail`, inquiryIds[0], `550 ${payloads.img}`],
    );
  });

  test.afterAll(async () => {
    if (inquiryIds.length) await sql('DELETE FROM inquiries WHERE id = ANY($1::int[])', [inquiryIds]);
    if (subscriberIds.length) await sql('DELETE FROM subscribers WHERE id = ANY($1::int[])', [subscriberIds]);
    if (admin) await removeAdmin(admin);
  });

  /** Dialogs opened by the page; none may appear. */
  function watchDialogs(page: Page): string[] {
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    return dialogs;
  }

  /** Elements or handlers that exist only if a payload became markup. */
  const injected = (page: Page) =>
    page.evaluate(() => ({
      ran: (window as unknown as { __xss?: number }).__xss ?? 0,
      handlers: document.querySelectorAll('[onerror], [onload], [onclick], [onmouseover]').length,
      frames: document.querySelectorAll('iframe').length,
      images: document.querySelectorAll('main img[src="x"]').length,
      scripts: [...document.scripts].filter((s) => s.textContent?.includes('__xss')).length,
    }));

  const nothingInjected = { ran: 0, handlers: 0, frames: 0, images: 0, scripts: 0 };

  test('markup in subscriber addresses shows as text in the list and runs nothing', async ({ page }) => {
    const dialogs = watchDialogs(page);
    await openPanel(page, token);
    const table = page.getByRole('table', { name: t('subscribers.heading') });
    // The first list of a freshly started preview can take long on a loaded machine.
    await expect(table).toBeVisible({ timeout: 60_000 });
    await page.getByRole('searchbox', { name: t('subscribers.search') }).fill(marker);
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table).toContainText(`${marker}<img src=x onerror=`);
    await expect(table).toContainText(`${marker}"><script>alert('${marker}')`);
    expect(await injected(page)).toEqual(nothingInjected);
    expect(dialogs).toEqual([]);
  });

  test('markup in every inquiry, meeting and mail field shows as text in the inquiries tab', async ({
    page,
  }) => {
    const dialogs = watchDialogs(page);
    await openPanel(page, token);
    await page.getByRole('tab', { name: t('tabs.inquiries') }).click();
    const panel = page.getByRole('tabpanel', { name: t('tabs.inquiries') });
    const [contactId, confirmedId, declinedId] = inquiryIds;
    const article = (id: number | undefined) => panel.locator(`article[aria-labelledby="inquiry-${id}"]`);

    const contact = article(contactId);
    await expect(contact).toBeVisible();
    for (const text of [
      `${marker} <script>alert('${marker}')`,
      payloads.img,
      payloads.svg,
      `${marker}"><svg/onload=alert(1)>@plant.example`,
      '+381<img src=x onerror=alert(1)>',
      `${marker} <iframe srcdoc=`,
      `/x<img src=x onerror=`,
      `550 ${payloads.img}`,
    ]) {
      await expect(contact, text).toContainText(text);
    }

    const confirmed = article(confirmedId);
    await expect(confirmed).toContainText(`javascript:${run}`);
    // React 19 never renders a javascript: URL as a working link.
    const link = confirmed.getByRole('link', { name: `javascript:${run}` });
    expect(await link.getAttribute('href')).not.toContain(marker);

    const declined = article(declinedId);
    await expect(declined).toContainText(all);

    expect(await injected(page)).toEqual(nothingInjected);
    expect(dialogs).toEqual([]);
  });
});
