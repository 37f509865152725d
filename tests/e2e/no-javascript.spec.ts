import { expect, isMobile, message, test } from './fixtures.ts';

test.use({ javaScriptEnabled: false });

test('without JavaScript the content shows at once and every menu link stays reachable', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('.loader')).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const lastSection = page.locator('[data-reveal]').last();
  await lastSection.scrollIntoViewIfNeeded();
  await expect(lastSection).toBeVisible();
  await expect(lastSection).toHaveCSS('opacity', '1');

  const nav = page.getByRole('navigation', { name: message('nav:main') });
  await expect(nav).toBeVisible();
  if (!isMobile(page)) {
    // Menus open on focus and hover when no script runs.
    await nav.getByRole('button', { name: message('nav:initiatives') }).focus();
    await expect(nav.getByRole('link', { name: message('nav:initiatives_menu.navigator') })).toBeVisible();
  } else {
    await expect(nav.getByRole('link', { name: message('nav:contact'), exact: true })).toBeVisible();
    // The open menu scrolls away instead of covering the page.
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await expect(page.getByRole('banner')).not.toBeInViewport();
  }
});

test('without JavaScript an article shows its first picture and no button that could not work', async ({
  page,
}) => {
  await page.goto('/blog/volleyball');
  const slider = page.getByRole('region', { name: message('blog:slider.label') });
  await expect(slider.locator('.slider__slide[data-active="true"] img')).toBeVisible();
  await expect(slider.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: message('blog:read_aloud.listen') })).toHaveCount(0);
  await expect(page.getByRole('region', { name: message('common:cookie_banner.label') })).toBeHidden();
});
