/**
 * Insight (issue 24) in Chromium against the preview: with consent stored, page views, a brochure download and
 * a search without results reach GET /api/insights; without consent no page sends anything to /api/collect;
 * the admin Overview draws every chart with its table at this width and passes axe.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { chromiumArgs, testChromiumPath } from '../../scripts/chromium.ts';
import { apiToken, bearer, createAdmin, openPanel, removeAdmin, sql } from './admin-support.ts';
import { DESKTOP, axe, expect as baseExpect, message, settle, test } from './fixtures.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const today = () => new Date().toISOString().slice(0, 10);
/** One word of letters that no page contains (and that does not look like personal data). */
const nonsense = () =>
  `zqxj${Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/**
 * Playwright's Chromium announces itself (navigator.webdriver, "HeadlessChrome"), and the site rightly counts
 * neither. These tests stand in for a real visitor's browser: a desktop Chrome user-agent for the whole
 * browser (a beacon sent while a page unloads leaves with the browser's own user-agent, not the page's
 * override) and no webdriver flag.
 */
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
test.use({
  userAgent: CHROME,
  launchOptions: { executablePath: testChromiumPath(), args: [...chromiumArgs, `--user-agent=${CHROME}`] },
});
async function asRealVisitor(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
  });
}

async function insightsToday(request: APIRequestContext, token: string) {
  const reply = await request.get(`/api/insights?from=${today()}&to=${today()}`, { headers: bearer(token) });
  expect(reply.status()).toBe(200);
  return (await reply.json()) as {
    pages: { path: string; views: number }[];
    conversions: { brochure: number };
    searches: { query: string; results: number; count: number }[];
  };
}

const viewsOf = (body: Awaited<ReturnType<typeof insightsToday>>, path: string) =>
  body.pages.find((p) => p.path === path)?.views ?? 0;

test.describe('with consent stored', () => {
  test(
    'three page views, a brochure download and a search without results reach /api/insights today',
    DESKTOP,
    async ({ page, request }) => {
      // Desktop project only: the day's counters are shared; counted from one browser, the differences are exact.
      const admin = await createAdmin('insight-reader');
      const token = await apiToken(request, admin);
      const path = '/about-us/our-values';
      const before = await insightsToday(request, token);
      await asRealVisitor(page);
      for (let view = 0; view < 3; view += 1) {
        await page.goto(path);
        await settle(page);
      }
      const download = page.waitForEvent('download');
      await page.locator('a.brochure-link').first().click();
      await download;

      const query = nonsense();
      await page.goto(`/search?q=${query}`);
      await expect(page.getByRole('status')).toHaveText(
        message('search:status.none').replace('{{query}}', query),
      );
      // Leaving the page sends its beacon; a page without scripts sends none of its own.
      await page.goto('/robots.txt');

      await expect
        .poll(async () => {
          const after = await insightsToday(request, token);
          return {
            views: viewsOf(after, path) - viewsOf(before, path),
            brochure: after.conversions.brochure - before.conversions.brochure,
            search: after.searches.find((s) => s.query === query),
          };
        })
        .toEqual({ views: 3, brochure: 1, search: { query, results: 0, count: 1 } });
      await removeAdmin(admin);
    },
  );
});

test.describe('without consent', () => {
  test.use({ consentStored: false });

  test('no page sends a request to /api/collect, whether the banner is declined or left unanswered', async ({
    page,
    context,
    request,
  }) => {
    const admin = await createAdmin('insight-no-consent');
    const token = await apiToken(request, admin);
    const before = await insightsToday(request, token);
    await asRealVisitor(page);
    const measured: string[] = [];
    context.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/collect' || /\/(beacon|web-vitals)\.[\w-]+\.js$/.test(path)) measured.push(path);
    });

    await page.goto('/food');
    const banner = page.getByRole('region', { name: message('common:cookie_banner.label') });
    await expect(banner).toBeVisible({ timeout: 15_000 });
    await banner.getByRole('button', { name: message('common:cookie_banner.decline') }).click();
    await page.goto('/career');
    const download = page.waitForEvent('download');
    await page.locator('a.brochure-link').first().click();
    await download;
    await page.goto(`/search?q=${nonsense()}`);
    await expect(page.getByRole('status')).not.toBeEmpty();
    await page.goto('/food');
    await page.goto('/robots.txt');
    // Give a late beacon, if there were one, time to arrive.
    await page.waitForTimeout(2000);

    expect(measured).toEqual([]);
    const after = await insightsToday(request, token);
    expect(viewsOf(after, '/food')).toBe(viewsOf(before, '/food'));
    expect(viewsOf(after, '/career')).toBe(viewsOf(before, '/career'));
    await removeAdmin(admin);
  });
});

/** Counters of today and of the week before, so every chart has something to draw. */
async function seedOverview() {
  const day = today();
  await sql(
    `INSERT INTO insight_page_views (day, path, device, views)
     SELECT $1::date - d, p, dev, 5 + d * 3 FROM generate_series(0, 6) AS d,
       unnest(ARRAY['/', '/pharma', '/blog/gmp']) AS p, unnest(ARRAY['phone', 'desktop']) AS dev
     ON CONFLICT DO NOTHING`,
    [day],
  );
  await sql(
    `INSERT INTO insight_entries (day, referrer, utm_source, utm_medium, utm_campaign, entries) VALUES
       ($1, 'linkedin.com', 'linkedin', 'social', 'annex 1', 12), ($1, '', '', '', '', 20),
       ($1, 'google.com', '', '', '', 9)
     ON CONFLICT DO NOTHING`,
    [day],
  );
  await sql(
    `INSERT INTO insight_vitals (day, path, metric, bucket, samples) VALUES
       ($1, '/pharma', 'LCP', 14, 8), ($1, '/pharma', 'LCP', 19, 3), ($1, '/', 'LCP', 8, 10),
       ($1, '/', 'CLS', 12, 4), ($1, '/', 'INP', 12, 5)
     ON CONFLICT DO NOTHING`,
    [day],
  );
  await sql(
    `INSERT INTO insight_searches (day, query, results, searches) VALUES
       ($1, 'cleanroom hvac', 0, 4), ($1, 'pat testing', 0, 2)
     ON CONFLICT DO NOTHING`,
    [day],
  );
  await sql(
    `INSERT INTO insight_conversions (day, kind, conversions) VALUES ($1, 'contact', 3), ($1, 'signup', 2)
     ON CONFLICT DO NOTHING`,
    [day],
  );
}

test('the Overview tab draws every chart with its data table and passes axe at this width', async ({
  page,
  request,
}, testInfo) => {
  await seedOverview();
  const admin = await createAdmin('insight-overview');
  await openPanel(page, await apiToken(request, admin));
  const t = (key: string) => message(`admin:overview.${key}`);

  await page.getByRole('tab', { name: message('admin:tabs.overview') }).click();
  await page.getByRole('button', { name: t('range_7') }).click();
  await expect(page.getByRole('button', { name: t('range_7') })).toHaveAttribute('aria-pressed', 'true');
  const sections = page.locator('.insight-section');
  await expect(sections).toHaveCount(10);
  for (const key of [
    'visits_title',
    'pages_title',
    'referrers_title',
    'funnel_title',
    'vitals_title',
    'searches_title',
  ]) {
    const section = page.getByRole('region', { name: t(key) }).first();
    await expect(section.getByRole('table')).toBeVisible();
  }
  // Every section with figures draws its chart (subscriber growth and issues may have none in this database).
  await expect
    .poll(() => page.locator('.insight-chart[data-drawn="true"]').count(), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(7);
  const vitals = page.locator('[data-insight="vitals"] table');
  await expect(vitals).toContainText(t('rating_good'));
  await expect(page.locator('[data-insight="searches-without-results"] table')).toContainText(
    'cleanroom hvac',
  );

  const csv = page.waitForEvent('download');
  await page
    .locator('[data-insight="pages"]')
    .getByRole('button', { name: t('export') })
    .click();
  expect((await csv).suggestedFilename()).toMatch(/^korvel-pages-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);

  await page.getByRole('button', { name: t('range_custom') }).click();
  await page.getByLabel(t('from'), { exact: true }).fill('2026-11-20');
  await page.getByLabel(t('to'), { exact: true }).fill('2026-11-10');
  await page.getByRole('button', { name: t('apply') }).click();
  await expect(page.getByRole('alert')).toHaveText(t('range_invalid'));

  await settle(page);
  const { violations } = await axe(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({
    path: testInfo.outputPath(`overview-${testInfo.project.name}.png`),
    fullPage: true,
  });
  await removeAdmin(admin);
});
