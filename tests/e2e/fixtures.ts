import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';
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
 * An axe scan of the page: WCAG 2.2 A and AA unless `tags` is 'all' (axe's best practices too), narrowed with
 * `include` and `exclude`. Every rule runs on every node; what is spared is work that tells nothing here:
 * - `resultTypes: ['violations']` stops axe from serialising each passing node (a long article's
 *   colour-contrast passes alone are hundreds of nodes with their HTML) back to the test (issue 26);
 * - a page without frames gets one `axe.run` in the page, with axe put there once per document. AxeBuilder
 *   evaluates axe's 1.5 MB source twice before every scan even in its "legacy" mode, and configures it again:
 *   1.3 CPU s a scan against 0.8 (ten pages in one tab, machine CPU; docs/test-runs.md). Within a tab axe's
 *   code is compiled once: V8 keeps it for the next document of the same renderer.
 * With a frame (the admin's mail preview is a sandboxed one) the scan is AxeBuilder's per-frame run, which
 * reaches into cross-origin frames.
 */
export function axe(page: Page, tags: string[] | 'all' = WCAG): AxeScan {
  return new AxeScan(page, tags);
}

let minifiedAxe: string | undefined;
/** axe-core's minified build, a third of the size of the source AxeBuilder injects, read once per worker. */
const axeSource = () =>
  (minifiedAxe ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

class AxeScan {
  readonly #page: Page;
  readonly #tags: string[] | 'all';
  readonly #included: string[] = [];
  readonly #excluded: string[] = [];

  constructor(page: Page, tags: string[] | 'all') {
    this.#page = page;
    this.#tags = tags;
  }

  include(selector: string): this {
    this.#included.push(selector);
    return this;
  }

  exclude(selector: string): this {
    this.#excluded.push(selector);
    return this;
  }

  async analyze(): Promise<Pick<AxeResults, 'violations'>> {
    const [page, tags] = [this.#page, this.#tags];
    const options: RunOptions = {
      resultTypes: ['violations'],
      ...(tags === 'all' ? {} : { runOnly: { type: 'tag', values: tags } }),
    };
    if (page.frames().length > 1) {
      let builder = new AxeBuilder({ page }).options(options);
      for (const selector of this.#included) builder = builder.include(selector);
      for (const selector of this.#excluded) builder = builder.exclude(selector);
      return builder.analyze();
    }
    if (await page.evaluate(() => !('axe' in window))) await page.evaluate(axeSource());
    return page.evaluate(
      async ({ include, exclude, options }) => {
        const context: ElementContext = include.length
          ? { include, exclude }
          : exclude.length
            ? { exclude }
            : document;
        const { axe } = window as unknown as { axe: typeof import('axe-core') };
        const { violations } = await axe.run(context, options);
        return { violations };
      },
      { include: this.#included, exclude: this.#excluded, options },
    );
  }
}

/**
 * Settles the page, scans it with `axe` (narrowed by `narrow`, e.g. to a dialog) and expects no violation,
 * each reported with the nodes it found.
 */
export async function expectNoAxeViolations(
  page: Page,
  narrow: (scan: AxeScan) => AxeScan = (scan) => scan,
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
  await reachFor(form);
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
