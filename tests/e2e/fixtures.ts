import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { parse } from 'yaml';

export interface SiteOptions {
  /** Pretend the loader already ran in this browser session. @default true */
  skipLoader: boolean;
  /** Pretend the visitor already answered the cookie banner. @default true */
  consentStored: boolean;
}

/** Security-policy violations and uncaught errors seen by a page, checked after every test. */
interface Problems {
  cspViolations: string[];
  pageErrors: string[];
}

/**
 * Reports what breaks the security policy or throws in `page`, in the state a returning visitor has: the loader
 * already seen this session (`skipLoader`) and the cookie question answered (`consentStored`).
 */
async function watchProblems(page: Page, { skipLoader, consentStored }: SiteOptions): Promise<Problems> {
  const problems: Problems = { cspViolations: [], pageErrors: [] };
  await page.exposeFunction('__reportCsp', (detail: string) => problems.cspViolations.push(detail));
  await page.addInitScript(
    ({ skipLoader, consentStored }) => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { __reportCsp: (d: string) => void }).__reportCsp(
          `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
        );
      });
      // Storage belongs to the page; a sandboxed frame in it (the admin's mail preview) may not touch it.
      if (window !== window.top) return;
      if (skipLoader) sessionStorage.setItem('korvel:loader-shown', '1');
      if (consentStored && localStorage.getItem('cookies') === null) localStorage.setItem('cookies', 'true');
    },
    { skipLoader, consentStored },
  );
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  return problems;
}

function expectNoProblems(problems: Problems): void {
  expect(problems.cspViolations, 'Content-Security-Policy violations').toEqual([]);
  expect(problems.pageErrors, 'uncaught page errors').toEqual([]);
}

export const test = base.extend<SiteOptions & { problems: Problems }>({
  skipLoader: [true, { option: true }],
  consentStored: [true, { option: true }],
  problems: [
    async ({ page, skipLoader, consentStored }, use) => {
      const problems = await watchProblems(page, { skipLoader, consentStored });
      await use(problems);
      expectNoProblems(problems);
    },
    { auto: true },
  ],
});

/**
 * For tests that only open pages and read them: `reader`, one page per worker that goes from test to test, so a
 * test pays for a navigation instead of a new browser context with a cold cache (issue 26: routes.spec's page
 * tests at one width took 146 CPU s with a context each, 103 CPU s this way). It starts as a returning visitor,
 * is never signed in, and is checked for policy violations and page errors after each test like `test`'s page;
 * a test that signs in, types or stores anything takes `test` and a page of its own.
 */
export const readerTest = base.extend<{ reader: Page }, { readerPage: { page: Page; problems: Problems } }>({
  readerPage: [
    async ({ browser }, use, workerInfo) => {
      const { viewport, hasTouch, baseURL } = workerInfo.project.use;
      const context = await browser.newContext({ viewport, hasTouch, baseURL });
      const page = await context.newPage();
      await use({ page, problems: await watchProblems(page, { skipLoader: true, consentStored: true }) });
      await context.close();
    },
    { scope: 'worker' },
  ],
  reader: async ({ readerPage: { page, problems } }, use, testInfo) => {
    problems.cspViolations.length = 0;
    problems.pageErrors.length = 0;
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('screenshot', { body: await page.screenshot(), contentType: 'image/png' });
    expectNoProblems(problems);
  },
});

export { expect };

/** The WCAG 2.2 A and AA rules, the level the site answers for. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * An axe scan of the page: WCAG 2.2 A and AA unless `tags` is 'all' (axe's best practices too). Every rule runs
 * on every node; two settings only spare work that tells nothing here (issue 26: a scan took 0.8 s, now 0.4 s):
 * - `resultTypes: ['violations']` stops axe from serialising each passing node (a long article's
 *   colour-contrast passes alone are hundreds of nodes with their HTML) back to the test;
 * - a page without frames is scanned in axe's "legacy" mode, one `axe.run` in the page, instead of a partial
 *   run per frame gathered in a blank page opened for it. With a frame (the admin's mail preview is a
 *   sandboxed one) the scan keeps the per-frame mode, which reaches into cross-origin frames.
 */
export function axe(page: Page, tags: string[] | 'all' = WCAG): AxeBuilder {
  const builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(page.frames().length === 1);
  return tags === 'all' ? builder : builder.withTags(tags);
}

/**
 * Settles the page, scans it with `axe` (narrowed by `narrow`, e.g. to a dialog) and expects no violation,
 * each reported with the nodes it found.
 */
export async function expectNoAxeViolations(
  page: Page,
  narrow: (scan: AxeBuilder) => AxeBuilder = (scan) => scan,
): Promise<void> {
  await settle(page);
  const { violations } = await narrow(axe(page)).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

type Messages = Record<string, unknown>;
const cache = new Map<string, Messages>();

/** Reads an English message by `namespace:dotted.key`, the way the pages do. */
export function message(key: string): string {
  const [namespace, path] = key.split(':') as [string, string];
  let messages = cache.get(namespace);
  if (!messages) {
    messages = JSON.parse(readFileSync(`src/i18n/locales/en/${namespace}.json`, 'utf8')) as Messages;
    cache.set(namespace, messages);
  }
  const value = path
    .split('.')
    .reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], messages);
  if (typeof value !== 'string') throw new Error(`No English message at ${key}`);
  return value;
}

export const isMobile = (page: Page) => (page.viewportSize()?.width ?? 1440) <= 768;

/**
 * For a test or group that runs at one width only: playwright.config.ts leaves `DESKTOP` out of the phone project
 * and `PHONE` out of the desktop one, so the other project never even opens a page or runs the group's hooks for
 * it. `DESKTOP` is for what does not depend on the viewport (files, HTTP, behaviour the phone layout shares) and
 * for what may change shared state once per run only; `PHONE` for what only the phone layout has.
 */
export const DESKTOP = { tag: '@desktop' };
export const PHONE = { tag: '@phone' };

/**
 * Waits until a form's script has taken it over: it then checks the fields itself and sets `novalidate`. Before
 * that, a click submits the plain HTML form, which is the path without JavaScript (tested on its own).
 */
export const enhanced = (form: Locator) =>
  expect(form).toHaveAttribute('novalidate', '', { timeout: 15_000 });

/**
 * For a form that hydrates once a visitor reaches for it (`client:interaction`, the contact form): the pointer
 * passes over it, then {@link enhanced}.
 */
export async function reachFor(form: Locator) {
  await form.hover();
  await enhanced(form);
}

/**
 * Signs `email` up in the footer of `path` as a visitor does, once the form's script has taken it over; returns
 * the footer, whose status line then gives the answer.
 */
export async function signUpInFooter(page: Page, path: string, email: string): Promise<Locator> {
  await page.goto(path);
  const footer = page.locator('footer');
  await footer.scrollIntoViewIfNeeded();
  const form = footer.locator('form[action="/api/newsletter"]');
  await enhanced(form);
  await form.getByLabel('Email').fill(email);
  await form.getByRole('checkbox', { name: /newsletter/ }).check();
  await form.getByRole('button', { name: 'Subscribe' }).click();
  return footer;
}

/** Waits until no CSS transition or animation is running, so axe measures colours as a visitor sees them. */
export async function settle(page: Page): Promise<void> {
  // The bound catches an animation that never ends; the longest, the loader's failsafe, ends after 4 s.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, {
    timeout: 15_000,
  });
}

/** A front-matter field of a content entry, read from its MDX file (plain or quoted YAML scalars). */
export function frontMatter(collection: string, id: string, field: string): string {
  const source = readFileSync(`src/content/${collection}/${id}.mdx`, 'utf8');
  const match = new RegExp(`^${field}: (.*)$`, 'm').exec(source.split(/^---$/m)[1] ?? '');
  if (!match) throw new Error(`No ${field} in src/content/${collection}/${id}.mdx`);
  const raw = match[1]!.trim();
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  return raw;
}

/** A project reference's data, read from its YAML file (src/content/references/<id>.yaml). */
export function referenceData(id: string): Record<string, unknown> & { title: string } {
  return parse(readFileSync(`src/content/references/${id}.yaml`, 'utf8')) as { title: string };
}

/** The title a route's page shows: its i18n record, or its content entry. */
export function routeTitle(route: { copy?: string; entry?: { collection: string; id: string } }): string {
  if (route.entry?.collection === 'references') return referenceData(route.entry.id).title;
  if (route.entry) return frontMatter(route.entry.collection, route.entry.id, 'title');
  return message(`${route.copy}.title`);
}
