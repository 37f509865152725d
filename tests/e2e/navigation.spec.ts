import type { Page } from '@playwright/test';
import { DESKTOP, PHONE, expect, message, test } from './fixtures.ts';

const about = () => message('nav:about_us');
const departments = () => message('nav:departments');
const initiatives = () => message('nav:initiatives');
const mainNav = (page: Page) => page.getByRole('navigation', { name: message('nav:main') });

test.describe('desktop dropdowns', DESKTOP, () => {
  // Desktop project only: the burger menu replaces the bar at 768 px and below.

  test('About us opens by mouse, shows Departments with the six sectors and closes on an outside click', async ({
    page,
  }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: about() });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    for (const key of ['who_are_we', 'our_team', 'vision_mission', 'our_values']) {
      await expect(
        mainNav(page).getByRole('link', { name: message(`nav:${key}`), exact: true }),
      ).toBeVisible();
    }
    await page.getByRole('button', { name: departments() }).click();
    const sectorLinks = page.locator(
      `#${await page.getByRole('button', { name: departments() }).getAttribute('aria-controls')} a`,
    );
    await expect(sectorLinks).toHaveCount(6);
    await expect(sectorLinks.last()).toHaveAttribute('href', '/oil&gas');

    await page.mouse.click(700, 600);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(sectorLinks.first()).toBeHidden();
  });

  test('a sector link in the Departments submenu navigates', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: about() }).click();
    await page.getByRole('button', { name: departments() }).click();
    await page
      .getByRole('link', { name: message('nav:sectors.pharma') })
      .first()
      .click();
    await expect(page).toHaveURL(/\/pharma$/);
  });

  test('About us works by keyboard: Enter, arrows, the submenu and Escape', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: about() });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();

    await page.keyboard.press('ArrowDown');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(mainNav(page).getByRole('link', { name: message('nav:who_are_we') })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    const dept = page.getByRole('button', { name: departments() });
    await expect(dept).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(dept).toHaveAttribute('aria-expanded', 'true');
    await expect(mainNav(page).getByRole('link', { name: message('nav:sectors.pharma') })).toBeFocused();
    await page.keyboard.press('End');
    await expect(mainNav(page).getByRole('link', { name: message('nav:sectors.oil_gas') })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(dept).toBeFocused();
    await expect(dept).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ArrowUp');
    await expect(mainNav(page).getByRole('link', { name: message('nav:who_are_we') })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('Initiatives opens with Space and lists the five initiatives, the brand one first', async ({
    page,
  }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: initiatives() });
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const links = page.locator(`#${await toggle.getAttribute('aria-controls')} a`);
    await expect(links).toHaveCount(5);
    await expect(links.first()).toHaveAttribute('href', '/initiatives/korvele');
    await expect(links.first()).toHaveText(message('nav:initiatives_menu.product'));
    await page.keyboard.press('ArrowDown');
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(links.last()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(mainNav(page).getByRole('link', { name: message('nav:career') })).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('opening one dropdown closes the other', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: about() }).click();
    await page.getByRole('button', { name: initiatives() }).click();
    await expect(page.getByRole('button', { name: about() })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('button', { name: initiatives() })).toHaveAttribute('aria-expanded', 'true');
  });
});

test.describe('burger menu', PHONE, () => {
  // Phone project only: the burger shows at 768 px and below.

  test('opens and closes by tap, with the dropdowns expanding inline', async ({ page }) => {
    await page.goto('/');
    const burger = page.getByRole('button', { name: message('nav:open_menu') });
    const nav = page.getByRole('navigation', { name: message('nav:main') });
    await expect(nav).toBeHidden();
    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await page.getByRole('button', { name: about() }).click();
    await page.getByRole('button', { name: departments() }).click();
    await expect(mainNav(page).getByRole('link', { name: message('nav:sectors.energy') })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Korvel on LinkedIn' }).last()).toBeVisible();
    await page.getByRole('button', { name: message('nav:close_menu') }).click();
    await expect(nav).toBeHidden();
  });

  test('works by keyboard and Escape returns focus to the burger', async ({ page }) => {
    await page.goto('/');
    const burger = page.getByRole('button', { name: message('nav:open_menu') });
    await burger.focus();
    await page.keyboard.press('Enter');
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: about() })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(mainNav(page).getByRole('link', { name: message('nav:who_are_we') })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    await expect(burger).toBeFocused();
  });

  test('a link in the panel navigates', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: message('nav:open_menu') }).click();
    await mainNav(page)
      .getByRole('link', { name: message('nav:career'), exact: true })
      .click();
    await expect(page).toHaveURL(/\/career$/);
  });
});

test('the header shows the logo and four social links with accessible names', async ({ page }) => {
  await page.goto('/about-us/our-team');
  await expect(
    page.getByRole('banner').getByRole('link', { name: /^Korvel Engineering – home page$/ }),
  ).toHaveAttribute('href', '/');
  for (const kind of ['camera-sharing', 'professional-network', 'short-video', 'microblog']) {
    await expect(page.getByRole('link', { name: message(`nav:social.${kind}`) }).first()).toHaveAttribute(
      'href',
      /^https:\/\//,
    );
  }
});

test('the skip link moves focus to the main content', async ({ page }) => {
  await page.goto('/our-services');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: message('common:skip_link') });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
});
