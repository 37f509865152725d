import { readdirSync, readFileSync } from 'node:fs';
import { expect, message, readerTest } from './fixtures.ts';

const teamSize = readdirSync('src/content/team').filter((file) => file.endsWith('.yaml')).length;
const serviceIds = Object.keys(
  (JSON.parse(readFileSync('src/i18n/locales/en/services.json', 'utf8')) as { items: object }).items,
);

readerTest(
  '/about-us/our-team shows every person with a drawn portrait, grouped, and links to /career',
  async ({ reader: page }) => {
    await page.goto('/about-us/our-team');
    expect(teamSize).toBeGreaterThanOrEqual(8);
    const people = page.locator('.person');
    await expect(people).toHaveCount(teamSize);
    await expect(page.locator('.team-group h2')).toHaveCount(4);
    for (const person of await people.all()) {
      const portrait = person.locator('img');
      await portrait.scrollIntoViewIfNeeded();
      expect((await portrait.getAttribute('alt'))?.length ?? 0).toBeGreaterThan(20);
      await expect(portrait).toHaveAttribute('src', /\.svg$/);
      await expect
        .poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      await expect(person.locator('h3')).not.toBeEmpty();
    }
    await expect(page.locator('main a[href="/career"]')).toBeVisible();
  },
);

readerTest(
  '/our-services describes every service and maps them onto five project phases',
  async ({ reader: page }) => {
    await page.goto('/our-services');
    expect(serviceIds.length).toBe(8);
    for (const id of serviceIds) {
      const section = page.locator(`section#${id}`);
      await expect(section.locator('h2')).toHaveText(message(`references:services.${id}`));
      expect(await section.locator('.service__facts ul').first().locator('li').count()).toBeGreaterThan(2);
      expect(await section.locator('.service__standards li').count()).toBeGreaterThan(1);
    }
    await expect(page.locator('.phase h3')).toHaveText(
      ['concept', 'basic', 'detailed', 'construction', 'cqv'].map((p) =>
        message(`services:phases.items.${p}.title`),
      ),
    );
    // Every phase chip leads to a service described on the page.
    for (const href of await page
      .locator('.phase__services a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!))) {
      await expect(page.locator(href)).toHaveCount(1);
    }
    await expect(
      page.locator('.next-step').getByRole('link', { name: message('services:cta.book') }),
    ).toHaveAttribute('href', '/contact#book-a-meeting');
  },
);

readerTest(
  '/about-us/our-values explains six values with what each means on a project',
  async ({ reader: page }) => {
    await page.goto('/about-us/our-values');
    await expect(page.locator('.value')).toHaveCount(6);
    for (const value of await page.locator('.value').all()) {
      expect(await value.locator('.value__body li').count()).toBeGreaterThanOrEqual(2);
    }
    await expect(page.locator('main a[href="/about-us/our-vision-and-mission"]')).toBeVisible();
  },
);

readerTest('/about-us/our-vision-and-mission says how the firm measures itself', async ({ reader: page }) => {
  await page.goto('/about-us/our-vision-and-mission');
  await expect(page.getByRole('heading', { level: 2, name: message('vision:mission.title') })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: message('vision:vision.title') })).toBeVisible();
  expect(await page.locator('.measures tbody tr').count()).toBeGreaterThanOrEqual(5);
});

readerTest(
  '/privacy-policy covers the stored data, under-16s and cookies, and its contents links work',
  async ({ reader: page }) => {
    await page.goto('/privacy-policy');
    const body = page.locator('.prose');
    await expect(body).toContainText('not intended for persons under 16');
    for (const field of [
      'full name',
      'company',
      'position',
      'phone number',
      'version of this privacy policy',
    ]) {
      await expect(body).toContainText(field);
    }
    await expect(body.locator('a[href="/cookie-policy"]')).toBeVisible();
    await expect(page.getByText('privacy-2026-11-28')).toBeVisible();
    const targets = await page
      .locator('.legal-doc__contents a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    expect(targets.length).toBeGreaterThanOrEqual(8);
    for (const target of targets) await expect(page.locator(`h2${target}`)).toHaveCount(1);
  },
);

readerTest(
  '/terms-and-conditions names Serbian law and links the privacy policy',
  async ({ reader: page }) => {
    await page.goto('/terms-and-conditions');
    const body = page.locator('.prose');
    await expect(body).toContainText('law of the Republic of Serbia');
    await expect(body.locator('a[href="/privacy-policy"]')).toBeVisible();
  },
);
