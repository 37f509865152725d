/**
 * A built site read from disk the way the host serves it: `build.format: 'directory'` and
 * `trailingSlash: 'never'`, so `dist/blog/gmp/index.html` is the page `/blog/gmp`, and `dist/404.html` is
 * `/404`. Pages are parsed once, on first use, with htmlparser2.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';

export type Document = ReturnType<typeof parseDocument>;
export type Element = ReturnType<typeof DomUtils.findAll>[number];

export interface Problem {
  /** The page or file the problem is in, as a site path. */
  page: string;
  message: string;
}

export interface Page {
  path: string;
  file: string;
  html: string;
  document: Document;
}

export interface BuiltSite {
  dist: string;
  /** Every page by its path. */
  pages: Map<string, Page>;
  /** Every file by its site path (`/_astro/x.css`, `/blog/rss.xml`, `/blog/gmp/index.html`). */
  files: Set<string>;
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** The page path a built HTML file is served at. */
export function pagePath(relativeFile: string): string {
  const path = `/${relativeFile.split(sep).join('/')}`.replace(/\/index\.html$/, '').replace(/\.html$/, '');
  return path === '' ? '/' : path;
}

export function readSite(dist: string): BuiltSite {
  const pages = new Map<string, Page>();
  const files = new Set<string>();
  for (const file of walk(dist)) {
    const rel = relative(dist, file);
    files.add(`/${rel.split(sep).join('/')}`);
    if (!rel.endsWith('.html')) continue;
    const path = pagePath(rel);
    let document: Document | undefined;
    const html = readFileSync(file, 'utf8');
    pages.set(path, {
      path,
      file,
      html,
      get document() {
        document ??= parseDocument(html);
        return document;
      },
    });
  }
  return { dist, pages, files };
}

/** A site path as the host looks it up: decoded, without query or trailing slash. */
export function normalisePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // A malformed escape is looked up as written, and will not be found.
  }
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The page a site path is served from, if any. */
export function pageAt(site: BuiltSite, pathname: string): Page | undefined {
  const path = normalisePath(pathname);
  return site.pages.get(path) ?? site.pages.get(path.replace(/\.html$/, ''));
}

/** Whether a site path is answered by a built page or file. */
export function existsAt(site: BuiltSite, pathname: string): boolean {
  const path = normalisePath(pathname);
  return pageAt(site, path) !== undefined || site.files.has(path);
}

export const elements = (page: Page, test: (element: Element) => boolean): Element[] =>
  DomUtils.findAll(test, page.document.children);

export const textOf = (element: Element): string => DomUtils.textContent(element);
