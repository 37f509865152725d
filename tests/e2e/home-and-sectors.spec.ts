import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { parse } from 'yaml';
import { sectors } from '../../src/routes.ts';
import { DESKTOP, expect, frontMatter, message, readerTest } from './fixtures.ts';

const sectorPaths = sectors.map((sector) => `/${sector.slug}`);

/** The alt text of an entry's drawing, read from its front matter. */
const drawingAlt = (collection: string, id: string) =>
  (
    parse(readFileSync(`src/content/${collection}/${id}.mdx`, 'utf8').split(/^---$/m)[1]!) as {
      image: { alt: string };
    }
  ).image.alt;

/**
 * The image as the browser loaded it, and the drawing it was made from: what is served is never larger
 * (Illustration.astro serves the drawing itself).
 */
async function expectNoLargerThanDrawing(img: Locator, request: APIRequestContext, drawing: string) {
  const served = await img.evaluate((el: HTMLImageElement) => new URL(el.currentSrc).pathname);
  const bytes = (await (await request.get(served)).body()).byteLength;
  expect(bytes, served).toBeLessThanOrEqual(statSync(drawing).size);
  return served;
}

/** Words a visitor reads in <main>, leaving out navigation blocks (contents, sibling links) and hidden text. */
async function bodyWords(page: Page): Promise<number> {
  return page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('nav, [aria-hidden="true"], script, style, template').forEach((el) => el.remove());
    return (copy.textContent ?? '').split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  });
}

for (const path of ['/', ...sectorPaths]) {
  readerTest(`${path} has at least 400 words of body text`, DESKTOP, async ({ reader: page }) => {
    // Desktop project only: the text is the same at every width.
    await page.goto(encodeURI(path));
    expect(await bodyWords(page)).toBeGreaterThanOrEqual(400);
  });
}

readerTest.describe('home page', () => {
  readerTest(
    'offers the 30-minute meeting first and lists the six divisions in order',
    async ({ reader: page }) => {
      await page.goto('/');
      const hero = page.locator('.hero');
      await expect(hero.getByRole('link', { name: message('home:actions.book') })).toHaveAttribute(
        'href',
        '/contact#book-a-meeting',
      );
      const divisions = page.locator('.divisions .division__name a');
      await expect(divisions).toHaveCount(6);
      expect(await divisions.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
        sectorPaths,
      );
    },
  );

  readerTest('shows one selected reference per division, each with its outcome', async ({ reader: page }) => {
    await page.goto('/');
    const section = page.locator('section[aria-labelledby="references-title"]');
    const cards = section.locator('.reference');
    await expect(cards).toHaveCount(6);
    // Each card opens its project's case study, in division order; some also name the article behind it.
    const hrefs = await cards.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const studies = hrefs.filter((href) => href?.startsWith('/our-references'));
    expect(studies).toHaveLength(6);
    studies.forEach((href, index) =>
      expect(href).toMatch(new RegExp(`^/our-references/${sectors[index]!.art}-`)),
    );
    for (const href of hrefs.filter((h) => !h?.startsWith('/our-references')))
      expect(href).toMatch(/^\/blog\/[\w-]+$/);
    for (const card of await cards.all()) {
      await expect(card.locator('.reference__outcome')).toContainText(/\w{4,}.*\w{4,}/);
    }
  });

  readerTest('shows the newest articles and news first', async ({ reader: page }) => {
    const newest = (collection: string) =>
      readdirSync(`src/content/${collection}`)
        .map((file) => file.replace(/\.mdx$/, ''))
        .sort((a, b) =>
          frontMatter(collection, b, 'date').localeCompare(frontMatter(collection, a, 'date')),
        )[0];
    await page.goto('/');
    await expect(page.locator('.latest__articles a').first()).toHaveAttribute(
      'href',
      `/blog/${newest('blog')}`,
    );
    await expect(page.locator('.news a').first()).toHaveAttribute('href', `/news/${newest('news')}`);
  });

  readerTest(
    'fetches its hero drawing first, never larger than the drawing, and the division drawings lazily',
    async ({ reader: page, request }) => {
      await page.goto('/');
      // The drawing itself: compressed on the wire it is a third of the AVIF a phone would need.
      const img = page.locator('.hero img');
      await expect(img).toHaveAttribute('loading', 'eager');
      await expect(img).toHaveAttribute('fetchpriority', 'high');
      await expect(img).toHaveAttribute('width', '1200');
      await expect(img).toHaveAttribute('height', '900');
      await expect(img).toHaveAttribute('alt', message('home:hero_image_alt'));
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      expect(await expectNoLargerThanDrawing(img, request, 'src/assets/home/plant-section.svg')).toMatch(
        /\.svg$/,
      );
      const cards = page.locator('.divisions img');
      await expect(cards).toHaveCount(6);
      for (const card of await cards.all()) await expect(card).toHaveAttribute('loading', 'lazy');
    },
  );
});

readerTest.describe('sector pages', () => {
  for (const sector of sectors) {
    readerTest(
      `/${sector.slug} shows its drawing, key facts and a link to its references`,
      async ({ reader: page }) => {
        await page.goto(encodeURI(`/${sector.slug}`));
        const img = page.locator('.hero img');
        await expect(img).toHaveAttribute('alt', drawingAlt('sectors', sector.art));
        await expect(img).toHaveAttribute('fetchpriority', 'high');
        await expect(page.locator('.sector__facts li')).toHaveCount(4);
        await expect(page.locator(`a[href="/our-references#${sector.art}"]`)).toHaveCount(1);
        await expect(page.locator('.projects .reference').first()).toBeVisible();
      },
    );
  }

  readerTest('the contents list jumps to a themed section', async ({ reader: page }) => {
    await page.goto('/pharma');
    const link = page.locator('.sector__contents a').nth(1);
    const target = (await link.getAttribute('href'))!;
    await link.click();
    await expect(page.locator(target)).toBeInViewport();
  });
});

readerTest('initiative pages show their drawing, served as itself', async ({ reader: page, request }) => {
  await page.goto('/initiatives/navigator');
  const img = page.locator('.hero img');
  await expect(img).toHaveAttribute('alt', drawingAlt('initiatives', 'navigator'));
  expect(await expectNoLargerThanDrawing(img, request, 'src/assets/initiatives/navigator.svg')).toMatch(
    /\.svg$/,
  );
});

readerTest(
  'the oil and gas drawing is served as its SVG (3 kB compressed), not a 61 kB WebP',
  async ({ reader: page, request }) => {
    await page.goto('/oil&gas');
    const img = page.locator('.hero img');
    await expect(img).toHaveJSProperty('complete', true);
    expect(await expectNoLargerThanDrawing(img, request, 'src/assets/sectors/oil-gas.svg')).toMatch(/\.svg$/);
  },
);
