/**
 * Contact form, booking a 30-minute meeting, the thank-you page and the newsletter sign-up, against the preview
 * server and its embedded database. What was stored is read back through the admin API.
 * Submissions run on the desktop project only: every request comes from 127.0.0.1, and the contact limit is
 * ten an hour per address.
 */
import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { inquiriesFrom, subscribersMatching } from './admin-api.ts';
import {
  DESKTOP,
  enhanced,
  expectNoAxeViolations,
  expect,
  message,
  reachFor,
  signUpInFooter,
  test,
} from './fixtures.ts';

const THANKS = 'Thank you for getting in touch.';
const REPLY = 'Our team will reply to your inquiry as soon as possible.';

/** A submission crosses the local Functions runtime, whose first call of a function bundles it. */
const SUBMIT_MS = 30_000;

const unique = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@plant.example`;

/** The form's own check for bots: a page open less than three seconds is not a person typing. */
const waitLikeAPerson = (page: Page) => page.waitForFunction(() => performance.now() > 3500);

/** Holds every request to `url` until the returned function is called. */
async function hold(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function fillContact(page: Page, email: string) {
  const form = page.locator('form[action="/api/contact"]');
  await form.getByLabel('Full Name').fill('Milica Stanković');
  await form.getByLabel('Company').fill('Galenika Pilot Plant');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Position').fill('Project Engineer');
  await form.getByLabel('Phone Number').fill('+381 63 555 0101');
  await form.getByLabel('Subject').fill('Basic design for a tablet coating suite');
  await form.getByLabel('Message').fill('We need a basic design package and a GMP review of the layout.');
  await form.getByRole('checkbox', { name: /privacy policy/ }).check();
  return form;
}

// Stored once, not per viewport (one address, one rate limit): the desktop project runs them.
test.describe('submissions', DESKTOP, () => {
  // One submission for both: every test of the suite posts from 127.0.0.1, which may send ten an hour.
  test("a message typed while the form's code is still on its way is kept and sent: /thanks with both texts and exactly one new row, even after a double click", async ({
    page,
    request,
  }) => {
    const email = unique('contact');
    await page.goto('/contact');
    const form = page.locator('form[action="/api/contact"]');
    // The form hydrates when a visitor reaches for it (client:interaction); its code is held until all is typed.
    const island = form.locator('xpath=ancestor::astro-island');
    const code = new URL((await island.getAttribute('component-url'))!, page.url()).pathname;
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === code);
    const release = await hold(page, code);
    await fillContact(page, email);
    await asked;
    await expect(form).not.toHaveAttribute('novalidate');
    release();
    await enhanced(form);
    await expect(form.getByLabel('Message')).toHaveValue(
      'We need a basic design package and a GMP review of the layout.',
    );
    await waitLikeAPerson(page);
    await form.getByRole('button', { name: 'Send' }).dblclick();
    await expect(page).toHaveURL(/\/thanks$/, { timeout: SUBMIT_MS });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(THANKS);
    await expect(page.getByText(REPLY)).toBeVisible();
    const rows = await inquiriesFrom(request, email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'contact',
      fullName: 'Milica Stanković',
      subject: 'Basic design for a tablet coating suite',
      message: 'We need a basic design package and a GMP review of the layout.',
    });
  });

  test('the button reads Sending... and is disabled while the message is on its way', async ({
    page,
    request,
  }) => {
    const email = unique('sending');
    await page.goto('/contact');
    const form = await fillContact(page, email);
    await enhanced(form);
    await waitLikeAPerson(page);
    const release = await hold(page, '/api/contact');
    await form.getByRole('button', { name: 'Send' }).click();
    const button = form.getByRole('button', { name: 'Sending...' });
    await expect(button).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/thanks$/, { timeout: SUBMIT_MS });
    expect(await inquiriesFrom(request, email)).toHaveLength(1);
  });

  test('each missing required field shows its error beside it and in the focused summary; nothing is stored', async ({
    page,
    request,
  }) => {
    const email = unique('missing');
    await page.goto('/contact');
    const form = page.locator('form[action="/api/contact"]');
    await form.getByLabel('Email').fill(email);
    await enhanced(form);
    await form.getByRole('button', { name: 'Send' }).click();
    const summary = form.getByRole('alert');
    await expect(summary).toBeFocused();
    for (const [label, error] of [
      ['Full Name', 'Enter your full name.'],
      ['Subject', 'Enter a subject.'],
      ['Message', 'Write your message.'],
    ]) {
      const field = form.getByRole('textbox', { name: label!, exact: true });
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(error!);
      await expect(summary).toContainText(`${label}: ${error}`);
    }
    await expect(form.getByRole('checkbox', { name: /privacy policy/ })).toHaveAccessibleDescription(
      'Agree to the privacy policy so that we may store your message.',
    );
    await expectNoAxeViolations(page);
    expect(await inquiriesFrom(request, email)).toHaveLength(0);
  });

  test('a filled honeypot still shows success and stores nothing', async ({ page, request }) => {
    const email = unique('honeypot');
    await page.goto('/contact');
    const form = await fillContact(page, email);
    await enhanced(form);
    await form.locator('input[name="website"]').evaluate((input: HTMLInputElement) => {
      input.value = 'https://cheap-seo.example';
    });
    await waitLikeAPerson(page);
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/\/thanks$/, { timeout: SUBMIT_MS });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(THANKS);
    expect(await inquiriesFrom(request, email)).toHaveLength(0);
  });

  test('without JavaScript the form still submits and lands on /thanks', async ({ browser, request }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = unique('no-js');
    await page.goto('/contact');
    await fillContact(page, email);
    await page.locator('form[action="/api/contact"]').getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/\/thanks$/, { timeout: SUBMIT_MS });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(THANKS);
    expect(await inquiriesFrom(request, email)).toHaveLength(1);
    await context.close();
  });

  test('a meeting request stores a meeting row, the slot is gone, and the .ics holds 30 minutes', async ({
    page,
    request,
  }) => {
    const email = unique('meeting');
    await page.goto('/contact#book-a-meeting');
    const booking = page.locator('#book-a-meeting');
    const firstTime = booking.locator('input[name="slot"]').first();
    await expect(firstTime).toBeAttached({ timeout: SUBMIT_MS });
    const slot = await firstTime.inputValue();
    await firstTime.check();
    await booking.getByLabel('Full Name').fill('Dragan Nikolić');
    await booking.getByLabel('Email').fill(email);
    await booking.getByLabel('Topic').fill('Water-for-injection loop: scope of a revamp');
    await booking.getByRole('checkbox', { name: /privacy policy/ }).check();
    await waitLikeAPerson(page);
    await booking.getByRole('button', { name: 'Request this meeting' }).click();

    await expect(page).toHaveURL(/\/thanks\?meeting=/, { timeout: SUBMIT_MS });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(THANKS);
    const rows = await inquiriesFrom(request, email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'meeting', meetingStart: slot });

    const ics = page.getByRole('link', { name: message('contact:thanks_page.ics') });
    await expect(ics).toHaveAttribute('download', 'korvel-meeting.ics');
    const reply = await request.get((await ics.getAttribute('href'))!);
    expect(reply.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const text = (await reply.text()).replace(/\r\n /g, '');
    const stamp = (name: string) => {
      const [, y, mo, d, h, mi] = new RegExp(
        `\\r\\n${name}:(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})00Z\\r\\n`,
      ).exec(text)!;
      return Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!);
    };
    expect(stamp('DTSTART')).toBe(Date.parse(slot));
    expect(stamp('DTEND') - stamp('DTSTART')).toBe(30 * 60_000);

    const slots = await (await request.get('/api/meeting-slots')).json();
    const offered = slots.days.flatMap((d: { slots: { start: string; available: boolean }[] }) => d.slots);
    expect(offered.find((s: { start: string }) => s.start === slot).available).toBe(false);
    await page.goto('/contact#book-a-meeting');
    await expect(page.locator('#book-a-meeting input[name="slot"]').first()).toBeAttached({
      timeout: SUBMIT_MS,
    });
    await expect(page.locator(`#book-a-meeting input[value="${slot}"]`)).toHaveCount(0);
  });

  test('a footer sign-up appears in the admin list; signing up twice gives the same reply and one row', async ({
    page,
    request,
  }) => {
    const email = unique('footer');
    const signUp = async () => {
      const status = (await signUpInFooter(page, '/our-references', email)).getByRole('status');
      await expect(status).toBeVisible({ timeout: SUBMIT_MS });
      return status.textContent();
    };
    const first = await signUp();
    const second = await signUp();
    expect(second).toBe(first);
    const rows = await subscribersMatching(request, email);
    expect(rows.map((r) => r.email)).toEqual([email]);
  });
});

test('/contact offers e-mail and a 30-minute meeting beside the form, and the booking block is at #book-a-meeting', async ({
  page,
}) => {
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: 'info@korvel.example' }).first()).toHaveAttribute(
    'href',
    'mailto:info@korvel.example',
  );
  await expect(page.locator('#book-a-meeting')).toContainText('30-minute');
  const form = page.locator('form[action="/api/contact"]');
  await expect(form.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-policy');
  await expect(form.getByText('Fields marked * are required.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Send' })).toBeVisible();
  await page.locator('#book-a-meeting').scrollIntoViewIfNeeded();
  await expect(page.locator('#book-a-meeting input[name="slot"]').first()).toBeAttached({
    timeout: SUBMIT_MS,
  });
  await expectNoAxeViolations(page);
});

test('/thanks has the slider and both texts and passes axe', async ({ page }) => {
  await page.goto('/thanks');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(THANKS);
  await expect(page.getByText(REPLY)).toBeVisible();
  const slider = page.getByRole('region', { name: message('contact:thanks_page.slider') });
  await slider.scrollIntoViewIfNeeded();
  await expect(slider.getByRole('button', { name: message('blog:slider.next') })).toBeVisible();
  await expect(page.locator('#meeting-note')).toBeHidden();
  await expectNoAxeViolations(page);
});

test('the footer sign-up form passes axe, with its errors shown too', async ({ page }) => {
  await page.goto('/blog');
  const footer = page.locator('footer');
  await footer.scrollIntoViewIfNeeded();
  await reachFor(footer.locator('form[action="/api/newsletter"]'));
  await expectNoAxeViolations(page, (scan) => scan.include('footer'));
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, (scan) => scan.include('footer'));
});

test('a newsletter form loads its script when a visitor reaches for it, and a click before then is not lost', async ({
  page,
}) => {
  const script = readdirSync('dist/_astro').find((file) => /^newsletter-form\.[\w-]+\.js$/.test(file));
  expect(script, 'the newsletter form’s chunk in dist/_astro').toBeDefined();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const release = await hold(page, `**/_astro/${script}`);
  // A short page: the footer's form is on the first screen as the page opens.
  await page.goto('/search');
  await page.waitForLoadState('networkidle');
  expect(requested, 'the form’s script before the visitor acts').not.toContain(`/_astro/${script}`);

  const form = page.locator('footer form[action="/api/newsletter"]');
  const asked = page.waitForRequest(`**/_astro/${script}`);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await asked;
  // The click is held while the script loads, then replayed: the script's own check answers in place.
  await expect(form).not.toHaveAttribute('novalidate');
  release();
  await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/search$/);
});
