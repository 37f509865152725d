import { axe, DESKTOP, expect, settle, test } from './fixtures.ts';

/** The ids of the rules a scan reports, each once. */
const ruleIds = async (scan: ReturnType<typeof axe>) =>
  [...new Set((await scan.analyze()).violations.map((violation) => violation.id))].sort();

// The scan every page test relies on (fixtures.ts, `axe`) finds what it is there to find, and its narrowing keeps
// to the part asked for: two faults planted in a real page, one in the article and one in the footer.
test(
  'the axe scan reports planted faults and keeps to the part it is narrowed to',
  DESKTOP,
  async ({ page }) => {
    await page.goto('/blog/gmp');
    await settle(page);
    expect(await ruleIds(axe(page)), 'the page as built').toEqual([]);

    await page.evaluate(() => {
      // A picture of its own under the heading: the article's slider hides the pictures it moves away from.
      const picture = document.createElement('img');
      picture.src = '/favicon.svg';
      picture.width = picture.height = 48;
      document.querySelector('main h1')!.after(picture);
      const footerLink = document.querySelector<HTMLElement>('footer a')!;
      footerLink.textContent = '';
      footerLink.removeAttribute('aria-label');
    });
    expect(await ruleIds(axe(page))).toEqual(['image-alt', 'link-name']);
    expect(await ruleIds(axe(page).include('footer'))).toEqual(['link-name']);
    expect(await ruleIds(axe(page).exclude('footer'))).toEqual(['image-alt']);

    // A document of its own: axe is put there again and finds the page clean.
    await page.reload();
    await settle(page);
    expect(await ruleIds(axe(page))).toEqual([]);
  },
);
