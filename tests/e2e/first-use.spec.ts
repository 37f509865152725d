/**
 * Issue 26: the header menus, the language dialog and the blog and reference filters load on first use
 * (src/scripts/first-use.ts). Their code is not requested with the page, and a click or arrow key that
 * arrives while it is still downloading (held back here by 700 ms) is replayed once it has loaded.
 */
import type { Page } from '@playwright/test';
import { DESKTOP, expect, isMobile, message, test } from './fixtures.ts';

const DELAY_MS = 700;

/** Holds back the chunk `name` by DELAY_MS and records every script the page requests. */
async function slowChunk(page: Page, name: string): Promise<string[]> {
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') requested.push(new URL(request.url()).pathname);
  });
  await page.route(new RegExp(`/_astro/${name}\\.[\\w-]+\\.js$`), async (route) => {
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    await route.continue();
  });
  return requested;
}

const loaded = (requested: string[], name: string) =>
  requested.some((path) => new RegExp(`/${name}\\.[\\w-]+\\.js$`).test(path));

test('the menus load on first use, and a click made while they download opens the menu', async ({ page }) => {
  const requested = await slowChunk(page, 'site-nav');
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(loaded(requested, 'site-nav'), 'menu code before any use').toBe(false);

  const toggle = isMobile(page)
    ? page.getByRole('button', { name: message('nav:open_menu') })
    : page.getByRole('button', { name: message('nav:about_us') });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(loaded(requested, 'site-nav')).toBe(true);
  const link = isMobile(page) ? message('nav:career') : message('nav:who_are_we');
  await expect(
    page
      .getByRole('navigation', { name: message('nav:main') })
      .getByRole('link', { name: link, exact: true }),
  ).toBeVisible();
});

test(
  'an arrow key pressed while the menu code downloads opens the menu and moves focus into it',
  DESKTOP,
  async ({ page }) => {
    // Desktop project only: the bar with its dropdowns shows above 768 px.
    await slowChunk(page, 'site-nav');
    await page.goto('/');
    const toggle = page.getByRole('button', { name: message('nav:about_us') });
    await toggle.focus();
    await page.keyboard.press('ArrowDown');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page
        .getByRole('navigation', { name: message('nav:main') })
        .getByRole('link', { name: message('nav:who_are_we') }),
    ).toBeFocused();
  },
);

test('the language dialog opens from a click made while its code downloads', async ({ page }) => {
  const requested = await slowChunk(page, 'language-picker');
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(loaded(requested, 'language-picker'), 'language code before any use').toBe(false);
  await page.getByRole('button', { name: /Change language/ }).click();
  const dialog = page.getByRole('dialog', { name: message('nav:language.heading') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: message('nav:language.close') }).click();
  await expect(dialog).toBeHidden();
});

test('a reference filter clicked while its code downloads filters in place', async ({ page }) => {
  const requested = await slowChunk(page, 'reference-filter');
  await page.goto('/our-references');
  await page.waitForLoadState('networkidle');
  expect(loaded(requested, 'reference-filter'), 'filter code before any use').toBe(false);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.locator('a[data-filter-facet="division"][data-filter-key="chemicals"]').click();
  await expect(page).toHaveURL(/\/our-references\?division=chemicals$/);
  // No page load happened: the marker is still there.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test('a filtered reference address loads the filter at once and shows its list', async ({ page }) => {
  const requested = await slowChunk(page, 'reference-filter');
  await page.goto('/our-references?division=energy');
  await expect(page.locator('[data-division]:not([hidden])').first()).toHaveAttribute(
    'data-division',
    'energy',
  );
  await expect(page.locator('[data-division]:not([data-division="energy"]):not([hidden])')).toHaveCount(0);
  expect(loaded(requested, 'reference-filter')).toBe(true);
});
