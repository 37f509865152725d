/**
 * The RSS feeds in both languages, read with the browser's XML parser (not the code that wrote them): the
 * German feeds list exactly the German entries with German channel copy, `<language>de-DE` and /de links;
 * the English feeds stay as they were; every page's head names the feeds of its own language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { parse } from 'yaml';
import { site } from '../../src/site.config.ts';
import { expect, message, test } from './fixtures.ts';

interface Feed {
  title: string;
  description: string;
  language: string;
  items: Array<{ title: string; link: string; pubDate: string }>;
}

async function readFeed(page: Page, request: APIRequestContext, path: string): Promise<Feed> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  expect(response.headers()['content-type']).toMatch(/xml/);
  const xml = await response.text();
  if (!page.url().startsWith('http')) await page.goto('/');
  const feed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    if (doc.querySelector('parsererror')) return null;
    const text = (node: Element | Document, name: string) =>
      node.querySelector(`:scope > ${name}`)?.textContent ?? '';
    const channel = doc.querySelector('rss > channel')!;
    return {
      title: text(channel, 'title'),
      description: text(channel, 'description'),
      language: text(channel, 'language'),
      items: [...channel.querySelectorAll(':scope > item')].map((item) => ({
        title: text(item, 'title'),
        link: text(item, 'link'),
        pubDate: text(item, 'pubDate'),
      })),
    };
  }, xml);
  expect(feed, `${path} parses as XML`).not.toBeNull();
  return feed!;
}

/** Ids and titles of a German collection's published entries, from their front matter. */
function germanEntries(collection: string): Map<string, string> {
  const dir = `src/content/de/${collection}`;
  const entries = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.mdx'))) {
    const front = parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(`${dir}/${file}`, 'utf8'))![1]!) as {
      title: string;
      draft?: boolean;
    };
    if (!front.draft) entries.set(file.slice(0, -'.mdx'.length), front.title);
  }
  return entries;
}

const germanCopy = (collection: string) =>
  JSON.parse(readFileSync(`src/i18n/locales/de/${collection}.json`, 'utf8')) as {
    page: { title: string; description: string };
  };

for (const collection of ['blog', 'news'] as const) {
  test(`/de/${collection}/rss.xml lists every German entry, in German, linking the /de pages`, async ({
    page,
    request,
  }) => {
    const feed = await readFeed(page, request, `/de/${collection}/rss.xml`);
    const copy = germanCopy(collection);
    expect(feed.language).toBe('de-DE');
    expect(feed.title).toBe(`${copy.page.title} | ${site.displayName}`);
    expect(feed.description).toBe(copy.page.description);
    const entries = germanEntries(collection);
    const paths = feed.items.map((item) => new URL(item.link).pathname);
    expect(paths.sort()).toEqual([...entries.keys()].map((id) => `/de/${collection}/${id}`).sort());
    for (const item of feed.items) {
      const id = new URL(item.link).pathname.split('/').pop()!;
      expect(item.title, id).toBe(entries.get(id));
      expect(new URL(item.link).origin).toBe(site.url);
    }
    // Newest first, as the English feed.
    const dates = feed.items.map((item) => Date.parse(item.pubDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  test(`/${collection}/rss.xml stays English`, async ({ page, request }) => {
    const feed = await readFeed(page, request, `/${collection}/rss.xml`);
    expect(feed.language).toBe('en-gb');
    expect(feed.title).toBe(`${message(`${collection}:page.title`)} | ${site.displayName}`);
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.filter((item) => new URL(item.link).pathname.startsWith('/de/'))).toEqual([]);
  });
}

test('a page names the feeds of its own language in its head', async ({ page }) => {
  const alternates = () =>
    page
      .locator('head link[rel="alternate"][type="application/rss+xml"]')
      .evaluateAll((links) => links.map((l) => [l.getAttribute('href'), l.getAttribute('title')]));
  await page.goto('/search');
  expect(await alternates()).toEqual([
    ['/blog/rss.xml', `${message('blog:page.title')} | ${site.displayName}`],
    ['/news/rss.xml', `${message('news:page.title')} | ${site.displayName}`],
  ]);
  await page.goto('/de/search');
  expect(await alternates()).toEqual([
    ['/de/blog/rss.xml', `${germanCopy('blog').page.title} | ${site.displayName}`],
    ['/de/news/rss.xml', `${germanCopy('news').page.title} | ${site.displayName}`],
  ]);
});
