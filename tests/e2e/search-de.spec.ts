/**
 * Site search per language (issue 25): Pagefind writes one index per `<html lang>`, and a page searches the
 * index of its own language. German pages (/de/search and the header dialog of any German page) find German
 * pages only and speak German; English pages search English only. Runs against whatever German articles
 * exist under src/content/de/blog and fails if none mentions "Reinraum".
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { searchTypes } from '../../src/lib/search.ts';
import { axe, expect, message, test } from './fixtures.ts';

type Messages = { [key: string]: string | Messages };
const german = JSON.parse(readFileSync('src/i18n/locales/de/search.json', 'utf8')) as Messages;
/** A German search message, as de/search.json has it. */
function de(path: string): string {
  const value = path.split('.').reduce<unknown>((node, key) => (node as Messages | undefined)?.[key], german);
  if (typeof value !== 'string') throw new Error(`No German message at search:${path}`);
  return value;
}
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
/** "<n> Treffer für „Reinraum“." for any n above one. */
const germanCount = (query: string) =>
  new RegExp(
    `^\\d+ ${fill(de('status.other'), { count: '', query })
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
  );

const dir = 'src/content/de/blog';
/** German articles whose text names a cleanroom: what /de/search?q=Reinraum must find. */
const reinraum = readdirSync(dir)
  .filter((file) => file.endsWith('.mdx') && /Reinraum/i.test(readFileSync(`${dir}/${file}`, 'utf8')))
  .map((file) => `/de/blog/${file.slice(0, -'.mdx'.length)}`);

/** Pathnames of the index files Pagefind fetched, by language: `pagefind.de_1a2b.pf_meta` → de. */
function indexLanguages(page: Page): string[] {
  const languages: string[] = [];
  page.on('request', (request) => {
    const match = /\/pagefind\/pagefind\.([a-z-]+)_[0-9a-f]+\.pf_meta$/.exec(new URL(request.url()).pathname);
    if (match) languages.push(match[1]!);
  });
  return languages;
}

const resultPaths = (page: Page, scope: string) =>
  page
    .locator(`${scope} .search-result__title a`)
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));

test('/de/search?q=Reinraum finds German articles and no English page, in German', async ({
  page,
}, testInfo) => {
  expect(reinraum.length, 'German articles that mention „Reinraum“').toBeGreaterThan(0);
  const languages = indexLanguages(page);
  await page.goto('/de/search?q=Reinraum');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const panel = page.locator('.search-page');
  await expect(panel.getByRole('status')).toHaveText(germanCount('Reinraum'));

  const paths = await resultPaths(page, '.search-page');
  expect(paths.length).toBeGreaterThan(0);
  expect(paths.filter((path) => !path.startsWith('/de/'))).toEqual([]);
  expect(paths.filter((path) => reinraum.includes(path)).length).toBeGreaterThan(0);
  // Only the German index was loaded.
  expect(languages).toEqual(['de']);

  // The panel's copy, filters and result labels are German.
  await expect(panel.getByRole('searchbox', { name: de('label') })).toHaveValue('Reinraum');
  const type = panel.getByRole('combobox', { name: de('type') });
  await expect(type.locator('option')).toHaveText([
    de('any_type'),
    ...searchTypes.map((key) => de(`types.${key}`)),
  ]);
  await expect(
    panel
      .getByRole('combobox', { name: de('division') })
      .locator('option')
      .first(),
  ).toHaveText(de('any_division'));
  const article = panel
    .locator('.search-result')
    .filter({ has: page.locator(`a[href="${paths.find((p) => reinraum.includes(p))}"]`) });
  await expect(article.locator('.search-result__meta')).toHaveText(new RegExp(`^${de('types.article')}`));
  await page.screenshot({ path: testInfo.outputPath(`search-de-${testInfo.project.name}.png`) });
  const { violations } = await axe(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // A filter keeps the German path in the address.
  await type.selectOption('article');
  await expect(page).toHaveURL(/\/de\/search\?q=Reinraum&type=article$/);
});

test('the header dialog of a German article searches German pages only', async ({ page }) => {
  expect(reinraum.length).toBeGreaterThan(0);
  const languages = indexLanguages(page);
  await page.goto(reinraum[0]!);
  await page.getByRole('button', { name: de('open_label') }).click();
  const dialog = page.getByRole('dialog', { name: de('dialog_title') });
  await dialog.getByRole('searchbox', { name: de('label') }).fill('Reinraum');
  await expect(dialog.getByRole('status')).toHaveText(germanCount('Reinraum'));
  const paths = await resultPaths(page, 'dialog[open]');
  expect(paths.length).toBeGreaterThan(0);
  expect(paths.filter((path) => !path.startsWith('/de/'))).toEqual([]);
  const pageLink = await dialog.getByRole('link', { name: de('page_link') }).getAttribute('href');
  const target = new URL(pageLink!, page.url());
  expect(target.pathname + target.search).toBe('/de/search?q=Reinraum');
  expect(languages).toEqual(['de']);
});

test('English pages search the English index only', async ({ page }) => {
  const languages = indexLanguages(page);
  await page.goto('/search?q=Reinraum');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // Whatever the English index makes of a German word, it holds no German page.
  await expect(page.getByRole('status')).not.toBeEmpty();
  expect((await resultPaths(page, '.search-page')).filter((path) => path.startsWith('/de/'))).toEqual([]);
  await page.getByRole('searchbox', { name: message('search:label') }).fill('cleanroom');
  await expect(page.getByRole('status')).toHaveText(
    new RegExp(`^\\d+ ${fill(message('search:status.other'), { count: '', query: 'cleanroom' }).trim()}$`),
  );
  await expect(page.locator('.search-result').first()).toBeVisible();
  const paths = await resultPaths(page, '.search-page');
  expect(paths.filter((path) => path.startsWith('/de/'))).toEqual([]);
  expect(languages).toEqual(['en']);
});
