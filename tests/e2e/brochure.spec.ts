import { readdirSync } from 'node:fs';
import { brochures, formatFileSize, pdfFacts } from '../../src/lib/brochure.ts';
import { expect, message, test } from './fixtures.ts';

const label = message('common:brochure.label');

test('the call-to-action band offers the brochure as a download that does not show its path', async ({
  page,
}) => {
  await page.goto('/');
  const link = page.locator('.cta').getByRole('link', { name: new RegExp(`^${label}`) });
  await expect(link).toHaveAttribute('download', /\.pdf$/);
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/\.pdf$/);
  const text = (await link.innerText()).replace(/\s+/g, ' ');
  expect(text).not.toContain(href);
  expect(text).not.toContain(href.slice(1));
  expect(text).not.toMatch(/\/|\.pdf/);

  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const body = await response.body();
  expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // The link states the page count of the file it serves.
  expect(text).toContain(`PDF, ${pdfFacts(body).pages} pages`);
});

test('following the brochure link downloads it under a readable name', async ({ page }) => {
  await page.goto('/about-us/who-are-we');
  const link = page.locator('.cta').getByRole('link', { name: new RegExp(`^${label}`) });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(await link.getAttribute('download'));
  expect(download.suggestedFilename()).toMatch(/^[A-Z][\w-]*brochure\.pdf$/);
});

test('a German page offers the German brochure with its own page count and size', async ({ page }) => {
  // Any German article will do: German pages all carry the call-to-action band.
  const article = readdirSync('src/content/de/blog').find((file) => file.endsWith('.mdx'));
  expect(article, 'a German article').toBeDefined();
  await page.goto(`/de/blog/${article!.slice(0, -'.mdx'.length)}`);
  const link = page.locator('.cta a.brochure-link');
  await expect(link).toHaveAttribute('href', brochures.de.href);
  await expect(link).toHaveAttribute('download', brochures.de.fileName);
  const response = await page.request.get(brochures.de.href);
  expect(response.status()).toBe(200);
  const body = await response.body();
  const facts = pdfFacts(body);
  // The size as German writes it (decimal comma, „kB“/„MB“), read from the served file.
  await expect(link.locator('.brochure-link__meta')).toContainText(formatFileSize(facts.bytes, 'de-DE'));
  await expect(link.locator('.brochure-link__meta')).toContainText(String(facts.pages));
  expect(Buffer.from(body).toString('latin1')).toMatch(/\/Lang \(de-DE\)/);
});
