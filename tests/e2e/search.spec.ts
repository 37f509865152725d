import { axe, expect, frontMatter, message, settle, test } from './fixtures.ts';

const article = frontMatter('blog', 'closed-systems', 'title');
const status = (key: string, values: Record<string, string>) =>
  message(`search:status.${key}`).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
const manyResults = (query: string) =>
  new RegExp(`^\\d+ ${status('other', { count: '', query }).trim().replace(/[.“”]/g, '\\$&')}$`);

// The case studies (issue 15) mention Annex 1 too, so the query names the article's subject as well.
test('the header dialog finds "Annex 1 closed" in the closed-systems article, by keyboard', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  const open = page.getByRole('button', { name: message('search:open_label') });
  await open.click();
  const dialog = page.getByRole('dialog', { name: message('search:dialog_title') });
  await expect(dialog).toBeVisible();
  const input = dialog.getByRole('searchbox', { name: message('search:label') });
  await expect(input).toBeFocused();

  await input.pressSequentially('Annex 1 closed');
  await expect(dialog.getByRole('status')).toHaveText(manyResults('Annex 1 closed'));
  const result = dialog.getByRole('link', { name: article });
  await expect(result).toBeVisible();
  const card = dialog.locator('.search-result').filter({ has: page.getByRole('link', { name: article }) });
  // The excerpt marks the words that matched (Pagefind matches "1" as a prefix too).
  await expect(card.locator('mark').first()).toBeVisible();
  await settle(page);
  await page.screenshot({ path: testInfo.outputPath(`search-dialog-${testInfo.project.name}.png`) });

  const { violations } = await axe(page).include('dialog[open]').analyze();
  expect(violations.map((v) => v.id)).toEqual([]);

  // The modal keeps focus inside: tabbing through every control never reaches the page behind.
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test('/search?q=Annex+1+closed lists the closed-systems article and opens it', async ({ page }, testInfo) => {
  await page.goto('/search?q=Annex+1+closed');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(message('search:page.title'));
  await expect(page.getByRole('searchbox', { name: message('search:label') })).toHaveValue('Annex 1 closed');
  await expect(page.getByRole('status')).toHaveText(manyResults('Annex 1 closed'));
  const result = page.getByRole('heading', { level: 2, name: article }).getByRole('link');
  await expect(result).toBeVisible();
  await settle(page);
  await page.screenshot({ path: testInfo.outputPath(`search-page-${testInfo.project.name}.png`) });
  await result.click();
  await expect(page).toHaveURL(/\/blog\/closed-systems$/);
});

test('filters narrow the results by type and division, and the address keeps them', async ({ page }) => {
  await page.goto('/search?q=Annex+1&type=article&division=pharma');
  await expect(page.getByRole('link', { name: article })).toBeVisible();
  const metas = page.locator('.search-result__meta');
  for (const text of await metas.allTextContents()) expect(text).toMatch(/^Article · /);

  await page.getByRole('combobox', { name: message('search:type') }).selectOption('news');
  await expect(page).toHaveURL(/type=news/);
  await expect(page.getByRole('link', { name: article })).toHaveCount(0);
});

test('Pagefind and the search code load only once search is opened', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/blog/closed-systems');
  await page.waitForLoadState('networkidle');
  expect(requested.filter((path) => /pagefind|search-panel|site-search\./.test(path))).toEqual([]);

  await page.getByRole('button', { name: message('search:open_label') }).click();
  await page.getByRole('searchbox', { name: message('search:label') }).fill('cleanroom');
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText(manyResults('cleanroom'));
  expect(requested).toContain('/pagefind/pagefind.js');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the header links /search, which says search needs JavaScript and links the lists', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('link', { name: message('search:open_label') }).click();
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.getByText(message('search:no_js.text'))).toBeVisible();
    for (const [key, href] of [
      ['blog', '/blog'],
      ['news', '/news'],
      ['references', '/our-references'],
    ] as const) {
      const link = page
        .getByRole('main')
        .getByRole('link', { name: message(`search:no_js.${key}`), exact: true });
      await expect(link).toHaveAttribute('href', href);
    }
    await expect(page.getByRole('searchbox')).toBeHidden();
  });
});
