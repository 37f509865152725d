import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { axe, expect, message, settle, test } from './fixtures.ts';

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

test('the four insights are titled charts whose data tables count every project, with the disclaimer', async ({
  page,
}) => {
  await page.goto('/our-references');
  const titles = [
    message('references:insights.by_division.caption'),
    message('references:insights.by_year.caption'),
    message('references:insights.duration.caption'),
    message('references:insights.services.caption'),
  ];
  await expect(page.locator('.chart-card').getByRole('heading', { level: 3 })).toHaveText(titles);
  for (const title of titles) await expect(page.getByRole('table', { name: title })).toHaveCount(1);
  const perDivision = await page
    .getByRole('table', { name: titles[0] })
    .locator('tbody tr td:first-of-type')
    .allTextContents();
  expect(perDivision).toHaveLength(6);
  expect(perDivision.map(Number).reduce((a, b) => a + b, 0)).toBe(referenceCount);
  await expect(page.getByText(message('references:disclaimer'))).toBeVisible();
});

/** Pages with charts, and how many each draws. */
const chartPages = [
  { path: '/our-references', charts: 4 },
  { path: '/electronics', charts: 1 },
];

/** Scrolls every chart card into view, one by one, and waits until each has drawn its SVG. */
async function revealCharts(page: Page) {
  for (const card of await page.locator('.chart-card').all()) {
    await card.scrollIntoViewIfNeeded();
    await expect(card.locator('.chart-card__plot svg').first()).toBeVisible();
  }
}

for (const { path, charts } of chartPages) {
  test(`${path} draws its ${charts} chart(s) only once scrolled into view`, async ({ page }) => {
    await page.goto(encodeURI(path));
    const plots = page.locator('.chart-card__plot');
    await expect(plots).toHaveCount(charts);
    await page.waitForLoadState('networkidle');
    await expect(plots.locator('svg')).toHaveCount(0);
    await revealCharts(page);
    for (const plot of await plots.all()) {
      await expect(plot).toHaveAttribute('aria-hidden', 'true');
      await expect(plot.locator('.apexcharts-canvas')).toHaveCount(1);
    }
  });

  test(`${path} passes axe with its charts drawn`, async ({ page }) => {
    await page.goto(encodeURI(path));
    await revealCharts(page);
    await settle(page);
    const { violations } = await axe(page).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
      [],
    );
  });

  test(`${path} draws its charts without animation when reduced motion is asked for`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(encodeURI(path));
    // Counts every change of a mark's outline: an animation changes each many times, a still chart once.
    await page.evaluate(() => {
      const counter = window as unknown as { outlineChanges: number };
      counter.outlineChanges = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          if ((record.target as Element).closest('.apexcharts-series')) counter.outlineChanges += 1;
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['d'] });
    });
    await revealCharts(page);
    await page.waitForTimeout(1000);
    const marks = await page.locator('.apexcharts-series path').count();
    expect(marks).toBeGreaterThan(0);
    const changes = await page.evaluate(
      () => (window as unknown as { outlineChanges: number }).outlineChanges,
    );
    expect(changes).toBeLessThanOrEqual(marks);
  });
}

test('a chart data table is there for assistive technology and shows on request', async ({ page }) => {
  await page.goto('/electronics');
  const title = (await page.locator('#market-title').textContent()) ?? '';
  expect(title).toContain('2024–2030');
  const table = page.getByRole('table', { name: title });
  await expect(table.getByRole('row')).toHaveCount(8);
  await expect(table.getByRole('row', { name: /2026/ })).toContainText('975');
  // Visually hidden (clipped to a pixel) until asked for.
  const frame = page.locator('.chart-card__data').filter({ has: table });
  expect((await frame.boundingBox())?.height ?? 0).toBeLessThanOrEqual(1);
  const toggle = page.locator('button[aria-controls="market-data"]');
  await expect(toggle).toHaveAccessibleName(message('charts:show_table'));
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toHaveAccessibleName(message('charts:hide_table'));
  expect((await frame.boundingBox())?.height ?? 0).toBeGreaterThan(100);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the insight tables show in place of the charts', async ({ page }) => {
    await page.goto('/our-references');
    await expect(page.locator('.chart-card__plot').first()).toBeHidden();
    await expect(page.locator('.chart-card table').first()).toBeVisible();
    await expect(page.locator('.chart-card__toggle').first()).toBeHidden();
  });
});
