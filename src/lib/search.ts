/**
 * What the site search indexes and how it labels results. Pagefind indexes the `<main>` of the pages
 * `searchTypeOf` names (BaseLayout marks it `data-pagefind-body`); every other page stays out of the index.
 * Pagefind files each page under its `<html lang>` and writes one index per language; pagefind.js loads the
 * index of the page it runs on, so German pages search German pages only (scripts/search-index.ts).
 */
import { splitLocale } from '../i18n/lang.ts';
import { routes, sectors } from '../routes.ts';

export const searchTypes = [
  'article',
  'news',
  'division',
  'service',
  'references',
  'reference',
  'initiative',
  'career',
] as const;
export type SearchType = (typeof searchTypes)[number];

const byPath: Record<string, SearchType> = {
  '/our-services': 'service',
  '/our-references': 'references',
  '/career': 'career',
};
const byKind: Partial<Record<(typeof routes)[number]['kind'], SearchType>> = {
  article: 'article',
  news: 'news',
  sector: 'division',
  initiative: 'initiative',
  reference: 'reference',
};

/** A page's English-form path: decoded, without a trailing slash or a language prefix (`/de/blog/x/` → `/blog/x`). */
function routePath(pathname: string): string {
  return splitLocale(decodeURIComponent(pathname).replace(/(.)\/+$/, '$1')).path;
}

/**
 * The search type of a page in any language, or undefined for a page search leaves out (home, company
 * pages, legal boilerplate, contact, thanks, admin, 404).
 * @example searchTypeOf('/blog/gmp') // 'article'
 * @example searchTypeOf('/de/blog/gmp') // 'article'
 */
export function searchTypeOf(pathname: string): SearchType | undefined {
  const path = routePath(pathname);
  const route = routes.find((r) => r.path === path);
  if (!route) return undefined;
  return byPath[path] ?? byKind[route.kind];
}

/**
 * The divisions a page is about, as sector art ids: a division page its own, the references page all six,
 * an article those of its tags that name a division (a case study passes its division as its one tag).
 */
export function searchDivisionsOf(pathname: string, tags: readonly string[] = []): string[] {
  const path = routePath(pathname);
  if (path === '/our-references') return sectors.map((s) => s.art);
  const sector = sectors.find((s) => `/${s.slug}` === path);
  if (sector) return [sector.art];
  return sectors.filter((s) => tags.includes(s.art)).map((s) => s.art);
}

/** The nav label key of a division (sector art id): `oil-gas` → `nav:sectors.oil_gas`. */
export function divisionLabelKey(art: string): string {
  const sector = sectors.find((s) => s.art === art);
  return `nav:sectors.${sector?.key ?? art}`;
}
