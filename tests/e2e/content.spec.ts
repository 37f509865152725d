/**
 * The Content tab of issue 37 in the browser, against the preview's functions and its local git store (the
 * throwaway clone .data/e2e.content.git beside its database, or CONTENT_REPO): an editor signs in with the second factor, writes
 * an article with pictures (one dropped into the text, described in the picture dialog) and a component, sees
 * the check's finding, fixes it and submits; the owner publishes; the commit is then read from the repository's
 * main with git itself, and the file passes the content linter and Astro's content sync (the build's schema and
 * image checks) on a checkout of main.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { lintFile } from '../../scripts/lib/content-lint.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { createAdmin, removeAdmin, signInThroughForm, sql, type Credentials } from './admin-support.ts';
import { DESKTOP, expectNoAxeViolations, expect as baseExpect, message, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 420_000 });
const t = (key: string) => message(`admin:${key}`);
const c = (key: string) => t(`content.${key}`);

/** The repository the preview's functions commit to, read with git, not through the site's code. */
const repo = process.env.CONTENT_REPO ?? join(process.cwd(), `${E2E_DATA_DIR}.content.git`);
const git = (...args: string[]) =>
  execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8' }).trim();

const accounts: Credentials[] = [];
test.afterAll(async () => {
  for (const account of accounts.splice(0)) await removeAdmin(account);
});

async function openContent(page: Page) {
  await page.getByRole('tab', { name: t('tabs.content') }).click();
  await expect(page.getByRole('heading', { name: c('heading') })).toBeVisible();
}

/**
 * Drops a picture file onto `target` as the browser reports a file dragged from the desktop: a `drop` event
 * whose DataTransfer holds the file (Playwright drags only elements of the page itself).
 */
async function dropPicture(
  page: Page,
  target: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
      return transfer;
    },
    { name: file.name, mimeType: file.mimeType, bytes: [...file.buffer] },
  );
  await target.dispatchEvent('drop', { dataTransfer });
}

/** A small picture, different for every `n`, as a camera or a drawing program would give it. */
const picture = async (n: number) => ({
  name: `Site visit ${n}.png`,
  mimeType: 'image/png',
  buffer: await sharp({
    create: { width: 320 + n, height: 200, channels: 3, background: { r: 40 * n, g: 90, b: 140 } },
  })
    .png()
    .toBuffer(),
});

test(
  'an editor writes an article with pictures and a component, fixes the check’s finding and submits; the owner publishes it to main',
  DESKTOP,
  async ({ page, browser }) => {
    const editor = await createAdmin('content-editor', 'editor');
    const owner = await createAdmin('content-owner', 'owner');
    accounts.push(editor, owner);
    // Digits keep the title unique from run to run without a word the spelling check would query.
    const title = `Commissioning a purified water loop, run ${Date.now()}`;

    await signInThroughForm(page, editor);
    await openContent(page);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: c('new_article') }).click();

    await page.getByLabel(c('field_title'), { exact: true }).fill(title);
    const id = await page.getByLabel(c('field_id'), { exact: true }).inputValue();
    expect(id).toMatch(/^commissioning-a-purified-water-loop-run-\d+$/);
    await page
      .getByLabel(c('field_summary'), { exact: true })
      .fill(
        'How we flush, clean and sample a new purified water loop before the performance qualification starts, and what usually goes wrong.',
      );
    await page.getByLabel(c('field_author'), { exact: true }).selectOption('ivana-petrovic');
    await page.getByLabel(c('field_discipline'), { exact: true }).fill('Utilities');
    await page.getByRole('checkbox', { name: t('content.division_pharma') }).check();
    await page.getByLabel(c('field_tags'), { exact: true }).fill('utilities, pharma');
    for (const n of [1, 2, 3]) {
      await page.getByRole('button', { name: c('add_reference') }).click();
      const reference = (part: string) =>
        page.getByLabel(c(`field_reference_${part}`), { exact: true }).nth(n - 1);
      await reference('title').fill(`Guideline on water for pharmaceutical use, part ${n}`);
      await reference('publisher').fill('European Medicines Agency');
      await reference('year').fill('2021');
      await reference('url').fill(`https://www.ema.europa.eu/en/documents/guideline-${n}`);
    }
    // Three pictures for the slider, each with its alt text.
    for (const n of [1, 2, 3]) {
      await page.getByLabel(c('add_image'), { exact: true }).setInputFiles(await picture(n));
      await expect(page.getByLabel(c('field_alt'), { exact: true })).toHaveCount(n);
      await page
        .getByLabel(c('field_alt'), { exact: true })
        .nth(n - 1)
        .fill(`Engineer taking a water sample at the loop, view ${n}`);
    }

    // The text: a paragraph with a misspelling, a heading, and the firm's e-mail address as a component.
    const text = page.getByRole('textbox', { name: c('field_body'), exact: true });
    await text.click();
    await page.keyboard.type('We recieve the loop drawings before the first flush. ');
    await page.getByRole('button', { name: c('insert_email_short'), exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Sampling points');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Every point of use is sampled for three weeks.');
    await page.keyboard.press('Enter');

    // A picture dropped into the text asks for its alt text and caption before anything is stored.
    await dropPicture(page, text, await picture(4));
    const describe = page.getByRole('dialog', { name: c('picture_title') });
    await expect(describe).toBeVisible();
    await expect(describe).toContainText('Site visit 4.png');
    const alt = describe.getByLabel(c('field_alt'), { exact: true });
    await expect(alt).toBeFocused();
    await describe.getByRole('button', { name: c('picture_add') }).click();
    await expect(describe.getByText(c('picture_alt_missing'))).toBeVisible();
    await expect(alt).toHaveAttribute('aria-invalid', 'true');
    await expect(alt).toBeFocused();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/editors3/picture-dialog-1440.png' });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: 'test-results/editors3/picture-dialog-375.png' });
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await alt.fill('Sampling valve at a point of use on the purified water loop');
    await describe
      .getByLabel(c('field_caption'), { exact: true })
      .fill('The sampling valve at point of use 12');
    await describe.getByRole('button', { name: c('picture_add') }).click();
    await expect(describe).toBeHidden();
    const placed = text.getByRole('img', { name: 'Sampling valve at a point of use' });
    await expect(placed).toBeVisible();
    // The picture's Edit image button opens the same dialog with what was written; Escape changes nothing.
    await placed.click();
    await page.getByRole('button', { name: 'Edit image' }).click();
    const edit = page.getByRole('dialog', { name: c('picture_edit_title') });
    await expect(edit.getByLabel(c('field_caption'), { exact: true })).toHaveValue(
      'The sampling valve at point of use 12',
    );
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();
    // Dropped and cancelled with Escape: nothing is stored (the repository is read below) and nothing goes in.
    await dropPicture(page, text, await picture(5));
    await expect(describe).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(describe).toBeHidden();
    await expect(text.locator('img')).toHaveCount(1);

    // Check saves first, then shows the finding at its line of the text.
    await page.getByRole('button', { name: c('check'), exact: true }).click();
    const findings = page.getByRole('region', { name: c('findings') });
    await expect(findings).toContainText('recieve');
    await expect(findings).toContainText(c('finding_body_line').replace('{line}', '2'));
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: c('submit') }).click();
    await expect(page.getByText(c('submit_refused'))).toBeVisible();

    // Fix it in the rich text, check again, submit.
    // Select exactly the misspelt word with the keyboard: the start of the text, past "We ", seven letters.
    await text.focus();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 'We '.length; i += 1) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 'recieve'.length; i += 1) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.type('receive');
    await page.getByRole('button', { name: c('check'), exact: true }).click();
    // Only the notice that the German version is not written yet remains; it does not stop a submission.
    await expect(findings).not.toContainText('recieve');
    await expect(findings).not.toContainText(c('severity_error'));
    await expect(findings).toContainText(c('severity_notice'));
    await page.getByRole('button', { name: c('submit') }).click();
    await expect(page.getByText(c('submitted'))).toBeVisible();
    expect(git('for-each-ref', '--format=%(refname)', `refs/reviews/content/blog/${id}`)).toBe(
      `refs/reviews/content/blog/${id}`,
    );

    // The owner, in a browser of their own, publishes it.
    const ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const ownerPage = await ownerContext.newPage();
    await signInThroughForm(ownerPage, owner);
    await openContent(ownerPage);
    const row = ownerPage.getByRole('row', { name: new RegExp(title) });
    await expect(row).toContainText(c('status_review'));
    await row.getByRole('button', { name: title }).click();
    await ownerPage.getByRole('button', { name: c('publish') }).click();
    await expect(ownerPage.getByText(c('published'))).toBeVisible();
    await ownerContext.close();

    // On main: a merge commit by the owner with the file, the pictures beside it; the branch is gone.
    const file = `src/content/blog/${id}.mdx`;
    const published = git('show', `main:${file}`);
    expect(published).toContain(`title: '${title}'`);
    expect(published).toContain('We receive the loop drawings before the first flush.');
    expect(published).toContain('<Email />');
    expect(published).toContain('## Sampling points');
    expect(published).toMatch(
      /src: '\.\.\/\.\.\/assets\/articles\/[a-z0-9-]+\/site-visit-1-[0-9a-f]{10}\.png'/,
    );
    // The dropped picture beside the others, in the text with its alt text and caption; the cancelled one nowhere.
    expect(published).toMatch(
      /^!\[Sampling valve at a point of use on the purified water loop\]\(\.\.\/\.\.\/assets\/articles\/[a-z0-9-]+\/site-visit-4-[0-9a-f]{10}\.png "The sampling valve at point of use 12"\)$/m,
    );
    expect(git('log', '--all', '--format=', '--name-only')).not.toContain('site-visit-5');
    expect(git('log', '-1', '--format=%ae %P', 'main')).toMatch(new RegExp(`^${owner.email} \\w+ \\w+$`));
    expect(git('branch', '--list', `content/blog/${id}`)).toBe('');

    // main's checkout passes the content linter and Astro's content sync (the build's schema and images).
    const checkout = mkdtempSync(join(tmpdir(), 'korvel-content-main-'));
    try {
      execFileSync('sh', ['-c', `git --git-dir "${repo}" archive main | tar -x -C "${checkout}"`]);
      symlinkSync(join(process.cwd(), 'node_modules'), join(checkout, 'node_modules'));
      const problems = (await lintFile(checkout, file)).filter((p) => !p.notice);
      expect(problems).toEqual([]);
      const sync = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'sync'], {
        cwd: checkout,
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0' },
      });
      expect(sync.status, `${sync.stdout}\n${sync.stderr}`).toBe(0);
      expect(existsSync(join(checkout, '.astro'))).toBe(true);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  },
);

test('the Content tab and the editor have no accessibility violations', async ({ page }) => {
  const editor = await createAdmin('content-axe', 'editor');
  accounts.push(editor);
  await signInThroughForm(page, editor);
  await openContent(page);
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoAxeViolations(page);
  await page
    .getByRole('row', { name: /Medicines versus dietary supplements/ })
    .getByRole('button')
    .click();
  await expect(page.getByRole('textbox', { name: c('field_body'), exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: c('field_body'), exact: true })).toContainText(
    'Facility design',
  );
  await expectNoAxeViolations(page);
});

/**
 * `shown` scrolled into view and the page screenshot at 1440 and at 375 px wide
 * (test-results/editors2/<name>-<width>.png), axe-clean at both; the page is left at 375 px.
 */
async function accessibleAtBothWidths(page: Page, shown: Locator, name: string) {
  await expectNoAxeViolations(page);
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/editors2/${name}-1440.png` });
  await page.setViewportSize({ width: 375, height: 812 });
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/editors2/${name}-375.png` });
  await expectNoAxeViolations(page);
}

test(
  'the owner switches whether editors may publish; an opened piece links its preview on this server, with its state',
  DESKTOP,
  async ({ page, context }) => {
    const owner = await createAdmin('content-settings', 'owner');
    accounts.push(owner);
    await signInThroughForm(page, owner);
    await openContent(page);

    // The switch under the list: turned on, then off again. It changes when the server has stored the
    // owner's choice, so it is clicked and then awaited, not `check()`ed. The preview's database outlives
    // the test: pass or fail, the setting's row goes again, so no other test meets the owner's choice.
    try {
      const setting = page.getByRole('checkbox', { name: c('editors_publish') });
      await expect(setting).toBeVisible();
      if (await setting.isChecked()) {
        await setting.click();
        await expect(setting).not.toBeChecked();
      }
      await setting.click();
      await expect(page.getByText(c('editors_publish_on'))).toBeVisible();
      await expect(setting).toBeChecked();
      await expect(page.getByText(c('hint_publish'))).toBeVisible();
      await accessibleAtBothWidths(page, setting, 'content-setting');
      await setting.click();
      await expect(page.getByText(c('editors_publish_off'))).toBeVisible();
      await expect(setting).not.toBeChecked();
    } finally {
      await sql(`DELETE FROM admin_settings WHERE name = 'content_editors_publish'`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // The German GMP article: its preview is the page on this server, in German.
    await page
      .getByRole('row', { name: /Arzneimittel oder Nahrungsergänzungsmittel/ })
      .getByRole('button')
      .first()
      .click();
    const preview = page.getByRole('link', { name: c('preview_link') });
    await expect(preview).toHaveAttribute('href', '/de/blog/gmp');
    await expect(page.getByRole('status').filter({ hasText: c('preview_local') })).toBeVisible();
    await accessibleAtBothWidths(page, preview, 'content-preview');

    // The link opens the draft's page beside the editor.
    const [opened] = await Promise.all([context.waitForEvent('page'), preview.click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/de/blog/gmp');
    await expect(opened.getByRole('heading', { level: 1 })).toBeVisible();
    await opened.close();
  },
);
