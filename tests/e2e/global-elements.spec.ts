import type { Page } from '@playwright/test';
import { axe, expect, message, settle, test } from './fixtures.ts';

test.describe('cookie banner', () => {
  test.use({ consentStored: false });

  const bannerOf = (page: Page) => page.getByRole('region', { name: message('common:cookie_banner.label') });

  /** Installs Playwright's clock and stops it: from now on the page's time moves only when the test says so. */
  async function stopClock(page: Page) {
    const now = Date.now();
    await page.clock.install({ time: now });
    await page.clock.pauseAt(now + 1000);
  }

  /**
   * Opens `path` with Playwright's clock installed, so the banner's 4 s pass on that clock instead of the wall
   * clock. The island hydrates once the page is idle (`client:consent`: requestIdleCallback, on the clock),
   * then loads its code and React mounts it in tasks of its own (not on the clock); its effect starts the
   * banner's timer. The clock moves in 50 ms steps until the island has hydrated, then stands still while
   * React's tasks run, so the timer started at most 50 ms of clock time before this resolves. The test
   * stops the clock first ({@link stopClock}); it stays stopped across navigations.
   */
  async function openWithClock(page: Page, path: string) {
    await page.goto(path);
    const island = page.locator('astro-island[component-url*="CookieBanner"]');
    await expect(async () => {
      await page.clock.runFor(50);
      expect(await island.getAttribute('ssr')).toBeNull();
    }).toPass();
    // React's scheduler posts its tasks through a MessageChannel: once ten more messages have gone through,
    // the island has mounted and run its effect.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          let ticks = 0;
          channel.port1.onmessage = () => (++ticks < 10 ? channel.port2.postMessage(null) : resolve());
          channel.port2.postMessage(null);
        }),
    );
    await expect(bannerOf(page)).toBeHidden();
  }

  /** Runs the page's clock through the banner's delay: hidden at 3.9 s, shown by 4.1 s. */
  async function expectBannerAfterFourSeconds(page: Page) {
    await page.clock.runFor(3900);
    await expect(bannerOf(page)).toBeHidden();
    await page.clock.runFor(200);
    await expect(bannerOf(page)).toBeVisible();
  }

  test('appears after about 4 s, Allow stores cookies=true and it stays away after reload', async ({
    page,
  }) => {
    await stopClock(page);
    await openWithClock(page, '/');
    await expectBannerAfterFourSeconds(page);
    const banner = bannerOf(page);
    await expect(banner.getByRole('link', { name: message('common:cookie_banner.link') })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    // axe and settle() wait on timers and animation frames of their own: let the page's time flow again.
    await page.clock.resume();
    await settle(page);
    const { violations } = await axe(page, 'all').analyze();
    expect(violations).toEqual([]);

    await banner.getByRole('button', { name: message('common:cookie_banner.allow') }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBe('true');

    // With consent stored the island never hydrates: past its idle wait (at most 2 s, run on the clock) and
    // with the network quiet after it, it is still the server's markup, so no timer can show the banner.
    await page.reload();
    await page.clock.runFor(2100);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('astro-island[component-url*="CookieBanner"]')).toHaveAttribute('ssr');
    await expect(banner).toBeHidden();
  });

  test('Decline hides it without storing, so it asks again on the next page', async ({ page }) => {
    await stopClock(page);
    await openWithClock(page, '/contact');
    await expectBannerAfterFourSeconds(page);
    const banner = bannerOf(page);
    await banner.getByRole('button', { name: message('common:cookie_banner.decline') }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBeNull();
    await openWithClock(page, '/career');
    await expectBannerAfterFourSeconds(page);
  });

  test('without stored consent the banner downloads React', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text());
    });
    await stopClock(page);
    await openWithClock(page, '/our-services');
    await expectBannerAfterFourSeconds(page);
    expect(scripts.some((code) => code.includes('react.transitional.element'))).toBe(true);
  });
});

test('with consent stored no React code is downloaded', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text());
  });
  // Past the island's idle wait (at most 2 s) on Playwright's clock, then the network quiet: a hydration
  // would have fetched the island's code by then.
  await page.clock.install();
  await page.goto('/our-services');
  await page.clock.runFor(2500);
  await page.waitForLoadState('networkidle');
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
