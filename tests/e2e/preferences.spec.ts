/**
 * Topics and the preference page on a phone (issue 36, item 2): a sign-up in the footer that leaves one topic
 * out, the confirmation, and then the preference page opened from the link in the welcome mail read from the
 * local mail catcher — topics and language changed, the page answering in German, a pause — each change in the
 * subscriber's record, and every page axe-clean.
 */
import { sql, unique } from './admin-support.ts';
import { germanMessage } from './i18n-support.ts';
import { waitForMail } from './mail-inbox.ts';
import { expect as baseExpect, expectNoAxeViolations, message, PHONE, reachFor, test } from './fixtures.ts';

// Every step crosses the local function runtime and the mail worker: allow for a loaded machine.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const de = (key: string) => germanMessage(key)!;
const link = (text: string, path: string) =>
  new RegExp(`http://127\\.0\\.0\\.1:\\d+${path.replace(/\//g, '\\/')}\\?token=[\\w.-]+`).exec(text)![0];

test.describe('newsletter preferences', PHONE, () => {
  test('topics chosen at sign-up, then changed from the link in a mail: language, topics and a pause', async ({
    page,
    request,
  }) => {
    const email = `${unique('prefs')}@plant.example`;

    // The footer's topics are behind a disclosure, all ticked; the reader leaves oil and gas out.
    await page.goto('/blog');
    const footer = page.locator('footer');
    const form = footer.locator('form[action="/api/newsletter"]');
    await form.scrollIntoViewIfNeeded();
    await reachFor(form);
    await footer.getByText(message('forms:newsletter.topics_toggle')).click();
    const topics = footer.getByRole('group', { name: message('forms:newsletter.topics_legend') });
    await expect(topics.getByRole('checkbox', { checked: true })).toHaveCount(7);
    await expectNoAxeViolations(page, (scan) => scan.include('footer .newsletter'));
    await page.screenshot({ path: 'test-results/preferences-footer-375.png', fullPage: false });
    await topics.getByRole('checkbox', { name: message('nav:sectors.oil_gas') }).uncheck();
    await form.getByLabel('Email').fill(email);
    await form.getByRole('checkbox', { name: /newsletter/ }).check();
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByRole('status')).toHaveText(message('forms:newsletter.confirmed'));
    const [stored] = await sql<{ id: number; topics: string[] }>(
      'SELECT id, topics FROM subscribers WHERE email = $1',
      [email],
    );
    expect(stored!.topics).toEqual(['pharma', 'food', 'chemicals', 'electronics', 'energy', 'company-news']);

    // Confirmed from the mail; the welcome mail links to the reader's preference page.
    const confirmation = await waitForMail(request, (m) => m.envelope.to.includes(email));
    await page.goto(link(confirmation.text, '/newsletter/confirm'));
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your subscription is confirmed');
    const welcome = await waitForMail(
      request,
      (m) => m.envelope.to.includes(email) && m.subject === 'Welcome to the Korvel newsletter',
    );
    const preferences = link(welcome.text, '/newsletter/preferences');

    // A GET shows the choices as stored.
    await page.goto(preferences);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(message('mail:pages.preferences.title'));
    const topicGroup = page.getByRole('group', { name: message('mail:pages.preferences.topics_legend') });
    await expect(
      topicGroup.getByRole('checkbox', { name: message('nav:sectors.oil_gas') }),
    ).not.toBeChecked();
    await expect(topicGroup.getByRole('checkbox', { name: message('nav:sectors.energy') })).toBeChecked();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/preferences-page-375.png', fullPage: true });

    // Energy out, German in: the answer is the German page, with the choices saved.
    await topicGroup.getByRole('checkbox', { name: message('nav:sectors.energy') }).uncheck();
    await page.getByRole('radio', { name: 'Deutsch' }).check();
    await page.getByRole('button', { name: message('mail:pages.preferences.save') }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', /^de\b/);
    await expect(page.getByRole('status')).toHaveText(de('mail:pages.preferences.saved'));
    await expect(page.getByRole('checkbox', { name: de('nav:sectors.energy') })).not.toBeChecked();
    await expectNoAxeViolations(page);

    // A pause of three months, said on the page until when.
    await page.getByRole('button', { name: de('mail:pages.preferences.pause') }).click();
    await expect(page.getByText(/Der Newsletter ist bis zum .+ pausiert\./)).toBeVisible();
    await expect(page.getByRole('button', { name: de('mail:pages.preferences.resume') })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/preferences-paused-375.png', fullPage: true });

    const [after] = await sql<{ lang: string; topics: string[]; paused: boolean }>(
      `SELECT lang, topics, paused_until > now() + interval '85 days' AS paused FROM subscribers WHERE id = $1`,
      [stored!.id],
    );
    expect(after).toEqual({
      lang: 'de',
      topics: ['pharma', 'food', 'chemicals', 'electronics', 'company-news'],
      paused: true,
    });
    const changes = await sql<{ kind: string }>(
      'SELECT kind FROM subscriber_changes WHERE subscriber_id = $1 ORDER BY id',
      [stored!.id],
    );
    expect(changes.map((change) => change.kind)).toEqual(['topics', 'language', 'paused']);
  });
});
