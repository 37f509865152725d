/**
 * RSS feeds and the sitemap against the built pages: every feed item and sitemap URL reaches a built,
 * indexable page; every page of a feed's section is an item of it; every indexable page is in the sitemap
 * and no `noindex` page is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { elements, normalisePath, pageAt, type BuiltSite, type Element, type Problem } from './site.ts';

export interface FeedOptions {
  origin: string;
  /** Whether a page belongs in the sitemap (src/routes.ts). */
  isIndexable: (path: string) => boolean;
  /** Each RSS feed and the section whose pages it lists (`/blog/rss.xml` lists `/blog/<id>`). */
  feeds: ReadonlyArray<{ path: string; section: string }>;
  /** @default '/sitemap-index.xml' */
  sitemapIndex?: string;
}

const xml = (site: BuiltSite, path: string) => {
  if (!site.files.has(path)) return undefined;
  return parseDocument(readFileSync(join(site.dist, path), 'utf8'), { xmlMode: true });
};
const children = (parent: Element | ReturnType<typeof parseDocument>, name: string) =>
  DomUtils.getElementsByTagName(name, parent, true);
const childText = (parent: Element, name: string) => {
  const child = DomUtils.getElementsByTagName(name, parent.children, false, 1)[0];
  return child ? DomUtils.textContent(child).trim() : '';
};

const hasNoindex = (site: BuiltSite, path: string) => {
  const page = site.pages.get(path);
  return (
    page !== undefined &&
    elements(page, (el) => el.name === 'meta' && el.attribs.name === 'robots').some((el) =>
      /noindex/i.test(el.attribs.content ?? ''),
    )
  );
};

/** A sitemap the index lists: its site path and its URLs as written, or no URLs when nothing is built there. */
export interface Sitemap {
  loc: string;
  path: string;
  urls: string[] | undefined;
}

/** The sitemaps `indexPath` lists, each with its URLs; empty when the index is missing. */
export function readSitemaps(site: BuiltSite, origin: string, indexPath = '/sitemap-index.xml'): Sitemap[] {
  const index = xml(site, indexPath);
  return (index ? children(index, 'sitemap').map((s) => childText(s, 'loc')) : []).map((loc) => {
    const path = normalisePath(new URL(loc, origin).pathname);
    const document = xml(site, path);
    return { loc, path, urls: document && children(document, 'url').map((url) => childText(url, 'loc')) };
  });
}

export function checkFeeds(site: BuiltSite, options: FeedOptions): Problem[] {
  const origin = new URL(options.origin).origin;
  const problems: Problem[] = [];

  /** The built page an absolute URL of the site reaches, or a problem. */
  const pageFor = (file: string, url: string): string | undefined => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      problems.push({ page: file, message: `"${url}" is not an absolute URL` });
      return undefined;
    }
    if (parsed.origin !== origin) {
      problems.push({ page: file, message: `${url} is not on ${origin}` });
      return undefined;
    }
    const page = pageAt(site, parsed.pathname);
    if (!page) problems.push({ page: file, message: `${url}: no page is built at ${parsed.pathname}` });
    return page?.path;
  };

  for (const feed of options.feeds) {
    const document = xml(site, feed.path);
    const channel = document && children(document, 'channel')[0];
    if (!channel) {
      problems.push({ page: feed.path, message: 'is missing or has no RSS <channel>' });
      continue;
    }
    for (const name of ['title', 'link', 'description'])
      if (!childText(channel, name))
        problems.push({ page: feed.path, message: `<channel> has no <${name}>` });
    const listed = new Set<string>();
    children(channel, 'item').forEach((item, index) => {
      const where = `item ${index + 1}`;
      for (const name of ['title', 'link'])
        if (!childText(item, name)) problems.push({ page: feed.path, message: `${where} has no <${name}>` });
      if (Number.isNaN(Date.parse(childText(item, 'pubDate'))))
        problems.push({ page: feed.path, message: `${where} has no valid <pubDate>` });
      const link = childText(item, 'link');
      const path = link ? pageFor(feed.path, link) : undefined;
      if (path) listed.add(path);
    });
    for (const path of site.pages.keys()) {
      const inSection =
        path.startsWith(`${feed.section}/`) && !path.slice(feed.section.length + 1).includes('/');
      if (inSection && options.isIndexable(path) && !listed.has(path))
        problems.push({ page: feed.path, message: `${path} is built but not an item of the feed` });
    }
  }

  const indexPath = options.sitemapIndex ?? '/sitemap-index.xml';
  const sitemaps = readSitemaps(site, origin, indexPath);
  if (sitemaps.length === 0) problems.push({ page: indexPath, message: 'is missing or lists no sitemap' });
  const inSitemap = new Set<string>();
  for (const { loc, path, urls } of sitemaps) {
    if (!urls) {
      problems.push({ page: indexPath, message: `${loc}: no sitemap is built at ${path}` });
      continue;
    }
    for (const url of urls) {
      const page = pageFor(path, url);
      if (!page) continue;
      inSitemap.add(page);
      if (!options.isIndexable(page))
        problems.push({ page: path, message: `${page} is listed but not indexable` });
      if (hasNoindex(site, page))
        problems.push({ page: path, message: `${page} is listed but marked noindex` });
    }
  }
  if (sitemaps.length > 0) {
    for (const path of site.pages.keys()) {
      if (options.isIndexable(path) && !inSitemap.has(path))
        problems.push({ page: indexPath, message: `${path} is indexable but in no sitemap` });
    }
  }
  return problems;
}
