/**
 * Until IBM Plex arrives, text is set in a system font sized to it (scripts/lib/web-fonts.ts, FONT_STACKS), so
 * that the swap leaves the lines about where they were: the Mono files, requested only once a layout finds Mono
 * text, and on a slow network the preloaded Sans too, may come after a page's first paint (issue 38, CLS 0).
 */
import type { Page } from '@playwright/test';
import { PHONE, expect, test } from './fixtures.ts';

/** The height of the page's main content once its fonts have settled, and the families of the faces in use. */
async function measure(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(() => ({
    height: document.querySelector('main')!.getBoundingClientRect().height,
    families: [...document.fonts]
      .filter((face) => face.status === 'loaded')
      .map((face) => face.family.replace(/^"|"$/g, '')),
  }));
}

test.describe('web fonts', PHONE, () => {
  // The longest article in both languages, a news article and the contact page: the pages whose length differed
  // most from Plex's when the fallback was not sized (5.5–12 % longer at 375 px with Liberation Sans).
  for (const path of ['/blog/gmp', '/de/blog/gmp', '/news/achema', '/contact']) {
    test(`until Plex arrives, ${path} is set in a system font sized to it`, async ({ page }) => {
      await page.route(/\.woff2$/, (route) => route.abort());
      await page.goto(path);
      const fallback = await measure(page);
      expect(fallback.families).toContainEqual(expect.stringMatching(/^IBM Plex Sans Variable Fallback: /));
      expect(fallback.families).not.toContain('IBM Plex Sans Variable');

      await page.unrouteAll();
      await page.goto(path);
      const plex = await measure(page);
      expect(plex.families).toContain('IBM Plex Sans Variable');
      expect(
        Math.abs(fallback.height / plex.height - 1),
        `${fallback.height} px against ${plex.height} px`,
      ).toBeLessThan(0.02);
    });
  }
});
