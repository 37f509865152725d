/**
 * Issue 15: services with their proof (deliverables, duration, lead, projects, articles), the blog filter by
 * division and topic with and without JavaScript, and related articles on article pages; axe on each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'yaml';
import { SERVICES } from '../../src/content/constants.ts';
import { expectNoAxeViolations, expect, message, settle, test } from './fixtures.ts';

const proof = parse(readFileSync('src/content/services.yaml', 'utf8')) as Record<
  string,
  { lead: string; references: string[]; articles: string[] }
>;
const yamlOf = (path: string) => parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const frontOf = (id: string) =>
  parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(`src/content/blog/${id}.mdx`, 'utf8'))![1]!) as {
    title: string;
    tags: string[];
    divisions: string[];
  };
const blog = readdirSync('src/content/blog')
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => ({ id: file.slice(0, -4), ...frontOf(file.slice(0, -4)) }));
const ofDivision = (division: string) => blog.filter((a) => a.divisions.includes(division));
const withTag = (tag: string) => blog.filter((a) => a.tags.includes(tag));

test('/our-services shows for every service its deliverables, duration, lead, projects and articles', async ({
  page,
}) => {
  await page.goto('/our-services');
  for (const id of SERVICES) {
    const section = page.locator(`section#${id}`);
    const { lead, references, articles } = proof[id]!;
    await expect(section.locator(`#${id}-deliverables + ul li`)).toHaveCount(
      (
        JSON.parse(readFileSync('src/i18n/locales/en/services.json', 'utf8')).items[id]
          .deliverables as string[]
      ).length,
    );
    expect(await section.locator(`#${id}-deliverables + ul li`).count()).toBeGreaterThanOrEqual(4);
    await expect(section.locator(`#${id}-duration + p`)).toHaveText(message(`services:items.${id}.duration`));

    const person = yamlOf(`src/content/team/${lead}.yaml`) as { name: string };
    await expect(section.getByRole('link', { name: person.name })).toHaveAttribute(
      'href',
      `/about-us/our-team#${lead}`,
    );

    const projectLinks = section.locator(`#${id}-references + ul a`);
    await expect(projectLinks).toHaveCount(references.length);
    expect(references.length).toBeGreaterThanOrEqual(2);
    for (const [index, ref] of references.entries()) {
      const data = yamlOf(`src/content/references/${ref}.yaml`) as { title: string; services: string[] };
      expect(data.services, `${ref} lists ${id}`).toContain(id);
      await expect(projectLinks.nth(index)).toHaveAttribute('href', `/our-references/${ref}`);
      await expect(projectLinks.nth(index)).toHaveText(data.title);
    }

    const articleLinks = section.locator(`#${id}-articles + ul a`);
    await expect(articleLinks).toHaveCount(articles.length);
    expect(articles.length).toBeGreaterThanOrEqual(2);
    for (const [index, article] of articles.entries()) {
      await expect(articleLinks.nth(index)).toHaveAttribute('href', `/blog/${article}`);
      await expect(articleLinks.nth(index)).toHaveText(frontOf(article).title);
    }
  }
  await expectNoAxeViolations(page);
});

test('a service lead links to their card on the team page', async ({ page }) => {
  await page.goto('/our-services');
  const { lead } = proof['gmp-consulting']!;
  await page.locator('section#gmp-consulting .service__lead a').click();
  await expect(page).toHaveURL(`/about-us/our-team#${lead}`);
  await expect(page.locator(`#${lead}`)).toBeInViewport();
});

const listed = (page: Page) => page.locator('.list__grid article:visible');
const filter = (page: Page) => page.getByRole('navigation', { name: message('blog:filter.title') });

test.describe('blog filter without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('division and topic links load pre-rendered lists that show only their articles', async ({ page }) => {
    await page.goto('/blog');
    await expect(listed(page)).toHaveCount(blog.length);
    await filter(page)
      .getByRole('link', { name: new RegExp(`^${message('nav:sectors.energy')} `) })
      .click();
    await expect(page).toHaveURL('/blog/division/energy');
    await expect(listed(page)).toHaveCount(ofDivision('energy').length);
    await expect(page.locator('#list-title')).toHaveText(
      message('blog:filter.heading').replace('{{name}}', message('nav:sectors.energy')),
    );
    await expect(page.locator('[data-filter-status]')).toHaveText(
      `Showing ${ofDivision('energy').length} of ${blog.length} articles`,
    );
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

    await filter(page).getByRole('link', { name: /^GMP / }).click();
    await expect(page).toHaveURL('/blog/topic/gmp');
    const titles = await listed(page).locator('h2').allTextContents();
    expect(titles.sort()).toEqual(
      withTag('gmp')
        .map((a) => a.title)
        .sort(),
    );
    await expect(filter(page).locator('[aria-current="page"]')).toHaveAttribute('href', '/blog/topic/gmp');

    await filter(page)
      .getByRole('link', { name: /^All articles / })
      .click();
    await expect(page).toHaveURL('/blog');
    await expect(listed(page)).toHaveCount(blog.length);
  });
});

test.describe('blog filter with JavaScript', () => {
  test('filters in place, updates the address, heading and count, and Back restores the list', async ({
    page,
  }) => {
    await page.goto('/blog');
    await settle(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const pharma = ofDivision('pharma');
    await filter(page)
      .getByRole('link', { name: new RegExp(`^${message('nav:sectors.pharma')} `) })
      .click();
    await expect(page).toHaveURL('/blog/division/pharma');
    await expect(listed(page)).toHaveCount(pharma.length);
    await expect(page.locator('[data-filter-status]')).toHaveText(
      `Showing ${pharma.length} of ${blog.length} articles`,
    );
    await expect(page).toHaveTitle(/^Pharma & life sciences articles \|/);
    // No page load happened: the marker set on /blog is still there.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

    await filter(page)
      .getByRole('link', { name: /^Community / })
      .click();
    await expect(page).toHaveURL('/blog/topic/community');
    await expect(listed(page)).toHaveCount(withTag('community').length);

    await page.goBack();
    await expect(page).toHaveURL('/blog/division/pharma');
    await expect(listed(page)).toHaveCount(pharma.length);
    await page.goBack();
    await expect(page).toHaveURL('/blog');
    await expect(listed(page)).toHaveCount(blog.length);
    await expectNoAxeViolations(page);
  });

  test('a filter page opened directly can show every article again', async ({ page }) => {
    await page.goto('/blog/division/food');
    await expect(listed(page)).toHaveCount(ofDivision('food').length);
    await expectNoAxeViolations(page);
    await filter(page)
      .getByRole('link', { name: /^All articles / })
      .click();
    await expect(page).toHaveURL('/blog');
    await expect(listed(page)).toHaveCount(blog.length);
    await expect(page.locator('#list-title')).toHaveText(message('blog:list.heading'));
  });
});

test('an article shows two or three related articles that share its division or tags, never itself', async ({
  page,
}) => {
  for (const id of ['hygienic-design-in-food-plants', 'volleyball']) {
    await page.goto(`/blog/${id}`);
    const current = blog.find((a) => a.id === id)!;
    const related = page.locator('section.related');
    await expect(related.getByRole('heading', { level: 2 })).toHaveText(message('blog:article.related'));
    const links = related.locator('article h3 a');
    const count = await links.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(3);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs).not.toContain(`/blog/${id}`);
    const first = blog.find((a) => `/blog/${a.id}` === hrefs[0])!;
    const shares =
      first.divisions.some((d) => current.divisions.includes(d)) ||
      first.tags.some((t) => current.tags.includes(t));
    expect(shares, `${first.id} shares a division or tag with ${id}`).toBe(true);
  }
  await expectNoAxeViolations(page);
});
