import { readdirSync } from 'node:fs';
import { expect, message, test } from './fixtures.ts';

const referenceCount = readdirSync('src/content/references').filter((f) => f.endsWith('.yaml')).length;

test('/our-references groups every project by division under its anchor', async ({ page }) => {
  await page.goto('/our-references');
  expect(referenceCount).toBeGreaterThanOrEqual(24);
  await expect(page.locator('.project')).toHaveCount(referenceCount);
  for (const anchor of ['pharma', 'food', 'chemicals', 'electronics', 'energy', 'oil-gas']) {
    await expect(page.locator(`section#${anchor} .project`).first()).toBeVisible();
  }
});

test('a sector page links to its section of the references', async ({ page }) => {
  await page.goto('/oil&gas');
  await page.locator('a[href="/our-references#oil-gas"]').click();
  await expect(page).toHaveURL(/\/our-references#oil-gas$/);
  await expect(page.locator('section#oil-gas h2')).toBeInViewport();
});

test('the four insights are captioned tables computed from the projects, with the disclaimer', async ({
  page,
}) => {
  await page.goto('/our-references');
  const captions = page.locator('.insight caption');
  await expect(captions).toHaveText([
    message('references:insights.by_division.caption'),
    message('references:insights.by_year.caption'),
    message('references:insights.duration.caption'),
    message('references:insights.services.caption'),
  ]);
  const perDivision = await page
    .locator('.insight')
    .first()
    .locator('tbody td.insight__value')
    .allTextContents();
  const total = perDivision.map((cell) => Number(/\((\d+)\)/.exec(cell)![1])).reduce((a, b) => a + b, 0);
  expect(total).toBe(referenceCount);
  await expect(page.getByText(message('references:disclaimer'))).toBeVisible();
});
