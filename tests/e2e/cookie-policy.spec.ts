import { expect, message, test } from './fixtures.ts';

test('the cookie policy lists the five cookie types, its date and a contact e-mail', async ({ page }) => {
  await page.goto('/cookie-policy');
  await expect(page.getByText('11 November 2024')).toBeVisible();
  await expect(page.locator('.legal__type h3')).toHaveText([
    'Strictly necessary',
    'Functionality',
    'Analytics',
    'Third-party',
    'Contact form',
  ]);
  await expect(page.locator('main a[href^="mailto:info@korvel.example"]').last()).toBeVisible();
});

test('the #cookie preference centre changes the stored consent', async ({ page }) => {
  await page.goto('/cookie-policy#cookie');
  const centre = page.locator('#cookie');
  await expect(centre).toBeInViewport();
  await expect(centre.locator('[data-status]')).toHaveText(
    message('policy:cookies.preferences.status_allowed'),
  );

  await centre.getByRole('button', { name: message('policy:cookies.preferences.decline') }).click();
  expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBeNull();
  await expect(centre.locator('[data-status]')).toHaveText(message('policy:cookies.preferences.status_none'));
  await expect(centre.getByRole('status')).toHaveText(message('policy:cookies.preferences.saved_declined'));

  await centre.getByRole('button', { name: message('policy:cookies.preferences.allow') }).click();
  expect(await page.evaluate(() => localStorage.getItem('cookies'))).toBe('true');
  await expect(centre.locator('[data-status]')).toHaveText(
    message('policy:cookies.preferences.status_allowed'),
  );
});
