/**
 * Internal links and `#fragment` anchors of every built page: each URL of the site's own origin (relative,
 * root-relative or absolute on `origin`) must reach a built page or file, or a function path, and a
 * fragment must name an element `id` (or `<a name>`) on the page it points to. External URLs, `mailto:`
 * and `tel:` are not fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { elements, existsAt, pageAt, type BuiltSite, type Element, type Page, type Problem } from './site.ts';

export interface LinkOptions {
  /** The site's origin, as absolute URLs in canonical links and share tags carry it. */
  origin: string;
  /** Paths answered by functions rather than files (`/api/newsletter/:id`). */
  functionPaths?: readonly string[];
}

/** Attributes that hold a URL, per element. `srcset` holds several. */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  script: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  form: ['action'],
  use: ['href'],
  'astro-island': ['component-url', 'renderer-url'],
};
/** Share tags whose content is a URL of the site. */
const URL_META = new Set(['og:url', 'og:image', 'twitter:image']);

/** Netlify function paths (`config.path`) of netlify/functions, for links to forms and mail endpoints. */
export function functionPathsIn(directory: string): string[] {
  const paths: string[] = [];
  for (const name of readdirSync(directory)) {
    if (!/\.m?[jt]s$/.test(name)) continue;
    const source = readFileSync(join(directory, name), 'utf8');
    const config = /export const config[^=]*=\s*\{([\s\S]*?)\};/.exec(source)?.[1] ?? '';
    const value = /\bpath:\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/.exec(config)?.[1] ?? '';
    for (const match of value.matchAll(/['"]([^'"]+)['"]/g)) paths.push(match[1]!);
  }
  return paths;
}

const pattern = (path: string) =>
  new RegExp(
    `^${path
      .split('/')
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}$`,
  );

function urlsOf(element: Element): Array<{ attribute: string; value: string }> {
  const found: Array<{ attribute: string; value: string }> = [];
  if (element.name === 'meta') {
    const property = element.attribs.property ?? element.attribs.name ?? '';
    if (URL_META.has(property) && element.attribs.content)
      found.push({ attribute: `meta ${property}`, value: element.attribs.content });
    return found;
  }
  for (const attribute of URL_ATTRIBUTES[element.name] ?? []) {
    const value = element.attribs[attribute];
    if (value === undefined) continue;
    if (attribute === 'srcset') {
      for (const candidate of value.split(',')) {
        const url = candidate.trim().split(/\s+/)[0];
        if (url) found.push({ attribute, value: url });
      }
    } else {
      found.push({ attribute, value });
    }
  }
  return found;
}

export function checkLinks(site: BuiltSite, options: LinkOptions): Problem[] {
  const origin = new URL(options.origin).origin;
  const dynamic = (options.functionPaths ?? []).map(pattern);
  const idCache = new Map<Page, Set<string>>();
  const idsOf = (page: Page) => {
    let ids = idCache.get(page);
    if (!ids) {
      ids = new Set(
        elements(page, (el) => el.attribs.id !== undefined || (el.name === 'a' && !!el.attribs.name)).map(
          (el) => el.attribs.id ?? el.attribs.name!,
        ),
      );
      idCache.set(page, ids);
    }
    return ids;
  };

  const problems: Problem[] = [];
  for (const page of site.pages.values()) {
    const base = new URL(page.path, origin);
    const tagged = elements(page, (el) => el.name in URL_ATTRIBUTES || el.name === 'meta');
    for (const element of tagged) {
      for (const { attribute, value } of urlsOf(element)) {
        const where = `<${element.name} ${attribute}="${value}">`;
        if (/^(mailto|tel|javascript|data|blob|sms):/i.test(value.trim())) continue;
        let url: URL;
        try {
          url = new URL(value, base);
        } catch {
          problems.push({ page: page.path, message: `${where}: not a URL` });
          continue;
        }
        if (url.origin !== origin) continue;
        const isFunction = dynamic.some((re) => re.test(url.pathname));
        if (!isFunction && !existsAt(site, url.pathname)) {
          problems.push({ page: page.path, message: `${where}: nothing is built at ${url.pathname}` });
          continue;
        }
        const fragment = url.hash.slice(1);
        if (!fragment || fragment === 'top' || isFunction) continue;
        const target = pageAt(site, url.pathname);
        if (!target) continue;
        let id = fragment;
        try {
          id = decodeURIComponent(fragment);
        } catch {
          // Looked up as written.
        }
        if (!idsOf(target).has(id))
          problems.push({
            page: page.path,
            message: `${where}: ${target.path} has no element with id "${id}"`,
          });
      }
    }
  }
  return problems;
}
