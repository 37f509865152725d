/**
 * The newsletter admin (issue 4) in the browser, against the preview server and its embedded database. Each
 * test works on rows and admin accounts of its own, so the two projects and other files can run beside it.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { SignJWT } from 'jose';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TYPE } from '../../src/server/tokens.ts';
import {
  apiToken,
  bearer,
  createAdmin,
  freshTotpCode,
  openPanel,
  removeAdmin,
  signInThroughForm,
  sql,
  unique,
  type Credentials,
} from './admin-support.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, message, PHONE, test } from './fixtures.ts';

// Every step waits on a function call, and a loaded machine makes those slow: wait longer than elsewhere.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 150_000 });
/**
 * Behaviour that does not depend on the viewport runs in the desktop project only (`DESKTOP`): the phone project
 * checks the layouts (sign-in, the card list, the dialog) and halves the load on the preview's functions.
 */
/** A sign-in runs one deliberately slow scrypt check. */
const signingIn = { timeout: 45_000 };

const t = (key: string) => message(`admin:${key}`);

let admin: Credentials;
let token: string;

test.beforeAll(async ({ request }) => {
  admin = await createAdmin('e2e-admin');
  token = await apiToken(request, admin);
});
test.afterAll(async () => {
  if (admin) await removeAdmin(admin);
});

const toast = (page: Page, text: string) => page.locator('.admin-toast').filter({ hasText: text });
const table = (page: Page) => page.getByRole('table', { name: t('subscribers.heading') });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const rowFor = (page: Page, email: string) => bodyRows(page).filter({ hasText: email });
async function emailsShown(page: Page): Promise<string[]> {
  await expect(bodyRows(page).first()).toBeVisible();
  return table(page).locator('tbody th[scope="row"] .admin-table__address').allInnerTexts();
}

/** One page of the list (the island's calls carry paging parameters), or the whole list (Copy all, CSV). */
const listPage = (url: URL) => url.pathname === '/api/newsletter' && url.searchParams.has('page');
const fullList = (url: URL) => url.pathname === '/api/newsletter' && !url.searchParams.has('page');

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: t('subscribers.search') }).fill(text);
}

/** Adds subscribers straight to the database (confirmed unless said otherwise); returns their ids in order. */
async function addSubscribers(
  rows: { email: string; created: Date | null; status?: 'pending' | 'confirmed' }[],
): Promise<number[]> {
  const inserted = await sql<{ id: number }>(
    `INSERT INTO subscribers (email, created_at, status)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[]) ORDER BY 1 RETURNING id`,
    [rows.map((r) => r.email), rows.map((r) => r.created), rows.map((r) => r.status ?? 'confirmed')],
  );
  return inserted.map((r) => r.id);
}

async function apiEmails(request: APIRequestContext, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  const reply = await request.get(`/api/newsletter${search ? `?${search}` : ''}`, {
    headers: bearer(token),
  });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as { email: string }[]).map((s) => s.email);
}

test.describe('sign-in', () => {
  test('the pages before a session keep still while their form renders', PHONE, async ({ page }) => {
    // Every layout shift of the load, as Lighthouse's CLS counts them (none follows input here), with its nodes.
    await page.addInitScript(() => {
      type Shift = PerformanceEntry & { value: number; sources?: { node?: Node | null }[] };
      const shifts: string[] = [];
      const note = (entries: PerformanceEntry[]) => {
        for (const entry of entries as Shift[]) {
          const nodes = (entry.sources ?? []).map(({ node }) => {
            const element = node instanceof Element ? node : node?.parentElement;
            const name = element ? `${element.localName}.${[...element.classList].join('.')}` : '?';
            return element === node ? name : `text in ${name}`;
          });
          shifts.push(`${entry.value.toFixed(4)} ${nodes.join(' ')}`);
        }
      };
      const observer = new PerformanceObserver((list) => note(list.getEntries()));
      observer.observe({ type: 'layout-shift', buffered: true });
      Object.assign(window, { takeShifts: () => (note(observer.takeRecords()), shifts.splice(0)) });
    });
    const submit = (key: string) => page.getByRole('button', { name: t(key) });
    const reachedFor = async (button: Locator) => {
      await page.locator('form').hover();
      await expect(button).toBeEnabled();
    };
    // What each page shows once its form has rendered; the invitation asks the server about its token first.
    const settled: [string, () => Promise<void>][] = [
      [
        '/admin/invite#token=not-an-invitation',
        () => expect(page.getByText(t('invite_form.expired'))).toBeVisible(),
      ],
      ['/admin/invite', () => expect(page.getByText(t('invite_form.missing'))).toBeVisible()],
      ['/admin/reset-password', () => expect(page.getByText(t('reset_form.missing'))).toBeVisible()],
      // The sign-in forms hydrate once they are reached for (budgets.spec.ts): that must not move them either.
      ['/admin/login', () => reachedFor(submit('login_form.submit'))],
      ['/admin/forgot-password', () => reachedFor(submit('forgot_form.submit'))],
    ];
    // The fonts first, into the page's cache: what is measured is the island, not a font that a loaded machine
    // delivers after the first paint (the sized fallbacks make that swap move little, not nothing).
    await page.goto('/admin/login');
    await page.evaluate(() => document.fonts.ready);
    for (const [path, rendered] of settled) {
      await page.goto(path);
      await rendered();
      const shifts = await page.evaluate(() =>
        (window as unknown as { takeShifts: () => string[] }).takeShifts(),
      );
      expect(shifts, path).toEqual([]);
    }
  });

  test('a wrong password shows the red error and stores no token', DESKTOP, async ({ page }) => {
    // One failed sign-in per run: the per-address limit counts every failure from 127.0.0.1.
    await page.goto('/admin/login');
    await page.getByLabel(t('login_form.email')).fill(admin.email);
    await page.getByLabel(t('login_form.password')).fill('not the password at all');
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    const error = page.getByText(t('login_form.error'));
    await expect(error).toBeVisible();
    await expect(error).toHaveCSS('color', 'rgb(180, 35, 24)');
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expectNoAxeViolations(page);
  });

  test(
    'a mailed reset link: its token leaves the address bar, and each refusal says why',
    DESKTOP,
    async ({ page }) => {
      await page.goto('/admin/reset-password#token=not-a-reset-token');
      await expect(page).toHaveURL(/\/admin\/reset-password$/);
      const fresh = page.getByLabel(t('password.new'), { exact: true });
      const repeat = page.getByLabel(t('password.repeat'), { exact: true });
      const submit = page.getByRole('button', { name: t('reset_form.submit') });
      const password = 'Granite shelf reactor';

      await fresh.fill(password);
      await repeat.fill(`${password}!`);
      await submit.click();
      await expect(page.getByText(t('password.mismatch'))).toBeVisible();
      await expect(fresh).toHaveAttribute('aria-invalid', 'true');
      await expect(fresh).toHaveAccessibleDescription(new RegExp(`${t('password.mismatch')}$`));
      await expectNoAxeViolations(page);

      // The server's reason for refusing a password is shown as it gave it; a call that never arrives is told so.
      const reason = 'Choose a password without the name of the firm.';
      await page.route('**/admin/password-reset/confirm', (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'validation_failed', fields: { password: reason } } }),
        }),
      );
      await repeat.fill(password);
      await submit.click();
      await expect(page.getByText(reason)).toBeVisible();
      await expect(page.getByText(t('password.mismatch'))).toBeHidden();
      await page.unroute('**/admin/password-reset/confirm');
      await page.route('**/admin/password-reset/confirm', (route) => route.abort());
      await submit.click();
      await expect(page.getByRole('alert')).toHaveText(t('reset_form.error'));
      await expect(fresh).not.toHaveAttribute('aria-invalid');
      await expect(submit).toBeEnabled();
      await page.unroute('**/admin/password-reset/confirm');

      // The real server does not know this token: the link is as good as expired, and the way to a new one shows.
      await submit.click();
      const expired = page.getByText(t('reset_form.expired'));
      await expect(expired).toBeVisible();
      await expect(expired).toBeFocused();
      await expect(page.getByRole('link', { name: t('reset_form.ask_again') })).toHaveAttribute(
        'href',
        '/admin/forgot-password',
      );
      await expect(fresh).toBeHidden();
    },
  );

  test('a throttled (429) or unreachable server shows the same error', DESKTOP, async ({ page }) => {
    let reply: 'throttle' | 'abort' = 'throttle';
    await page.route('**/admin/login', (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      if (reply === 'abort') return route.abort('connectionrefused');
      return route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '600' },
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many failed sign-ins.' } }),
      });
    });
    await page.goto('/admin/login');
    await page.getByLabel(t('login_form.email')).fill(admin.email);
    await page.getByLabel(t('login_form.password')).fill(admin.password);
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    await expect(page.getByText(t('login_form.error'))).toBeVisible();
    reply = 'abort';
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    await expect(page.getByText(t('login_form.error'))).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test(
    'the fields are a required e-mail and a required password, and the page links home',
    DESKTOP,
    async ({ page }) => {
      await page.goto('/admin/login');
      const email = page.getByLabel(t('login_form.email'));
      await expect(email).toHaveAttribute('type', 'email');
      await expect(email).toHaveAttribute('required', '');
      await expect(page.getByLabel(t('login_form.password'))).toHaveAttribute('required', '');
      await expect(page.getByRole('link', { name: t('login_form.home') })).toHaveAttribute('href', '/');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
      // The browser refuses an empty form before any request leaves (once the form, reached for, has hydrated).
      await page.locator('form').hover();
      let posted = false;
      page.on('request', (r) => (posted ||= r.method() === 'POST'));
      await page.getByRole('button', { name: t('login_form.submit') }).click();
      expect(await email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      expect(posted).toBe(false);
    },
  );

  test('the right password stores the token, opens /admin and says "Successful registration!"', async ({
    page,
  }) => {
    await signInThroughForm(page, admin);
    await expect(toast(page, 'Successful registration!')).toBeVisible();
    const stored = await page.evaluate(() => localStorage.getItem('token'));
    expect(stored).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(page.url()).not.toContain(stored!);
    await expect(page.getByRole('status', { name: t('toasts.label') })).toHaveAttribute(
      'aria-live',
      'polite',
    );
    // It closes by itself after 5 s; the bound is three times that, so a busy machine's late timer still passes.
    await expect(toast(page, 'Successful registration!')).toBeHidden({ timeout: 15_000 });
  });

  test('a browser that still holds a valid token goes straight to /admin', DESKTOP, async ({ page }) => {
    await openPanel(page, token);
    await page.goto('/admin/login');
    await expect(page).toHaveURL(/\/admin$/, signingIn);
  });

  test('the whole sign-in works with the keyboard alone', DESKTOP, async ({ page }) => {
    await page.goto('/admin/login');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? '');
    for (let i = 0; i < 10 && (await focused()) !== 'email'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('email');
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin.password);
    // The button (the form's default) is enabled once the island is live.
    await expect(page.getByRole('button', { name: t('login_form.submit') })).toBeEnabled();
    await page.keyboard.press('Enter');
    // The second step takes focus to its heading; Tab reaches the code field, Enter sends it.
    const code = page.getByLabel(t('second_step.code'));
    await expect(code).toBeVisible(signingIn);
    for (let i = 0; i < 5 && (await focused()) !== 'code'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('code');
    await page.keyboard.type(await freshTotpCode(admin));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin$/, signingIn);
  });
});

test.describe('access', DESKTOP, () => {
  test('/admin without a token lands on the sign-in page', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('/admin with an expired or a forged token lands on the sign-in page and forgets it', async ({
    page,
  }) => {
    const secret = new TextEncoder().encode(
      process.env.JWT_SECRET ?? readFileSync('.data/jwt-secret', 'utf8').trim(),
    );
    const claims = (key: Uint8Array, iat: number, exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
        .setSubject('1')
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    const expired = await claims(secret, now - 9 * 3600, now - 3600);
    const forged = await claims(new TextEncoder().encode('x'.repeat(48)), now, now + 3600);
    for (const bad of [expired, forged, 'not-a-token']) {
      await openPanel(page, bad);
      await expect(page).toHaveURL(/\/admin\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(message('admin:login.title'));
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    }
  });

  test('a 401 or 403 while loading the list leads to the sign-in page', async ({ page }) => {
    for (const status of [401, 403]) {
      await page.route(listPage, (route) =>
        route.fulfill({
          status,
          contentType: 'application/json',
          body: '{"error":{"code":"x","message":"x"}}',
        }),
      );
      await openPanel(page, token);
      await expect(page).toHaveURL(/\/admin\/login$/);
      await page.unrouteAll();
    }
  });

  test('a failed list load is logged with its status only and shows an empty list', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.route(listPage, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"code":"x","message":"x"}}',
      }),
    );
    await openPanel(page, token);
    await expect(page.getByText(t('subscribers.load_failed'))).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(0);
    expect(errors.some((e) => e.includes('Subscriber list failed to load') && e.includes('503'))).toBe(true);
    expect(errors.join('\n')).not.toContain(token);
    // Once the server answers again, Try again loads the list.
    await page.unrouteAll();
    await page.getByRole('button', { name: t('subscribers.retry') }).click();
    await expect(bodyRows(page).first()).toBeVisible();
  });
});

test.describe('the subscriber list', () => {
  test('shows "Loading...", then the seeded rows with "N/A" where a date is missing', async ({
    page,
    request,
  }) => {
    // The list's answer is held until "Loading..." has been seen, however long the page takes to get there.
    let release!: () => void;
    const seen = new Promise<void>((resolve) => (release = resolve));
    await page.route(listPage, async (route) => {
      await seen;
      await route.continue();
    });
    await openPanel(page, token);
    await expect(page.getByText('Loading...')).toBeVisible();
    release();
    await expect(bodyRows(page)).toHaveCount(25);
    await expect(table(page).locator('thead th')).toHaveText([
      t('subscribers.id'),
      t('subscribers.email'),
      t('subscribers.date'),
      t('subscribers.action'),
    ]);

    const reply = await request.get('/api/newsletter?page=1&pageSize=25&sort=id', { headers: bearer(token) });
    const expected = (await reply.json()) as { id: number; email: string; created_temp: string | null }[];
    expect(expected.some((s) => s.created_temp === null)).toBe(true);
    expect(await emailsShown(page)).toEqual(expected.map((s) => s.email));
    for (const subscriber of expected) {
      const cell = rowFor(page, subscriber.email).locator('td').nth(1);
      if (subscriber.created_temp === null) {
        await expect(cell).toHaveText('N/A');
      } else {
        const time = cell.locator('time');
        await expect(time).toHaveAttribute('datetime', subscriber.created_temp);
        await expect(time).toHaveAttribute('title', subscriber.created_temp);
        await expect(time).not.toHaveText(subscriber.created_temp);
      }
    }
    await expect(page.getByText(/^\d+ subscribers/)).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('Delete: dismissing changes nothing; confirming removes the row for good', async ({
    page,
    request,
  }) => {
    const email = `${unique('leaving')}@plant.example`;
    await addSubscribers([{ email, created: new Date() }]);
    await openPanel(page, token);
    await search(page, email);
    await expect(bodyRows(page)).toHaveCount(1);

    const dialog = page.getByRole('dialog', { name: t('subscribers.confirm_title') });
    const deleteButton = rowFor(page, email).getByRole('button', { name: t('subscribers.delete') });
    await deleteButton.click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Are you sure you want to delete?');
    await expect(dialog).toContainText(email);
    await expect(dialog.getByRole('button', { name: t('subscribers.confirm_cancel') })).toBeFocused();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: t('subscribers.confirm_cancel') }).click();
    await expect(dialog).toBeHidden();
    await expect(deleteButton).toBeFocused();
    // Escape dismisses too.
    await deleteButton.click();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(rowFor(page, email)).toHaveCount(1);
    expect(await apiEmails(request, { q: email })).toEqual([email]);

    await deleteButton.click();
    await dialog.getByRole('button', { name: t('subscribers.confirm_accept') }).click();
    await expect(toast(page, 'Email successfully deleted.')).toBeVisible();
    await expect(rowFor(page, email)).toHaveCount(0);
    expect(await apiEmails(request, { q: email })).toEqual([]);
    await page.reload();
    await search(page, email);
    await expect(page.getByText(`No address contains “${email}”.`)).toBeVisible();
  });

  test('a failed delete says "Error while deleting." and keeps the row', DESKTOP, async ({ page }) => {
    const email = `${unique('staying')}@plant.example`;
    const [id] = await addSubscribers([{ email, created: null }]);
    await page.route(`**/api/newsletter/${id}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":{"code":"x","message":"x"}}',
      }),
    );
    await openPanel(page, token);
    await search(page, email);
    await rowFor(page, email)
      .getByRole('button', { name: t('subscribers.delete') })
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('subscribers.confirm_accept') })
      .click();
    await expect(toast(page, 'Error while deleting.')).toBeVisible();
    await expect(rowFor(page, email)).toHaveCount(1);
    await sql('DELETE FROM subscribers WHERE id = $1', [id]);
  });

  test.describe('clipboard', DESKTOP, () => {
    test.beforeEach(async ({ context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    });
    const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

    test('Copy Email copies that one address', async ({ page }) => {
      await openPanel(page, token);
      const first = (await emailsShown(page))[0]!;
      await rowFor(page, first)
        .getByRole('button', { name: t('subscribers.copy') })
        .click();
      await expect(toast(page, 'Email copied!')).toBeVisible();
      expect(await clipboard(page)).toBe(first);
    });

    test('Copy all emails copies every confirmed address, not one page, joined by ", "', async ({
      page,
      request,
    }) => {
      // Thirty rows of its own beside the seeded ones (the list is longer than the page shown), and one
      // sign-up still waiting for its confirmation, which must not be copied.
      const tag = unique('copy-all');
      const mine = Array.from({ length: 30 }, (_, i) => `reader-${i}@${tag}.example`);
      const waiting = `waiting@${tag}.example`;
      const ids = await addSubscribers([
        ...mine.map((email) => ({ email, created: new Date() })),
        { email: waiting, created: new Date(), status: 'pending' as const },
      ]);
      try {
        await openPanel(page, token);
        await expect(bodyRows(page)).toHaveCount(25);
        const before = (await apiEmails(request, { status: 'confirmed' })).join(', ');
        await page.getByRole('button', { name: t('subscribers.copy_all') }).click();
        await expect(toast(page, 'All emails copied to clipboard!')).toBeVisible();
        const copied = await clipboard(page);
        const after = (await apiEmails(request, { status: 'confirmed' })).join(', ');
        // Other tests add and remove their own rows meanwhile: the copy matches the list of one moment.
        expect([before, after]).toContain(copied);
        expect(copied.split(', ')).toEqual(expect.arrayContaining(mine));
        expect(copied.split(', ')).not.toContain(waiting);
      } finally {
        await sql('DELETE FROM subscribers WHERE id = ANY($1::int[])', [ids]);
      }
    });

    test('a failed Copy all says "Failed to copy emails"', async ({ page }) => {
      await page.route(fullList, (route) => route.fulfill({ status: 500, body: '' }));
      await openPanel(page, token);
      await page.getByRole('button', { name: t('subscribers.copy_all') }).click();
      await expect(toast(page, 'Failed to copy emails')).toBeVisible();
    });
  });

  test.describe('on 120 rows of its own', DESKTOP, () => {
    let tag: string;
    let ids: number[];
    const base = Date.UTC(2025, 0, 6, 8, 0);

    test.beforeAll(async () => {
      tag = unique('bulk');
      ids = await addSubscribers(
        Array.from({ length: 120 }, (_, i) => ({
          email: `reader-${String(i + 1).padStart(3, '0')}@${tag}.example`,
          created: (i + 1) % 10 === 0 ? null : new Date(base + i * 3_600_000),
        })),
      );
    });
    test.afterAll(async () => {
      if (ids?.length) await sql('DELETE FROM subscribers WHERE id = ANY($1::int[])', [ids]);
    });

    const reader = (n: number) => `reader-${String(n).padStart(3, '0')}@${tag}.example`;
    const pager = (page: Page) => page.getByRole('navigation', { name: t('pager.subscribers') });

    test('search finds them and the pager walks them 25, 50 or 100 at a time through the API', async ({
      page,
    }) => {
      const requested: URL[] = [];
      page.on('request', (r) => r.url().includes('/api/newsletter?') && requested.push(new URL(r.url())));
      await openPanel(page, token);
      await search(page, tag);
      await expect(page.getByText(`120 addresses contain “${tag}”`)).toBeVisible();
      await expect(bodyRows(page)).toHaveCount(25);
      await expect(pager(page)).toContainText('1–25 of 120');
      await expect(pager(page)).toContainText('Page 1 of 5');
      expect(await emailsShown(page)).toEqual(Array.from({ length: 25 }, (_, i) => reader(i + 1)));

      await pager(page)
        .getByRole('button', { name: t('pager.next') })
        .click();
      await expect(pager(page)).toContainText('26–50 of 120');
      await expect(bodyRows(page).first()).toContainText(reader(26));

      await pager(page).getByLabel(t('pager.page_size')).selectOption('100');
      await expect(pager(page)).toContainText('Page 1 of 2');
      await expect(bodyRows(page)).toHaveCount(100);
      await pager(page)
        .getByRole('button', { name: t('pager.next') })
        .click();
      await expect(bodyRows(page)).toHaveCount(20);
      await expect(pager(page)).toContainText('101–120 of 120');
      const next = pager(page).getByRole('button', { name: t('pager.next') });
      await expect(next).toHaveAttribute('aria-disabled', 'true');

      await pager(page).getByLabel(t('pager.page_size')).selectOption('50');
      await expect(pager(page)).toContainText('Page 1 of 3');
      await expect(bodyRows(page)).toHaveCount(50);

      const last = requested.at(-1)!;
      expect(last.searchParams.get('q')).toBe(tag);
      expect(last.searchParams.get('page')).toBe('1');
      expect(last.searchParams.get('pageSize')).toBe('50');
      expect(
        requested.some((u) => u.searchParams.get('page') === '2' && u.searchParams.get('pageSize') === '100'),
      ).toBe(true);
      expect(requested.every((u) => !u.search.includes('token'))).toBe(true);
    });

    test('the column headers sort by e-mail and date, and say so with aria-sort', async ({ page }) => {
      await openPanel(page, token);
      await search(page, tag);
      await expect(bodyRows(page)).toHaveCount(25);
      const header = (name: string) => table(page).getByRole('columnheader', { name });
      await expect(header(t('subscribers.id'))).toHaveAttribute('aria-sort', 'ascending');

      await header(t('subscribers.email')).getByRole('button').click();
      await expect(header(t('subscribers.email'))).toHaveAttribute('aria-sort', 'ascending');
      await expect(header(t('subscribers.id'))).not.toHaveAttribute('aria-sort');
      await expect(bodyRows(page).first()).toContainText(reader(1));
      await header(t('subscribers.email')).getByRole('button').click();
      await expect(header(t('subscribers.email'))).toHaveAttribute('aria-sort', 'descending');
      await expect(bodyRows(page).first()).toContainText(reader(120));

      // Oldest first puts the rows without a date first; newest first puts them last.
      await header(t('subscribers.date')).getByRole('button').click();
      await expect(header(t('subscribers.date'))).toHaveAttribute('aria-sort', 'ascending');
      await expect(bodyRows(page).first()).toContainText('N/A');
      await expect(bodyRows(page).nth(12)).toContainText(reader(1));
      await header(t('subscribers.date')).getByRole('button').click();
      await expect(header(t('subscribers.date'))).toHaveAttribute('aria-sort', 'descending');
      await expect(bodyRows(page).first()).toContainText(reader(119));
    });

    test('Export CSV downloads every address with its date and status', async ({ page, request }) => {
      await openPanel(page, token);
      await expect(bodyRows(page).first()).toBeVisible();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: t('subscribers.export') }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^korvel-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
      await expect(toast(page, t('subscribers.exported'))).toBeVisible();
      const csv = readFileSync(await download.path(), 'utf8');
      const lines = csv.trimEnd().split('\r\n');
      expect(lines[0]).toBe('id,email,subscribed_at,status');
      const everyone = await apiEmails(request);
      expect(Math.abs(lines.length - 1 - everyone.length)).toBeLessThanOrEqual(5);
      expect(lines).toContain(`${ids[0]},${reader(1)},${new Date(base).toISOString()},confirmed`);
      expect(lines).toContain(`${ids[9]},${reader(10)},,confirmed`);
      expect(lines.filter((l) => l.includes(`@${tag}.example`))).toHaveLength(120);
    });

    test('no sideways scrolling at 320 px', async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await openPanel(page, token);
      await search(page, tag);
      await expect(bodyRows(page)).toHaveCount(25);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    });
  });

  test(
    'the list with a toast and the open confirmation passes axe, and works by keyboard',
    DESKTOP,
    async ({ page }) => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await openPanel(page, token);
      await expect(bodyRows(page)).toHaveCount(25);
      await expectNoAxeViolations(page);

      // Keyboard only: the first row's Copy Email, then its Delete and the dialog.
      const firstCopy = bodyRows(page)
        .first()
        .getByRole('button', { name: t('subscribers.copy') });
      const active = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      for (let i = 0; i < 40 && !(await firstCopy.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('Tab');
      }
      await expect(firstCopy).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(toast(page, 'Email copied!')).toBeVisible();
      await page.keyboard.press('Tab');
      expect(await active()).toContain(t('subscribers.delete'));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // The toast is dismissible: a fresh one, alone. The first closes by itself after 5 s, sooner or later than
      // the dialog's scan ends depending on the machine; were it still there when the fresh one goes, it would
      // slide under the pointer, which holds a toast open, and stay.
      await expect(toast(page, 'Email copied!')).toHaveCount(0);
      await firstCopy.click();
      await toast(page, 'Email copied!')
        .last()
        .getByRole('button', { name: t('toasts.dismiss') })
        .click();
      await expect(toast(page, 'Email copied!')).toHaveCount(0);
    },
  );
});

test.describe('inquiries', DESKTOP, () => {
  let subject: string;
  let ids: number[] = [];

  test.beforeAll(async () => {
    subject = unique('Cleanroom upgrade');
    const rows = await sql<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, company, email, position, phone, subject, message, meeting_start,
         meeting_status, privacy_version, source_page, created_at)
       VALUES
         ('contact', 'Mira Lazić', 'Sterifill d.o.o.', 'mira@sterifill.example', 'QA lead', '+381 11 555 0101',
          $1, E'We plan to convert a Grade C room to Grade B for aseptic filling.\nCan you assess the HVAC?',
          NULL, NULL, 'privacy-2026-11', '/contact', now() - interval '2 minutes'),
         ('meeting', 'Luka Babić', NULL, 'luka@biofab.example', NULL, NULL, NULL, NULL,
          date_trunc('hour', now()) + interval '3 days 10 hours', 'requested', 'privacy-2026-11', '/contact',
          now() - interval '1 minute')
       RETURNING id`,
      [subject],
    );
    ids = rows.map((r) => r.id);
  });
  test.afterAll(async () => {
    if (ids.length) await sql('DELETE FROM inquiries WHERE id = ANY($1::int[])', [ids]);
  });

  test('the second tab lists them newest first and marks one as handled', async ({ page, request }) => {
    await openPanel(page, token);
    const tab = page.getByRole('tab', { name: t('tabs.inquiries') });
    // Arrow keys move between the tabs.
    await page.getByRole('tab', { name: t('tabs.subscribers') }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab).toBeFocused();
    await expect(tab).toHaveAttribute('aria-selected', 'true');

    const panel = page.getByRole('tabpanel', { name: t('tabs.inquiries') });
    const contact = panel.getByRole('article', { name: subject });
    const meeting = panel.getByRole('article').filter({ hasText: 'luka@biofab.example' }).first();
    await expect(contact).toBeVisible();
    await expect(contact).toContainText('Mira Lazić');
    await expect(contact).toContainText('Grade C room to Grade B');
    await expect(meeting).toContainText(t('inquiries.meeting'));
    await expect(meeting).toContainText('Belgrade time');
    const titles = await panel
      .getByRole('article')
      .evaluateAll((articles) => articles.map((a) => a.getAttribute('aria-labelledby')));
    expect(titles.indexOf(`inquiry-${ids[1]}`)).toBeLessThan(titles.indexOf(`inquiry-${ids[0]}`));
    await expectNoAxeViolations(page);

    await contact.getByRole('button', { name: t('inquiries.mark_handled') }).click();
    await expect(toast(page, t('inquiries.marked_handled'))).toBeVisible();
    await expect(contact).toContainText(/Handled /);
    const listed = (await (
      await request.get('/api/inquiries?page=1&pageSize=100', { headers: bearer(token) })
    ).json()) as { id: number; handledAt: string | null }[];
    expect(listed.find((i) => i.id === ids[0])?.handledAt).not.toBeNull();

    await contact.getByRole('button', { name: t('inquiries.reopen') }).click();
    await expect(toast(page, t('inquiries.reopened'))).toBeVisible();
    await expect(contact).toContainText(t('inquiries.open'));
  });
});

test.describe('logout', DESKTOP, () => {
  let own: Credentials;
  test.beforeAll(async () => {
    own = await createAdmin('e2e-logout');
  });
  test.afterAll(async () => {
    if (own) await removeAdmin(own);
  });

  test('forgets the token, revokes it on the server and shows the sign-in page', async ({
    page,
    request,
  }) => {
    await signInThroughForm(page, own);
    const old = (await page.evaluate(() => localStorage.getItem('token')))!;
    expect((await request.get('/api/newsletter?page=1&pageSize=1', { headers: bearer(old) })).status()).toBe(
      200,
    );

    await page.getByRole('button', { name: message('admin:session.logout') }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await request.get('/api/newsletter', { headers: bearer(old) })).status()).toBe(401);
    // Back at /admin, the revoked session is not enough.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
  });
});
