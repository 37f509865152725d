/**
 * The team admin of issue 23 in the browser, against the preview's functions, database and mail catcher:
 * the sign-in's second step, roles and their tabs, the Team and Activity tabs, invitations and password
 * resets from the mailed link, passkeys in Chromium's virtual authenticator, and the idle-session warning.
 */
import type { Page } from '@playwright/test';
import type { CaughtMail } from '../../scripts/lib/mail-catcher.ts';
import {
  apiToken,
  bearer,
  createAdmin,
  freshTotpCode,
  openPanel,
  removeAdmin,
  signInThroughForm,
  sql,
  totpCode,
  unique,
  type Credentials,
} from './admin-support.ts';
import { waitForMail } from './mail-inbox.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, isMobile, message, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });
// Behaviour that does not depend on the viewport runs in the desktop project only (`DESKTOP`).
const t = (key: string) => message(`admin:${key}`);

/** The link a mail carries to `path`, with its `#token=` fragment. */
function mailedLink(mail: CaughtMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]*${path}#token=[\\w.-]+`).exec(mail.text);
  expect(match, `a ${path} link in: ${mail.text}`).not.toBeNull();
  return match![0];
}

/** Opens a mailed link on the preview, whatever host the mail names. */
const local = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.hash}`;
};

const tabs = (page: Page) => page.getByRole('tablist', { name: t('tabs.label') }).getByRole('tab');

/** Shows the tab and waits for its content. */
async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name: t(`tabs.${name}`) }).click();
}

const members: Credentials[] = [];
async function member(label: string, role: 'owner' | 'editor' | 'sales' = 'owner') {
  const credentials = await createAdmin(label, role);
  members.push(credentials);
  return credentials;
}
test.afterAll(async () => {
  for (const credentials of members.splice(0)) await removeAdmin(credentials);
});

test.describe('sign-in with a second factor', () => {
  test('password, then the authenticator code: the panel opens with the owner’s tabs', async ({ page }) => {
    const owner = await member('e2e-mfa');
    await page.goto('/admin/login');
    await expect(page.getByRole('link', { name: t('login_form.forgot') })).toHaveAttribute(
      'href',
      '/admin/forgot-password',
    );
    await page.getByLabel(t('login_form.email')).fill(owner.email);
    await page.getByLabel(t('login_form.password')).fill(owner.password);
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    const code = page.getByLabel(t('second_step.code'));
    await expect(code).toBeVisible();
    // Nothing is stored until the second factor passes.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect(page.getByRole('heading', { name: t('second_step.heading') })).toBeFocused();
    await expectNoAxeViolations(page);

    // The code of ten minutes ago: well outside the accepted window.
    await code.fill(totpCode(owner.totpSecret, Date.now() - 10 * 60_000));
    await page.getByRole('button', { name: t('second_step.submit') }).click();
    await expect(page.getByText(t('second_step.wrong_code'))).toBeVisible();

    await code.fill(await freshTotpCode(owner));
    await page.getByRole('button', { name: t('second_step.submit') }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(tabs(page)).toHaveText([
      t('tabs.subscribers'),
      t('tabs.inquiries'),
      t('tabs.campaigns'),
      t('tabs.overview'),
      t('tabs.team'),
      t('tabs.activity'),
      t('tabs.suppressions'),
      t('tabs.content'),
    ]);
    await expect(page.getByRole('link', { name: t('session.account') })).toHaveAttribute(
      'href',
      '/admin/account',
    );
  });

  test('a recovery code passes the second step once', DESKTOP, async ({ page, request }) => {
    const owner = await member('e2e-recovery');
    const codes = await request.post('/api/account/recovery-codes', {
      headers: bearer(await apiToken(request, owner)),
      data: { currentPassword: owner.password },
    });
    expect(codes.status()).toBe(200);
    const [first] = ((await codes.json()) as { recoveryCodes: string[] }).recoveryCodes;
    await page.goto('/admin/login');
    await page.getByLabel(t('login_form.email')).fill(owner.email);
    await page.getByLabel(t('login_form.password')).fill(owner.password);
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    await page.getByRole('button', { name: t('second_step.use_recovery') }).click();
    await page.getByLabel(t('second_step.recovery')).fill(first!);
    await page.getByRole('button', { name: t('second_step.submit') }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});

test.describe('roles', DESKTOP, () => {
  test('sales sees only the inquiries; an editor subscribers, newsletter issues, the overview, suppressions and content', async ({
    page,
    request,
  }) => {
    const sales = await member('e2e-sales', 'sales');
    await openPanel(page, await apiToken(request, sales));
    await expect(tabs(page)).toHaveText([t('tabs.inquiries')]);
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expect(page.getByText(t('subscribers.heading'))).toHaveCount(0);

    const editor = await member('e2e-editor', 'editor');
    await openPanel(page, await apiToken(request, editor));
    await expect(tabs(page)).toHaveText([
      t('tabs.subscribers'),
      t('tabs.campaigns'),
      t('tabs.overview'),
      t('tabs.suppressions'),
      t('tabs.content'),
    ]);
  });
});

test.describe('team tab', () => {
  test('invite by mail, then the invitation is accepted and the new person enrols', async ({
    browser,
    page,
    request,
  }) => {
    const owner = await member('e2e-team-owner');
    await openPanel(page, await apiToken(request, owner));
    await openTab(page, 'team');
    await expect(page.getByRole('heading', { name: t('team.heading') })).toBeVisible();
    await expectNoAxeViolations(page);

    const email = `${unique('e2e-invitee')}@korvel.example`;
    await page.getByRole('button', { name: t('team.invite') }).click();
    const dialog = page.getByRole('dialog', { name: t('team.dialog_title') });
    await expect(dialog.getByLabel(t('team.email'))).toBeFocused();
    await dialog.getByLabel(t('team.email')).fill(email);
    await dialog.getByRole('radio', { name: new RegExp(`^${t('roles.sales')}`) }).check();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: t('team.send_invite') }).click();
    await expect(page.locator('.admin-toast').filter({ hasText: email })).toBeVisible();
    const card = page.locator('.admin-member').filter({ hasText: email });
    await expect(card).toContainText(t('team.status_invited'));
    await expect(card).toContainText(t('roles.sales'));
    members.push({ email, password: '', totpSecret: '' });

    const mail = await waitForMail(request, (mail) => mail.envelope.to.includes(email));
    const link = mailedLink(mail, '/admin/invite');
    // The person opens the link in a browser of their own.
    const inviteeContext = await browser.newContext();
    const invitee = await inviteeContext.newPage();
    await invitee.goto(local(link));
    await expect(invitee.getByText(email)).toBeVisible();
    // The token leaves the address bar at once.
    await expect(invitee).toHaveURL(/\/admin\/invite$/);
    await expectNoAxeViolations(invitee);
    const password = `Lab bench ${unique('pw')} sterile`;
    await invitee.getByLabel(t('invite_form.name')).fill('Sara Sales');
    await invitee.getByLabel(t('password.new'), { exact: true }).fill(password);
    await invitee.getByLabel(t('password.repeat'), { exact: true }).fill(password);
    await invitee.getByRole('button', { name: t('invite_form.submit') }).click();

    await expect(invitee).toHaveURL(/\/admin\/account$/);
    await expect(invitee.getByRole('heading', { name: t('account_page.enrol_heading') })).toBeVisible();
    await expectNoAxeViolations(invitee);
    await invitee.getByRole('button', { name: t('account_page.totp_add') }).click();
    // Every factor change asks again who it is: here, with the password just chosen.
    await invitee.getByLabel(t('account_page.proof_password'), { exact: true }).fill(password);
    await invitee.getByRole('button', { name: t('account_page.proof_submit') }).click();
    await expect(invitee.getByRole('img', { name: t('account_page.totp_qr') })).toBeVisible();
    const secret = (await invitee.locator('[data-secret]').getAttribute('data-secret'))!;
    await invitee.getByLabel(t('account_page.totp_code')).fill(totpCode(secret));
    await invitee.getByRole('button', { name: t('account_page.totp_confirm') }).click();
    const codes = invitee.getByRole('list', { name: t('account_page.codes_label') }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expectNoAxeViolations(invitee);
    await invitee.getByRole('button', { name: t('account_page.continue') }).click();
    await expect(invitee).toHaveURL(/\/admin$/);
    await expect(tabs(invitee)).toHaveText([t('tabs.inquiries')]);
    await inviteeContext.close();

    // The link worked once.
    await page.goto(local(link));
    await expect(page.getByText(t('invite_form.expired'))).toBeVisible();
  });

  test(
    'change a role, disable and enable, reset factors, delete; the last owner is protected',
    DESKTOP,
    async ({ page, request }) => {
      const owner = await member('e2e-team-actions');
      const colleague = await member('e2e-colleague', 'editor');
      await openPanel(page, await apiToken(request, owner));
      await openTab(page, 'team');
      const card = page.locator('.admin-member').filter({ hasText: colleague.email });

      await card.getByLabel(t('team.change_role')).selectOption('sales');
      await expect(page.locator('.admin-toast').filter({ hasText: colleague.email })).toBeVisible();
      expect(
        (await sql<{ role: string }>('SELECT role FROM admins WHERE email = $1', [colleague.email]))[0]!.role,
      ).toBe('sales');

      const colleagueToken = await apiToken(request, colleague);
      await card.getByRole('button', { name: t('team.disable') }).click();
      const confirm = page.getByRole('dialog', { name: t('team.disable_title') });
      await expect(confirm.getByRole('button', { name: t('team.cancel') })).toBeFocused();
      await confirm.getByRole('button', { name: t('team.disable') }).click();
      await expect(card).toContainText(t('team.status_disabled'));
      expect((await request.get('/api/inquiries', { headers: bearer(colleagueToken) })).status()).toBe(401);
      await card.getByRole('button', { name: t('team.enable') }).click();
      await expect(card).toContainText(t('team.status_active'));

      await card.getByRole('button', { name: t('team.reset_factors') }).click();
      await page
        .getByRole('dialog', { name: t('team.reset_title') })
        .getByRole('button', { name: t('team.reset_factors') })
        .click();
      await expect(card).toContainText(t('team.factor_none'));

      // A 409 last_owner is explained, not swallowed (the shared test database always has other owners).
      await page.route('**/api/team/*', (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({
              status: 409,
              contentType: 'application/json',
              body: JSON.stringify({ error: { code: 'last_owner', message: 'last owner' } }),
            })
          : route.continue(),
      );
      const own = page.locator('.admin-member').filter({ hasText: owner.email });
      await own.getByLabel(t('team.change_role')).selectOption('editor');
      await expect(page.locator('.admin-toast').filter({ hasText: t('team.last_owner') })).toBeVisible();
      await expect(own.getByLabel(t('team.change_role'))).toHaveValue('owner');
      await page.unroute('**/api/team/*');

      await card.getByRole('button', { name: t('team.delete') }).click();
      await page
        .getByRole('dialog', { name: t('team.delete_title') })
        .getByRole('button', { name: t('team.delete') })
        .click();
      await expect(card).toHaveCount(0);
      expect(await sql('SELECT 1 FROM admins WHERE email = $1', [colleague.email])).toEqual([]);
    },
  );
});

test.describe('activity tab', () => {
  test('lists the sign-ins newest first, filtered by action and person', async ({ page, request }) => {
    const owner = await member('e2e-activity');
    await openPanel(page, await apiToken(request, owner));
    await openTab(page, 'activity');
    const table = page.getByRole('table', { name: t('activity.heading') });
    await expect(table).toBeVisible();
    // Exact labels: the Subscribers tab's import (kept mounted) explains its consent mode with "each person".
    await page.getByLabel(t('activity.actor'), { exact: true }).selectOption({ label: owner.email });
    await page.getByLabel(t('activity.action'), { exact: true }).selectOption('auth.sign_in');
    const rows = table.locator('tbody tr');
    await expect(rows.first()).toContainText(owner.email);
    await expect(rows.first()).toContainText(t('activity_actions.auth_sign_in'));
    await expect(rows.first().locator('time')).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    for (const text of await rows.allInnerTexts()) expect(text).toContain(owner.email);
    await expectNoAxeViolations(page);
  });
});

test.describe('forgotten password', () => {
  test('the same answer for any address; the mailed link sets a new password, then both steps again', async ({
    page,
    request,
  }) => {
    const owner = await member('e2e-reset');
    // Five reset requests per network in 15 minutes: every run of this test asks from 127.0.0.1, so the
    // count starts afresh: this test is about the screens, not the server's limit.
    await sql("DELETE FROM rate_limits WHERE scope = 'reset-ip'");
    await page.goto('/admin/forgot-password');
    await expectNoAxeViolations(page);

    // A throttled network is told so, not sent to check its connection.
    await page.route('**/admin/password-reset', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '600' },
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }),
      }),
    );
    await page.getByLabel(t('forgot_form.email')).fill(owner.email);
    await page.getByRole('button', { name: t('forgot_form.submit') }).click();
    await expect(page.getByRole('alert')).toHaveText(t('forgot_form.throttled'));
    await page.unroute('**/admin/password-reset');
    const ask = async (email: string) => {
      await page.goto('/admin/forgot-password');
      await page.getByLabel(t('forgot_form.email')).fill(email);
      await page.getByRole('button', { name: t('forgot_form.submit') }).click();
      const sent = page.getByRole('status').filter({ hasText: email });
      await expect(sent).toBeVisible();
      return (await sent.innerText()).replace(email, '<address>');
    };
    const unknown = await ask(`${unique('nobody')}@korvel.example`);
    expect(await ask(owner.email)).toBe(unknown);

    const link = mailedLink(
      await waitForMail(request, (mail) => mail.envelope.to.includes(owner.email)),
      '/admin/reset-password',
    );
    await page.goto(local(link));
    await expect(page).toHaveURL(/\/admin\/reset-password$/);
    await page.getByLabel(t('password.new'), { exact: true }).fill('too short');
    await page.getByLabel(t('password.repeat'), { exact: true }).fill('too short');
    await page.getByRole('button', { name: t('reset_form.submit') }).click();
    await expect(page.getByText(t('password.too_short'))).toBeVisible();
    await expectNoAxeViolations(page);
    const password = `Granite ${unique('pw')} reactor`;
    await page.getByLabel(t('password.new'), { exact: true }).fill(password);
    await page.getByLabel(t('password.repeat'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('reset_form.submit') }).click();
    await expect(page.getByText(t('reset_form.done'))).toBeVisible();

    await signInThroughForm(page, { ...owner, password });
    await page.goto(local(link));
    await page.getByLabel(t('password.new'), { exact: true }).fill(`${password} again`);
    await page.getByLabel(t('password.repeat'), { exact: true }).fill(`${password} again`);
    await page.getByRole('button', { name: t('reset_form.submit') }).click();
    await expect(page.getByText(t('reset_form.expired'))).toBeVisible();
  });
});

test.describe('passkeys', DESKTOP, () => {
  test('a passkey added on the account page signs in through Chromium’s virtual authenticator', async ({
    page,
    request,
  }) => {
    const owner = await member('e2e-passkey');
    // WebAuthn refuses IP hosts: the passkey pages open on localhost.
    const host = `http://localhost:${new URL(test.info().project.use.baseURL!).port}`;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto(`${host}/robots.txt`);
    const token = await apiToken(request, owner);
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto(`${host}/admin/account`);
    await page.getByLabel(t('account_page.passkey_name')).fill('Virtual key');
    await page.getByRole('button', { name: t('account_page.passkey_add') }).click();
    // The change asks again who it is: a code from the app stands in for the password.
    const proof = page.getByRole('dialog', { name: t('account_page.proof_title') });
    await expect(proof).toBeVisible();
    await expectNoAxeViolations(page);
    await proof.getByLabel(t('account_page.proof_either')).fill(await freshTotpCode(owner));
    await proof.getByRole('button', { name: t('account_page.proof_submit') }).click();
    await expect(
      page.locator('.admin-toast').filter({ hasText: t('account_page.passkey_added') }),
    ).toBeVisible();
    await expect(page.getByText('Virtual key')).toBeVisible();

    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto(`${host}/admin/login`);
    await page.getByLabel(t('login_form.email')).fill(owner.email);
    await page.getByLabel(t('login_form.password')).fill(owner.password);
    await page.getByRole('button', { name: t('login_form.submit') }).click();
    await page.getByRole('button', { name: t('second_step.passkey') }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});

test.describe('account page', () => {
  test('shows the details, factors and sessions; "Sign out everywhere" ends every session', async ({
    page,
    request,
  }) => {
    const owner = await member('e2e-account');
    const other = await apiToken(request, owner);
    await openPanel(page, await apiToken(request, owner));
    await page.getByRole('link', { name: t('session.account') }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByRole('heading', { name: t('account_page.sessions') })).toBeVisible();
    await expect(page.getByText(t('account_page.session_current'))).toBeVisible();
    await expect(page.getByText(t('account_page.totp_on'))).toBeVisible();
    await expectNoAxeViolations(page);
    if (isMobile(page)) return;
    await page.getByRole('button', { name: t('account_page.sign_out_all') }).click();
    await page
      .getByRole('dialog', { name: t('account_page.sign_out_all_title') })
      .getByRole('button', { name: t('account_page.sign_out_all') })
      .click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect((await request.get('/api/account', { headers: bearer(other) })).status()).toBe(401);
  });
});

test.describe('idle session', () => {
  test('warns a minute before 30 idle minutes, stays on request, signs out at the limit and keeps the draft', async ({
    page,
    request,
  }) => {
    const owner = await member('e2e-idle');
    await page.clock.install();
    // The subscriber list loads after a short debounce: its two calls count as activity, so they must have
    // answered before the clock jumps, or they would land after the jump and rightly restart the idle clock.
    const listed = Promise.all([
      page.waitForResponse((r) => /\/api\/newsletter\?(?!.*status=pending)/.test(r.url())),
      page.waitForResponse((r) => /\/api\/newsletter\?.*status=pending/.test(r.url())),
    ]);
    await openPanel(page, await apiToken(request, owner));
    await expect(tabs(page).first()).toBeVisible();
    await listed;
    const warning = page.getByRole('alertdialog', { name: t('idle.title') });

    await page.clock.fastForward('28:50');
    await expect(warning).toBeHidden();
    await page.clock.fastForward('00:20');
    await expect(warning).toBeVisible();
    await expect(warning.getByRole('button', { name: t('idle.stay') })).toBeFocused();
    await expectNoAxeViolations(page);
    const kept = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/account');
    await warning.getByRole('button', { name: t('idle.stay') }).click();
    await kept;
    await expect(warning).toBeHidden();
    if (isMobile(page)) return;

    await openTab(page, 'campaigns');
    await page.getByRole('button', { name: t('campaigns.new') }).click();
    const subject = `Idle draft ${unique('s')}`;
    await page.getByLabel(t('campaigns.subject')).fill(subject);
    await page.getByLabel(t('campaigns.markdown')).fill('Text that must survive the sign-out.');
    await page.clock.fastForward('30:05');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByText(t('login_form.idle_signed_out'))).toBeVisible();

    await page.clock.resume();
    await signInThroughForm(page, owner);
    await page.getByRole('button', { name: t('tabs.draft_open') }).click();
    await expect(page.getByLabel(t('campaigns.subject'))).toHaveValue(subject);
    await expect(page.getByLabel(t('campaigns.markdown'))).toHaveValue(
      'Text that must survive the sign-out.',
    );
  });
});
