import { articles, newsItems } from '../../src/routes.ts';
import { expect, frontMatter, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  // A still slider: no autoplay to race the assertions.
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

const activeSlide = (page: import('@playwright/test').Page) =>
  page.locator('.slider__slide[data-active="true"]');

test('the slider changes slides by button, thumbnail, keyboard and swipe', async ({ page }) => {
  await page.goto('/blog/gmp');
  const slider = page.getByRole('region', { name: 'Images for this article' });
  await slider.scrollIntoViewIfNeeded();
  // The server drew the slider; a click does something once its custom element is defined.
  await page.evaluate(() => customElements.whenDefined('image-slider'));
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 1 of 3');

  await slider.getByRole('button', { name: 'Next image' }).click();
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 2 of 3');

  await slider.getByRole('button', { name: 'Show image 3 of 3' }).click();
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 3 of 3');
  await expect(slider.getByRole('button', { name: 'Show image 3 of 3' })).toHaveAttribute(
    'aria-current',
    'true',
  );

  await page.keyboard.press('ArrowRight');
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 1 of 3');
  await page.keyboard.press('ArrowLeft');
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 3 of 3');

  const stage = await page.locator('.slider__stage').boundingBox();
  await page.mouse.move(stage!.x + stage!.width * 0.7, stage!.y + stage!.height / 2);
  await page.mouse.down();
  await page.mouse.move(stage!.x + stage!.width * 0.2, stage!.y + stage!.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(activeSlide(page)).toHaveAttribute('aria-label', 'Image 1 of 3');
});

test('the slider does not play by itself when reduced motion is asked for', async ({ page }) => {
  await page.goto('/blog/closed-systems');
  await expect(page.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');
});

test('every slide has alt text from the front-matter', async ({ page }) => {
  await page.goto('/news/achema');
  const alts = await page
    .locator('.slider__slide img')
    .evaluateAll((images) => images.map((i) => i.getAttribute('alt')));
  expect(alts).toHaveLength(3);
  for (const alt of alts) expect(alt?.length).toBeGreaterThan(10);
});

test('the AI article has the No / What / Why table of SPEC with five rows', async ({ page }) => {
  await page.goto('/blog/integrating-ai');
  const table = page.locator('.prose table').filter({ has: page.getByRole('columnheader', { name: 'Why' }) });
  await expect(table.getByRole('columnheader')).toHaveText(['No', 'What', 'Why']);
  await expect(table.locator('tbody tr')).toHaveCount(5);
});

test('the GMP article compares medicinal products with dietary supplements in two tables, as SPEC names them', async ({
  page,
}) => {
  await page.goto('/blog/gmp');
  const tables = page.locator('.prose table');
  await expect(tables).toHaveCount(2);
  for (const table of await tables.all()) {
    await expect(table.getByRole('columnheader')).toHaveText([
      'Area',
      'Medicinal Products',
      'Dietary Supplements',
    ]);
  }
  await expect(tables.nth(0).getByRole('rowheader')).toHaveText([
    'Design drivers',
    'Environmental controls',
    'Flow design',
    'Facility qualification',
    'Documentation',
  ]);
  await expect(tables.nth(1).getByRole('rowheader')).toHaveText([
    'Material requirements',
    'Cleaning validations',
    'Utilities',
  ]);
});

test('the closed-systems article links four external resources', async ({ page }) => {
  await page.goto('/blog/closed-systems');
  const external = page.locator('.prose > :not(.references) a[href^="http"]');
  await expect(external).toHaveCount(4);
});

test('an article shows its date, reading time, contents, references, contact e-mail and related reading', async ({
  page,
}) => {
  await page.goto('/blog/regulation-as-a-strategic-lever-in-pharmaceutical-plant-design');
  // The first date is the publication date; a corrected article adds its "Updated" date after it.
  await expect(page.locator('.article__meta time').first()).toHaveAttribute(
    'datetime',
    frontMatter('blog', 'regulation-as-a-strategic-lever-in-pharmaceutical-plant-design', 'date'),
  );
  await expect(page.locator('.article__meta')).toContainText('minute read');
  await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'References' })).toBeVisible();
  await expect(page.locator('.article__contact a[href^="mailto:info@korvel.example"]')).toBeVisible();
  await expect(page.locator('.related article')).not.toHaveCount(0);
});

test('the blog list shows every article newest first, with a read-aloud control for its header', async ({
  page,
}) => {
  await page.goto('/blog');
  const dates = await page
    .locator('.list__grid time')
    .evaluateAll((times) => times.map((t) => t.getAttribute('datetime')!));
  expect(dates).toHaveLength(articles.length);
  expect(dates).toEqual([...dates].sort().reverse());
  await expect(page.getByRole('button', { name: 'Listen to this page' })).toBeVisible();
});

for (const [collection, ids] of [
  ['blog', articles],
  ['news', newsItems],
] as const) {
  test(`the ${collection} RSS feed parses and lists every entry`, async ({ page, request }) => {
    const response = await request.get(`/${collection}/rss.xml`);
    expect(response.status()).toBe(200);
    const xml = await response.text();
    await page.goto('/');
    const items = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      if (doc.querySelector('parsererror')) return null;
      return [...doc.querySelectorAll('item')].map((item) => item.querySelector('link')?.textContent ?? '');
    }, xml);
    expect(items).not.toBeNull();
    expect(items!.map((link) => new URL(link).pathname).sort()).toEqual(
      ids.map((id) => `/${collection}/${id}`).sort(),
    );
  });
}

test('an article carries Article data for search engines and its own share card', async ({ page }) => {
  await page.goto('/blog/closed-systems');
  const data = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) =>
      scripts.map((s) => JSON.parse(s.textContent ?? '{}') as { '@type': string; headline?: string }),
    );
  const article = data.find((d) => d['@type'] === 'Article');
  expect(article?.headline).toBe(frontMatter('blog', 'closed-systems', 'title'));
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[property="article:published_time"]')).toHaveAttribute(
    'content',
    /^2024-05-14/,
  );
});
