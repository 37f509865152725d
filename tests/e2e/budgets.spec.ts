import { readdirSync, readFileSync } from 'node:fs';
import { PHONE, routePaths, total, visitBytes } from '../../scripts/bench/lib/first-visit.ts';
import { isReactChunk, measurePages } from '../../scripts/bench/page-js.ts';
import { sectors } from '../../src/routes.ts';
import type { Page } from '@playwright/test';
import { DESKTOP, expect, message, reachFor, test } from './fixtures.ts';

// Deterministic byte budgets over dist/: they read files, not the viewport, so the desktop project runs them.
test.describe('budgets', DESKTOP, () => {
  /** Issue 26: every content page at most 5 KB of eager JavaScript, gzip (README, "JavaScript budget"). */
  const EAGER_BUDGET = 5 * 1024;

  const isAdmin = (page: string) => page === '/admin' || page.startsWith('/admin/');
  /** dist/ read once for the tests below (they run in one worker, one after another). */
  let measured: ReturnType<typeof measurePages> | undefined;
  const pageWeights = () => (measured ??= measurePages());

  test('every public page ships at most 5 KB of eager JavaScript and none of it is React', () => {
    const pages = pageWeights().filter((p) => !isAdmin(p.page));
    expect(pages.length).toBeGreaterThan(40);
    for (const page of pages) {
      expect(page.eager, `${page.page} eager JS`).toBeLessThanOrEqual(EAGER_BUDGET);
      expect(page.eager, `${page.page} eager JS`).toBeGreaterThan(0);
    }
  });

  test('a page without an island loads no React, whether or not the visitor has answered the cookie question', () => {
    // The cookie banner is the server's markup and a few lines of the page's script (src/scripts/cookie-banner.ts).
    const still = pageWeights().filter((p) => !isAdmin(p.page) && p.islands.length === 0);
    expect(still.map((p) => p.page)).toEqual(expect.arrayContaining(['/', '/about-us/who-are-we', '/de']));
    for (const page of still) expect(page.react, `${page.page}: React`).toBe(0);
  });

  test('article and news pages draw the slider and the read-aloud control on the server and load no React', () => {
    // One path segment after /blog/ or /news/: the blog's filter pages (/blog/division/…) are lists.
    const articlePages = pageWeights().filter((p) => /^\/(blog|news)\/[^/]+$/.test(p.page));
    const entries = ['blog', 'news'].flatMap((c) =>
      readdirSync(`src/content/${c}`).filter((f) => f.endsWith('.mdx')),
    );
    expect(articlePages).toHaveLength(entries.length);
    for (const page of articlePages) {
      // Both are custom elements over server markup (src/scripts/image-slider.ts, src/scripts/read-aloud.ts).
      const html = readFileSync(`dist${page.page}/index.html`, 'utf8');
      expect(html, page.page).toContain('<image-slider');
      expect(html, page.page).toContain('<read-aloud');
      expect(page.islands, page.page).toEqual([]);
      expect(page.react, `${page.page}: React`).toBe(0);
      // Everything the page may load: its scripts, the newsletter form's lazy script (with the shared schema),
      // the search dialog's (2 KB; Pagefind itself loads from /pagefind/ on the first search), every script the
      // shell loads on first use (menus, language dialog, the two filters: 4 KB, counted though a page without
      // a filter never loads it) and, for a visitor who allowed cookies, the page beacon with web-vitals
      // (4.6 KB); no chart library fits in this.
      expect(page.total, `${page.page} code`).toBeLessThan(29 * 1024);
    }
  });

  test('sector pages without a chart hydrate nothing, so they load no React', () => {
    const plain = sectors.filter((s) => s.slug !== 'electronics').map((s) => `/${s.slug}`);
    const pages = pageWeights().filter((p) => plain.includes(p.page));
    expect(pages).toHaveLength(5);
    for (const page of pages) {
      expect(page.islands, page.page).toEqual([]);
      expect(page.react, `${page.page}: React`).toBe(0);
    }
  });

  /** The built chunks that hold ApexCharts (its canvas class name appears in no other code). */
  const apexChunks = () =>
    readdirSync('dist/_astro').filter(
      (file) =>
        file.endsWith('.js') && readFileSync(`dist/_astro/${file}`, 'utf8').includes('apexcharts-canvas'),
    );

  for (const path of ['/our-references', '/electronics']) {
    test(`${path} requests no chart code until its charts approach the viewport`, async ({ page }) => {
      const chunks = apexChunks();
      expect(chunks.length).toBeGreaterThan(0);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname.split('/').pop()!));
      const apexRequested = () => requested.filter((file) => chunks.includes(file));

      await page.goto(encodeURI(path));
      await page.waitForLoadState('networkidle');
      expect(apexRequested(), 'ApexCharts chunks before scrolling').toEqual([]);

      await page.locator('.chart-card').first().scrollIntoViewIfNeeded();
      await expect(page.locator('.chart-card__plot svg').first()).toBeVisible();
      expect(apexRequested().length, 'ApexCharts chunks once the charts are in view').toBeGreaterThan(0);
    });
  }
  /** The names of the React chunks a page has requested so far, from the moment it is called. */
  function watchReact(page: Page): () => string[] {
    const react = readdirSync('dist/_astro').filter(
      (file) => file.endsWith('.js') && isReactChunk(`dist/_astro/${file}`),
    );
    expect(react.length).toBeGreaterThan(0);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname.split('/').pop()!));
    return () => requested.filter((file) => react.includes(file));
  }

  for (const path of ['/contact', '/de/contact']) {
    test(`${path} loads no React until a visitor reaches for the message form`, async ({ page }) => {
      const reactRequested = watchReact(page);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(reactRequested(), 'React before the visitor acts').toEqual([]);

      await reachFor(page.locator('form[action="/api/contact"]'));
      expect(reactRequested().length, 'React once the form is reached for').toBeGreaterThan(0);
    });
  }

  // Issue 38: a first visit to the admin's sign-in forms loads React only once the visitor reaches for the form
  // (`client:signin`, `client:interaction`); its button is enabled from then on.
  for (const [path, submit] of [
    ['/admin/login', 'login_form.submit'],
    ['/admin/forgot-password', 'forgot_form.submit'],
  ] as const) {
    test(`${path} loads no React until the form is reached for`, async ({ page }) => {
      const reactRequested = watchReact(page);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const button = page.getByRole('button', { name: message(`admin:${submit}`) });
      await expect(button).toBeDisabled();
      expect(reactRequested(), 'React before the visitor acts').toEqual([]);

      await page.locator('form').hover();
      await expect(button).toBeEnabled();
      expect(reactRequested().length, 'React once the form is reached for').toBeGreaterThan(0);
    });
  }

  // `client:session`: a browser without a session token is sent to sign in before any island code loads.
  for (const path of ['/admin', '/admin/account']) {
    test(`${path} without a session goes to the sign-in page and loads no React`, async ({ page }) => {
      const reactRequested = watchReact(page);
      await page.goto(path);
      await expect(page).toHaveURL(/\/admin\/login$/);
      await page.waitForLoadState('networkidle');
      expect(reactRequested()).toEqual([]);
      // `replace`, so Back does not return to a page that would only send the visitor on again: the history holds
      // the new tab's blank page and the sign-in page.
      expect(await page.evaluate(() => history.length)).toBe(2);
    });
  }

  test('the admin pages hydrate as their visitor needs, and their code stays under 16 KB beside React', () => {
    const adminPages = pageWeights().filter((p) => isAdmin(p.page));
    expect(Object.fromEntries(adminPages.map((p) => [p.page, [...new Set(p.islands)]]))).toEqual({
      '/admin': ['session'],
      '/admin/account': ['session'],
      '/admin/forgot-password': ['interaction'],
      // The mailed links' pages read the link's token as they open with a custom element, and the invitation
      // asks whom it is for (src/scripts/link-password-form.ts): no island.
      '/admin/invite': [],
      '/admin/login': ['signin'],
      '/admin/reset-password': [],
    });
    for (const page of adminPages.filter((p) => p.islands.length > 0)) {
      expect(page.react, `${page.page} React`).toBeGreaterThan(0);
      expect(page.hydrated - page.react, `${page.page} code beside React`).toBeLessThan(16 * 1024);
    }
    for (const page of adminPages.filter((p) => p.islands.length === 0)) {
      expect(page.react, `${page.page} React`).toBe(0);
      expect(page.total, `${page.page} code`).toBeLessThan(8 * 1024);
    }
  });

  /** Issue 38: a returning visit to another page fetches its HTML and takes everything else from the cache. */
  test('hashed assets are cached for good and a page is revalidated by its ETag', async ({ request }) => {
    const page = await request.get('/blog/gmp');
    expect(page.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
    const etag = page.headers()['etag'];
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await request.get('/blog/gmp', { headers: { 'if-none-match': etag! } });
    expect(again.status()).toBe(304);
    expect(await again.body()).toHaveLength(0);
    const changed = await request.get('/blog/gmp', { headers: { 'if-none-match': '"another"' } });
    expect(changed.status()).toBe(200);

    const font = /\/_astro\/[\w.-]+\.woff2/.exec(await page.text())?.[0];
    expect(font, "a font of the page's stylesheet").toBeDefined();
    const asset = await request.get(font!);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

// Issue 38's first-visit gate: one fresh phone per page, each test on its own, spread over the workers.
test.describe('first visit', DESKTOP, () => {
  test.describe.configure({ mode: 'parallel' });
  /**
   * Issue 38: a phone's first visit to each kind of page, in both languages, on Lighthouse's slow 4G, fails CI
   * above 140 KB (the goal is 120 KB; the margin keeps a small change from failing a build). `npm run bench:bytes`
   * prints the same figures by type.
   */
  const FIRST_VISIT_LIMIT = 140 * 1024;
  // The first page of each kind, and the pages that carry more than their kind's first: the forms, the
  // references and a sector with charts, the longest article (every route: `npm run bench:bytes -- --all`).
  const heavier = ['/contact', '/our-references', '/electronics', '/blog/gmp'];
  // Every admin page a visitor without a session can open, the mailed links' pages included.
  const admin = [
    '/admin',
    '/admin/login',
    '/admin/forgot-password',
    '/admin/account',
    '/admin/reset-password',
    '/admin/invite',
  ];
  const firstVisits = [...routePaths('dist'), ...heavier, ...heavier.map((path) => `/de${path}`), ...admin];
  test('the first-visit budget covers every kind of page in both languages', () => {
    expect(firstVisits.length).toBeGreaterThanOrEqual(38);
    expect(firstVisits).toEqual(
      expect.arrayContaining(['/', '/de', '/blog/volleyball', '/de/search', '/admin/invite']),
    );
  });
  for (const path of firstVisits) {
    test(`a phone's first visit to ${path} transfers at most 140 KB`, async ({ browser, baseURL }) => {
      const context = await browser.newContext(PHONE);
      const bytes = await visitBytes(context, baseURL + encodeURI(path));
      await context.close();
      expect(total(bytes), `${path}: ${JSON.stringify(bytes)}`).toBeLessThanOrEqual(FIRST_VISIT_LIMIT);
    });
  }
});
