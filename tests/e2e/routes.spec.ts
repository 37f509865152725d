import type { Locator, Page } from '@playwright/test';
import { isIndexable, routes } from '../../src/routes.ts';
import { site } from '../../src/site.config.ts';
import { WEB_FONTS } from '../../scripts/lib/web-fonts.ts';
import { apiToken, createAdmin, removeAdmin, storeToken } from './admin-support.ts';
import { axe, expect, isMobile, message, readerTest, routeTitle, settle, test } from './fixtures.ts';
import { germanRoutes, germanTitle } from './i18n-support.ts';

// Every test here stands alone, and the file is a quarter of the suite's time: spread over both workers rather
// than left as one worker's tail (measured: 190–230 s with the other worker idle; docs/test-runs.md).
test.describe.configure({ mode: 'parallel' });

/**
 * The heaviest weight each web font has a face for (Plex Mono: 500). Text set heavier is drawn by the browser
 * smearing that face, a faux bold that no typographer would pass.
 */
const HEAVIEST = WEB_FONTS.reduce<Record<string, number>>((heaviest, font) => {
  const weight = Math.max(...font.weight.split(' ').map(Number));
  return { ...heaviest, [font.family]: Math.max(heaviest[font.family] ?? 0, weight) };
}, {});

/** Every element whose own text is set in a web font heavier than its heaviest face, with its weight. */
async function fauxBold(page: Page): Promise<string[]> {
  return await page.evaluate((heaviest) => {
    const own = (element: Element) =>
      [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim());
    return [...document.body.querySelectorAll('*')].flatMap((element) => {
      const style = getComputedStyle(element);
      const family = style.fontFamily.split(',')[0]!.replace(/"/g, '').trim();
      const limit = heaviest[family];
      if (limit === undefined || Number(style.fontWeight) <= limit || !own(element)) return [];
      const text = element.textContent!.trim().slice(0, 30);
      return [
        `${element.localName}.${[...element.classList].join('.')} "${text}" at ${style.fontWeight} in ${family}`,
      ];
    });
  }, HEAVIEST);
}

/** The admin pages that need a session, and what shows once they have one. */
const SIGNED_IN_VIEWS = new Map<string, (page: Page) => Locator>([
  ['/admin', (page) => page.getByRole('table')],
  ['/admin/account', (page) => page.getByRole('heading', { name: message('admin:account_page.sessions') })],
]);

// Every page in each language it is built in (issue 25): one load per page and width checks its language, title
// and heading and runs axe; the German pages' other checks read them over HTTP (i18n.spec.ts).
const pages = [
  ...routes.map((route) => ({ route, lang: 'en', title: routeTitle(route) })),
  ...germanRoutes.map((route) => ({ route, lang: 'de', title: germanTitle(route) })),
];

/**
 * Loads the page and checks its language, title and heading, that no text is set in a weight its font lacks,
 * and axe; German also that it never scrolls sideways
 * at the project's width, and every page at the narrowest phone's (on the phone project, by narrowing the page).
 */
async function checkPage(page: Page, { route, lang, title }: (typeof pages)[number]): Promise<void> {
  const response = await page.goto(encodeURI(route.path));
  expect(response?.status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page).toHaveTitle(`${title} | ${site.displayName}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const signedInView = SIGNED_IN_VIEWS.get(route.path);
  if (signedInView) await expect(signedInView(page)).toBeVisible({ timeout: 30_000 });
  await settle(page);
  // German runs longer than English: it must not scroll sideways at this project's width either.
  if (lang === 'de') {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'page width').toBeLessThanOrEqual(page.viewportSize()!.width);
  }
  expect(await fauxBold(page), 'text heavier than its font has a face for').toEqual([]);
  const { violations } = await axe(page).analyze();
  expect(
    violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).join(', ')}`,
    ),
  ).toEqual([]);
  if (isMobile(page))
    expect(await widthAt(page, NARROWEST), `page width at ${NARROWEST} px`).toBeLessThanOrEqual(NARROWEST);
}

/** The narrowest phone the pages are made for: no page, in either language, may scroll sideways on it. */
const NARROWEST = 320;

/** The page's width once the viewport is `width` px wide; the viewport is restored afterwards. */
async function widthAt(page: Page, width: number): Promise<number> {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width, height: viewport.height });
  try {
    // After the next frame, so that the page has laid itself out at the new width.
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() => resolve(document.documentElement.scrollWidth)),
        ),
    );
  } finally {
    await page.setViewportSize(viewport);
  }
}

for (const entry of pages) {
  const name = `${entry.route.path} answers 200 with its title, draws no faux bold, passes axe and breaks no security policy`;
  if (!SIGNED_IN_VIEWS.has(entry.route.path)) {
    // A public page reads the same to every visitor: the worker's page goes there (fixtures.ts, `readerTest`).
    readerTest(name, ({ reader }) => checkPage(reader, entry));
    continue;
  }
  // The admin panel and the account page send a visitor without a session to the sign-in page: sign in as an
  // admin of its own in a page of its own, and wait for what only a signed-in admin sees.
  test(name, async ({ page, request }) => {
    const admin = await createAdmin('e2e-routes');
    // The account goes only after axe: a page still loading would meet a 401 and leave for the sign-in page.
    try {
      await storeToken(page, await apiToken(request, admin));
      await checkPage(page, entry);
    } finally {
      await removeAdmin(admin);
    }
  });
}

test('an unknown path answers 404 with the not-found page', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const response = await page.goto('/no-such-page/at-all');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(message('common:not_found.title'));
  await expect(page.getByRole('link', { name: message('common:not_found.home') })).toHaveAttribute(
    'href',
    '/',
  );
  await settle(page);
  expect(await fauxBold(page), 'text heavier than its font has a face for').toEqual([]);
  const { violations } = await axe(page).analyze();
  expect(violations).toEqual([]);
});

test('static pages carry the security headers', async ({ request }) => {
  const response = await request.get('/');
  const headers = response.headers();
  expect(headers['strict-transport-security']).toContain('max-age=31536000');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  expect(headers['permissions-policy']).toBeTruthy();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("form-action 'self'");
});

test('/api/health answers from the functions on the same port', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  // The preview starts its own SMTP catcher, so mail is configured; no address or secret is ever in the answer.
  expect(await response.json()).toEqual({
    ok: true,
    mail: 'configured',
    outbox: {
      pending: expect.any(Number),
      failed: expect.any(Number),
      oldestPendingSeconds: expect.any(Number),
    },
  });
  expect(response.headers()['cache-control']).toBe('no-store');
});

test('the sitemap lists every public route and leaves the admin out', async ({ request }) => {
  const index = await (await request.get('/sitemap-index.xml')).text();
  const sitemapUrl = new URL(/<loc>([^<]+)<\/loc>/.exec(index)![1]!);
  const sitemap = await (await request.get(sitemapUrl.pathname)).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
    decodeURI(new URL(m[1]!.replaceAll('&amp;', '&')).pathname),
  );
  const expected = [...routes, ...germanRoutes].filter((r) => isIndexable(r.path)).map((r) => r.path);
  expect(listed.map((p) => (p.length > 1 ? p.replace(/\/$/, '') : p)).sort()).toEqual([...expected].sort());
});

test('robots.txt keeps crawlers out of the admin and points to the sitemap', async ({ request }) => {
  const body = await (await request.get('/robots.txt')).text();
  expect(body).toContain('Disallow: /admin');
  expect(body).toMatch(/^Sitemap: https:\/\/.+\/sitemap-index\.xml$/m);
});

test('every page names its publisher as schema.org Organization data', async ({ page }) => {
  await page.goto('/about-us/who-are-we');
  const data = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}',
  );
  expect(data).toMatchObject({
    '@type': 'Organization',
    foundingDate: '2010',
    address: { addressLocality: 'Belgrade' },
  });
  expect(data.sameAs).toHaveLength(4);
});
