import AxeBuilder from '@axe-core/playwright';
import { expect, message, settle, test } from './fixtures.ts';

test.describe('cookie banner', () => {
  test.use({ consentStored: false });

  test('appears after about 4 s, Allow stores cookies=true and it stays away after reload', async ({
    page,
  }) => {
    await page.goto('/');
    const banner = page.getByRole('region', { name: message('common:cookie_banner.label') });
    await page.waitForTimeout(2500);
    await expect(banner).toBeHidden();
    await expect(banner).toBeVisible({ timeout: 4000 });
    await expect(banner.getByRole('link', { name: message('common:cookie_banner.link') })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await settle(page);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations).toEqual([]);

    await banner.getByRole('button', { name: message('common:cookie_banner.allow') }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBe('true');

    await page.reload();
    await page.waitForTimeout(5000);
    await expect(banner).toBeHidden();
  });

  test('Decline hides it without storing, so it asks again on the next page', async ({ page }) => {
    await page.goto('/contact');
    const banner = page.getByRole('region', { name: message('common:cookie_banner.label') });
    await expect(banner).toBeVisible({ timeout: 7000 });
    await banner.getByRole('button', { name: message('common:cookie_banner.decline') }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBeNull();
    await page.goto('/career');
    await expect(banner).toBeVisible({ timeout: 7000 });
  });

  test('without stored consent the banner downloads React', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text());
    });
    await page.goto('/our-services');
    await expect(page.getByRole('region', { name: message('common:cookie_banner.label') })).toBeVisible({
      timeout: 7000,
    });
    expect(scripts.some((code) => code.includes('react.transitional.element'))).toBe(true);
  });
});

test('with consent stored no React code is downloaded', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text());
  });
  await page.goto('/our-services');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2500);
  await expect(page.locator('#app')).toHaveClass(/visible/);
  expect(scripts.filter((code) => code.includes('react.transitional.element'))).toEqual([]);
  await expect(page.getByRole('region', { name: message('common:cookie_banner.label') })).toBeHidden();
});

test('the scroll-to-top button appears after 500 px and scrolls back up', async ({ page }) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: message('common:scroll_top') });
  await expect(button).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 450));
  await page.waitForTimeout(150);
  await expect(button).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 800));
  await expect(button).toBeVisible();
  await button.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(button).toBeHidden();
});

test('scroll-reveal sections become visible as they enter the viewport', async ({ page }) => {
  await page.goto('/');
  const last = page.locator('[data-reveal]').last();
  await expect(last).not.toHaveClass(/is-revealed/);
  await last.scrollIntoViewIfNeeded();
  await expect(last).toHaveClass(/is-revealed/);
});

test.describe('loader', () => {
  test.use({ skipLoader: false });

  test('shows the brand letters for 800 ms on the first page of a session only', async ({
    page,
    context,
  }) => {
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      document.addEventListener('DOMContentLoaded', () => {
        w.loaderAtReady = document.documentElement.classList.contains('is-loading');
        w.loaderText = document.querySelector('.loader')?.textContent?.replace(/\s+/g, '');
      });
      document.addEventListener('korvel:loaded', () => (w.loadedAt = performance.now()));
    });
    const read = (name: string) =>
      page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], name);

    await page.goto('/');
    expect(await read('loaderAtReady')).toBe(true);
    expect(await read('loaderText')).toBe('KORVEL');
    // Content is in the document underneath from the start.
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.locator('html')).not.toHaveClass(/is-loading/, { timeout: 3000 });
    await expect(page.locator('.loader')).toBeHidden();
    await expect(page.locator('#app')).toHaveClass(/visible/);
    expect(await read('loadedAt')).toBeGreaterThanOrEqual(800);

    await page.goto('/career');
    expect(await read('loaderAtReady')).toBe(false);
    await expect(page.locator('.loader')).toBeHidden();
    await expect(page.locator('#app')).toHaveClass(/visible/);

    const start = (await context.cookies()).find((c) => c.name === 'korvel_start');
    expect(start).toMatchObject({ value: 'sample', path: '/', sameSite: 'None', secure: true });
    expect(start!.expires - Date.now() / 1000).toBeGreaterThan(3500);
    expect(start!.expires - Date.now() / 1000).toBeLessThanOrEqual(3600);
  });

  test('is skipped when the visitor prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.classList.contains('is-loading'))).toBe(false);
    await expect(page.locator('.loader')).toBeHidden();
    await expect(page.locator('#app')).toHaveClass(/visible/);
  });
});
