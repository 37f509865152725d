import { axe, expect, isMobile, message, settle, test } from './fixtures.ts';

const openDialog = async (page: import('@playwright/test').Page) => {
  await page.getByRole('button', { name: /Change language/ }).click();
  const dialog = page.getByRole('dialog', { name: message('nav:language.heading') });
  await expect(dialog).toBeVisible();
  return dialog;
};

test('the dialog lists English, Deutsch and four coming-soon languages, centred over a dark overlay', async ({
  page,
}) => {
  await page.goto('/');
  const dialog = await openDialog(page);
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Languages');
  await expect(dialog.getByRole('button', { name: message('nav:language.close') })).toBeVisible();
  await expect(dialog.getByRole('link', { name: /English/ })).toHaveAttribute('aria-current', 'true');
  await expect(dialog.getByRole('link', { name: 'Deutsch' })).toHaveAttribute('href', '/de');
  const upcoming = dialog.locator('[data-language-upcoming]');
  await expect(upcoming).toHaveCount(4);
  await expect(upcoming.first()).toContainText('Serbia');
  for (const entry of await upcoming.all()) await expect(entry).toContainText('Coming soon');

  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
  expect(Math.abs(box.y + box.height / 2 - viewport.height / 2)).toBeLessThan(2);
  if (isMobile(page)) expect(box.width).toBe(viewport.width);
  else expect(box.width).toBeLessThan(viewport.width);

  const backdrop = await dialog.evaluate((el) => getComputedStyle(el, '::backdrop').backgroundColor);
  const [r, g, b, a] = backdrop.match(/[\d.]+/g)!.map(Number);
  expect(r! + g! + b!).toBeLessThan(120);
  expect(a).toBeGreaterThan(0.3);
  expect(a).toBeLessThan(1);

  await settle(page);
  const { violations } = await axe(page, 'all').include('dialog').analyze();
  expect(violations).toEqual([]);
});

test('the close button, Escape and a click outside all close the dialog', async ({ page }) => {
  await page.goto('/');
  let dialog = await openDialog(page);
  await dialog.getByRole('button', { name: message('nav:language.close') }).click();
  await expect(dialog).toBeHidden();

  dialog = await openDialog(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /Change language/ })).toBeFocused();

  dialog = await openDialog(page);
  if (!isMobile(page)) {
    await page.mouse.click(8, 8);
    await expect(dialog).toBeHidden();
  } else {
    // Full width on narrow screens: the overlay shows only above and below the sheet.
    const box = (await dialog.boundingBox())!;
    await page.mouse.click(20, Math.max(4, box.y - 20));
    await expect(dialog).toBeHidden();
  }
});

test('coming-soon entries do nothing', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('lng'));
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const dialog = await openDialog(page);
  // aria-disabled keeps the entry in the tab order and the click reaches it; it must change nothing.
  await dialog.locator('[data-language-upcoming="sr"]').click({ force: true });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('lng'))).toBeNull();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test('choosing English on a German page stores lng=en and opens the English page', async ({ page }) => {
  await page.goto('/de/about-us/our-values');
  await page.evaluate(() => {
    localStorage.setItem('lng', 'de');
    localStorage.setItem('selectedLanguage', 'de');
  });
  await expect(page.locator('.language__label')).toHaveText('DEUTSCH');

  await page.locator('[data-language-open]').click();
  const dialog = page.getByRole('dialog');
  await Promise.all([page.waitForEvent('load'), dialog.getByRole('link', { name: /English/ }).click()]);

  await expect(page).toHaveURL(/\/about-us\/our-values$/);
  expect(await page.evaluate(() => localStorage.getItem('lng'))).toBe('en');
  expect(await page.evaluate(() => localStorage.getItem('selectedLanguage'))).toBe('en');
  await expect(page.getByRole('button', { name: 'Language: ENGLISH. Change language' })).toBeVisible();
});
