import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations, expect, message, readerTest, referenceData, test } from './fixtures.ts';

const ids = readdirSync('src/content/references')
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.slice(0, -'.yaml'.length));
const all = ids.map((id) => ({ id, ...referenceData(id) })) as Array<{
  id: string;
  title: string;
  outcome: string;
  division: string;
  services: string[];
  articles?: string[];
}>;
const count = (keep: (r: (typeof all)[number]) => boolean) => all.filter(keep).length;

readerTest.describe('a case study', () => {
  const id = 'pharma-biologics-downstream-suite';
  const reference = all.find((r) => r.id === id)!;

  readerTest(
    'puts the outcome first, then challenge, approach and result beside the project facts',
    async ({ reader: page }) => {
      await page.goto(`/our-references/${id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(reference.title);
      const outcome = page.locator('.case__outcome');
      await expect(outcome).toContainText(reference.outcome);
      // In reading order: the title, the outcome, and only then the story.
      const order = await page.evaluate(() =>
        ['h1', '.case__outcome', '#challenge-title', '#approach-title', '#result-title'].map(
          (selector) => document.querySelector(selector)!.getBoundingClientRect().top + window.scrollY,
        ),
      );
      expect(order.slice(0, 2)).toEqual([...order.slice(0, 2)].sort((a, b) => a - b));
      expect(order.slice(2)).toEqual([...order.slice(2)].sort((a, b) => a - b));
      expect(order[1]).toBeLessThan(order[2]!);

      const facts = page.getByRole('complementary', { name: message('references:facts.title') });
      for (const key of ['client', 'country', 'division', 'year', 'duration', 'role', 'scope'] as const)
        await expect(facts.getByText(message(`references:facts.${key}`), { exact: true })).toBeVisible();
      for (const key of ['capacity', 'investment', 'standards', 'status'] as const)
        await expect(facts.getByText(message(`references:facts.${key}`), { exact: true })).toBeVisible();
      await expect(facts).toContainText(message('references:investment.20-50'));
      await expect(facts).toContainText(message('references:status.in-operation'));
    },
  );

  readerTest(
    'links its services, division, articles and the list, and they link back',
    async ({ reader: page }) => {
      await page.goto(`/our-references/${id}`);
      for (const service of reference.services)
        await expect(page.locator(`a[href="/our-services#${service}"]`)).toHaveCount(1);
      await expect(page.locator('main a[href="/pharma"]').first()).toBeVisible();
      for (const article of reference.articles ?? [])
        await expect(page.locator(`main a[href="/blog/${article}"]`).first()).toBeVisible();
      await expect(page.locator('main a[href="/our-references"]').first()).toBeVisible();

      // Back: the article names the project, the division page and the list open the case study.
      await page.goto(`/blog/${reference.articles![0]}`);
      await page.locator(`a[href="/our-references/${id}"]`).first().click();
      await expect(page).toHaveURL(new RegExp(`/our-references/${id}$`));
      await page.goto('/our-references');
      await expect(page.locator(`section#pharma a[href="/our-references/${id}"]`)).toHaveCount(1);
      await page.goto('/pharma');
      await expect(
        page.locator('.projects__list .reference__title a[href^="/our-references/pharma-"]'),
      ).toHaveCount(3);
      await page.goto('/our-services');
      await expect(page.locator('#permitting a[href="/our-references/filter/permitting"]')).toHaveCount(1);
    },
  );

  readerTest(
    'describes itself as an ItemPage with breadcrumbs, beside the publisher',
    async ({ reader: page }) => {
      await page.goto(`/our-references/${id}`);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      const data = blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
      expect(data[0]).toMatchObject({ '@type': 'Organization' });
      const graph = (data[1]!['@graph'] as Array<Record<string, unknown>>) ?? [];
      expect(graph.map((node) => node['@type'])).toEqual(['ItemPage', 'BreadcrumbList']);
      expect(graph[0]).toMatchObject({ name: reference.title, abstract: reference.outcome });
      expect(new URL(graph[0]!.url as string).pathname).toBe(`/our-references/${id}`);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        new RegExp(`/og/our-references/${id}\\.png$`),
      );
      await expect(page.locator('[data-pagefind-filter="type:reference"]')).toHaveCount(1);
      await expect(page.locator('[data-pagefind-filter="division:pharma"]')).toHaveCount(1);
    },
  );

  readerTest('passes axe', async ({ reader: page }) => {
    await page.goto(`/our-references/${id}`);
    await expectNoAxeViolations(page);
  });
});

const visibleCards = (page: Page) => page.locator('.project:visible');
const option = (page: Page, facet: 'division' | 'service', key: string) =>
  page.locator(`a[data-filter-facet="${facet}"][data-filter-key="${key}"]`);

test.describe('the reference filter with JavaScript', () => {
  test('filters in place, keeps the choice in the address and passes axe', async ({ page }) => {
    await page.goto('/our-references');
    await expect(visibleCards(page)).toHaveCount(all.length);
    await option(page, 'division', 'chemicals').click();
    await expect(page).toHaveURL(/\/our-references\?division=chemicals$/);
    const chemicals = count((r) => r.division === 'chemicals');
    await expect(visibleCards(page)).toHaveCount(chemicals);
    await expect(page.locator('section#pharma')).toBeHidden();
    await expect(page.getByRole('status')).toHaveText(
      message('references:filter.shown_other').replace('{{count}}', String(chemicals)),
    );

    await option(page, 'service', 'permitting').click();
    await expect(page).toHaveURL(/\?division=chemicals&service=permitting$/);
    const both = count((r) => r.division === 'chemicals' && r.services.includes('permitting'));
    await expect(visibleCards(page)).toHaveCount(both);
    await expect(option(page, 'service', 'permitting')).toHaveAttribute('aria-current', 'true');
    // Without JavaScript the same option leads to its pre-rendered page.
    await expect(option(page, 'division', '')).toHaveAttribute('href', '/our-references/filter/permitting');
    await expectNoAxeViolations(page);

    await page.goBack();
    await expect(page).toHaveURL(/\?division=chemicals$/);
    await expect(visibleCards(page)).toHaveCount(chemicals);
    await page.reload();
    await expect(visibleCards(page)).toHaveCount(chemicals);

    await page.locator('[data-filter-clear]').click();
    await expect(page).toHaveURL(/\/our-references$/);
    await expect(visibleCards(page)).toHaveCount(all.length);
    await expect(option(page, 'division', '')).toBeFocused();
  });

  test('offers no link to a combination without projects', async ({ page }) => {
    await page.goto('/our-references?division=oil-gas');
    const empty = page.locator('a[data-filter-facet="service"][aria-disabled="true"]');
    const services = message('references:services.gmp-consulting');
    expect(count((r) => r.division === 'oil-gas' && r.services.includes('gmp-consulting'))).toBe(0);
    await expect(empty.filter({ hasText: services })).toHaveCount(1);
    await expect(empty.first()).not.toHaveAttribute('href');
  });
});

test('a pre-rendered filter page passes axe (axe itself needs JavaScript)', async ({ page }) => {
  await page.goto('/our-references/filter/chemicals/permitting');
  await expect(page.locator('.project').first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe('the reference filter without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('leads to pre-rendered filter pages', async ({ page }) => {
    await page.goto('/our-references');
    await option(page, 'division', 'chemicals').click();
    await expect(page).toHaveURL(/\/our-references\/filter\/chemicals$/);
    await expect(page.locator('.project')).toHaveCount(count((r) => r.division === 'chemicals'));
    await option(page, 'service', 'permitting').click();
    await expect(page).toHaveURL(/\/our-references\/filter\/chemicals\/permitting$/);
    const both = all.filter((r) => r.division === 'chemicals' && r.services.includes('permitting'));
    await expect(page.locator('.project')).toHaveCount(both.length);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, follow');
    await expect(option(page, 'service', 'permitting')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByText(message('references:disclaimer'))).toBeVisible();

    await page.locator('[data-filter-clear]').click();
    await expect(page).toHaveURL(/\/our-references$/);
    await expect(page.locator('.project')).toHaveCount(all.length);
  });
});
