/**
 * A visitor's meeting from their mail, in Chromium at 375 and 1440 px: "Choose another time" and "Cancel
 * this meeting" open pages that change nothing until their one button is pressed, and both sides' calendars
 * follow; and the booking form and thank-you page show Belgrade time with the visitor's own beside it.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import type { CaughtMail } from '../../scripts/lib/mail-catcher.ts';
import { apiToken, createAdmin, openPanel, removeAdmin, sql, unique } from './admin-support.ts';
import { expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';

// Every step crosses the local function runtime and the mail worker: allow for a loaded machine.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const NOTIFY_TO = 'info@korvel.example';

const inbox = () =>
  (JSON.parse(readFileSync(`${E2E_DATA_DIR}.mail.json`, 'utf8')) as { inboxUrl: string }).inboxUrl;

/** The first caught mail that matches, waiting for the worker if it has not arrived yet. */
async function waitForMail(
  request: APIRequestContext,
  match: (mail: CaughtMail) => boolean,
): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const reply = await request.get(`${inbox()}/messages`);
        found = ((await reply.json()) as CaughtMail[]).find(match);
        return Boolean(found);
      },
      { timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return found!;
}

/** The calendar file's METHOD, SEQUENCE and UID (unfolded text; the API tests parse it with ical.js). */
function calendar(mail: CaughtMail) {
  const text = mail.attachments
    .find((a) => a.contentType.startsWith('text/calendar'))!
    .content.replace(/\r\n[ \t]/g, '');
  const field = (name: string) => new RegExp(`\\r\\n${name}:([^\\r\\n]*)`).exec(text)?.[1];
  return { method: field('METHOD'), sequence: Number(field('SEQUENCE')), uid: field('UID') };
}

/** The path of a link in a mail, e.g. `/meeting/cancel?token=…`. */
function pathOf(mail: CaughtMail, kind: 'cancel' | 'reschedule'): string {
  const link = new RegExp(`https?://[^/\\s]+(/meeting/${kind}\\?token=[\\w.-]+)`).exec(mail.text);
  expect(link, `a ${kind} link in "${mail.subject}"`).not.toBeNull();
  return link![1]!;
}

/** A shot of the whole page for the report, named by test and width. */
async function shoot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 1440;
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
}

async function freeSlots(request: APIRequestContext): Promise<string[]> {
  const { days } = (await (await request.get('/api/meeting-slots')).json()) as {
    days: { slots: { start: string; available: boolean }[] }[];
  };
  return days.flatMap((d) => d.slots.filter((s) => s.available).map((s) => s.start));
}

// The suite books more meetings from 127.0.0.1 than one network may in an hour; each test starts a new window.
test.beforeEach(async () => {
  await sql(`DELETE FROM rate_limits WHERE scope = 'contact-ip'`);
});

test('a visitor moves the meeting, then cancels it, from the links in their mail; both calendars follow', async ({
  page,
  request,
}) => {
  const email = `${unique('visitor')}@plant.example`;
  // The two projects run side by side: each books and moves to times of its own.
  const offset = test.info().project.name === 'mobile' ? 1 : 0;
  const slots = await freeSlots(request);
  const [slot, target] = [slots[offset]!, slots.at(-1 - offset)!];
  const booked = await request.post('/api/contact', {
    data: {
      kind: 'meeting',
      fullName: 'Milica Stanković',
      email,
      subject: 'Cleanroom HVAC zoning for an aseptic suite',
      slot,
      timeZone: 'America/New_York',
      privacy: true,
      fillMs: 8000,
    },
  });
  expect(booked.status()).toBe(201);
  const ack = await waitForMail(request, (m) => m.envelope.to.includes(email));
  const uid = calendar(ack).uid;

  // "Choose another time": the page lists free times and changes nothing until its button is pressed.
  await page.goto(pathOf(ack, 'reschedule'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose another time');
  await expect(page.getByText('your time').first()).toBeVisible();
  await expect(page.locator(`input[value="${slot}"]`)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shoot(page, 'reschedule');
  const [row] = await sql<{ meeting_sequence: number }>(
    'SELECT meeting_sequence FROM inquiries WHERE email = $1',
    [email],
  );
  expect(row!.meeting_sequence).toBe(0);

  const choice = page.locator(`input[value="${target}"]`);
  await choice.scrollIntoViewIfNeeded();
  await choice.check();
  await page.getByRole('button', { name: 'Move the meeting' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your meeting has been moved');
  await expectNoAxeViolations(page);
  await shoot(page, 'rescheduled');

  const moved = await waitForMail(
    request,
    (m) => m.envelope.to.includes(email) && m.subject.startsWith('Your meeting is moved to'),
  );
  const firmMoved = await waitForMail(
    request,
    (m) =>
      m.envelope.to.includes(NOTIFY_TO) &&
      m.subject.startsWith('Moved by the visitor') &&
      m.text.includes(email),
  );
  for (const mail of [moved, firmMoved])
    expect(calendar(mail)).toEqual({ method: 'REQUEST', sequence: 1, uid });
  expect(await freeSlots(request)).toContain(slot);

  // "Cancel this meeting" from the new mail: one press cancels, and the page says so.
  await page.goto(pathOf(moved, 'cancel'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cancel your meeting?');
  await expectNoAxeViolations(page);
  await shoot(page, 'cancel');
  await page.getByRole('button', { name: 'Cancel the meeting' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your meeting is cancelled');
  await expectNoAxeViolations(page);
  await shoot(page, 'cancelled');

  const firmCancel = await waitForMail(
    request,
    (m) =>
      m.envelope.to.includes(NOTIFY_TO) &&
      m.subject.startsWith('Cancelled by the visitor') &&
      m.text.includes(email),
  );
  expect(calendar(firmCancel)).toEqual({ method: 'CANCEL', sequence: 2, uid });
  expect(await freeSlots(request)).toContain(target);

  // The first mail's link is used up, and says so on a page of its own.
  const used = await page.goto(pathOf(ack, 'cancel'));
  expect(used!.status()).toBe(410);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This meeting is already cancelled');
  await expectNoAxeViolations(page);
  await shoot(page, 'used');

  // The admin's inquiries tab tells the meeting's story, with times.
  const admin = await createAdmin('e2e-meetings');
  try {
    await openPanel(page, await apiToken(request, admin));
    await page.getByRole('tab', { name: message('admin:tabs.inquiries') }).click();
    const card = page.locator('.admin-inquiry').filter({ hasText: email });
    const history = card.getByRole('region', { name: message('admin:inquiries.history') });
    await expect(history.getByRole('listitem')).toHaveCount(3);
    await expect(history.getByRole('listitem').nth(0)).toContainText('Requested for');
    await expect(history.getByRole('listitem').nth(1)).toContainText('Rescheduled by the visitor from');
    await expect(history.getByRole('listitem').nth(2)).toContainText('Cancelled by the visitor');
    await expect(history.locator('time')).toHaveCount(3);
    await expect(card.getByText(message('admin:inquiries.meeting_cancelled'), { exact: true })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page);
    const width = page.viewportSize()?.width ?? 1440;
    await card.screenshot({ path: test.info().outputPath(`admin-history-${width}.png`) });
  } finally {
    await removeAdmin(admin);
  }
});

test.describe('in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('the booking form and the thank-you page show Belgrade time with the visitor’s own beside it', async ({
    page,
  }) => {
    await page.goto('/contact#book-a-meeting');
    const booking = page.locator('#book-a-meeting');
    // Not the first time of the day, which the contact tests book; one of each project's own.
    const times = booking.locator('input[name="slot"]');
    await expect(times.first()).toBeAttached({ timeout: 30_000 });
    const index = test.info().project.name === 'mobile' ? 3 : 2;
    const first = times.nth(index);
    const slot = await first.inputValue();
    const ownTime = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(slot));
    const chip = booking.locator('label.chip--time').nth(index);
    await expect(chip).toContainText(message('forms:meeting.your_time').replace('{time}', ownTime));
    await shoot(page, 'booking-new-york');

    await first.check();
    await booking.getByLabel('Full Name').fill('Jelena Marković');
    await booking.getByLabel('Email').fill(`${unique('ny')}@plant.example`);
    await booking.getByLabel('Topic').fill('Tech transfer of a lyophilised product');
    await booking.getByRole('checkbox', { name: /privacy policy/ }).check();
    await page.waitForFunction(() => performance.now() > 3500);
    await booking.getByRole('button', { name: 'Request this meeting' }).click();
    await expect(page).toHaveURL(/\/thanks\?meeting=.+&uid=[0-9a-f-]{36}$/, { timeout: 30_000 });

    const note = page.locator('#meeting-note');
    await expect(note).toBeVisible();
    await expect(note).toContainText('Belgrade');
    await expect(note.locator('.meeting-note__local')).toContainText(ownTime);
    const [row] = await sql<{ visitor_time_zone: string }>(
      'SELECT visitor_time_zone FROM inquiries WHERE meeting_start = $1 AND kind = $2 ORDER BY id DESC LIMIT 1',
      [slot, 'meeting'],
    );
    expect(row!.visitor_time_zone).toBe('America/New_York');
    await shoot(page, 'thanks-new-york');
  });
});

test.describe('in Belgrade', () => {
  test.use({ timezoneId: 'Europe/Belgrade' });

  test('the booking form shows each time once', async ({ page }) => {
    await page.goto('/contact#book-a-meeting');
    const booking = page.locator('#book-a-meeting');
    await expect(booking.locator('input[name="slot"]').first()).toBeAttached({ timeout: 30_000 });
    await expect(booking.locator('label.chip--time small')).toHaveCount(0);
  });
});
