/**
 * The one list of the site's routes. It drives the pages, the navigation, the sitemap and the route tests.
 * `copy` names the i18n record (`namespace:key`) that holds the page's title, description and intro.
 * Paths are English; every route but the admin also lives in each further language under its prefix
 * (`/de/contact`, `routesIn`), a route made from a content entry only where the entry is translated.
 */
import { defaultLang, localePath, splitLocale, type Lang } from './i18n/lang.ts';
import { brandInitiativeSlug } from './site.config.ts';

export type RouteKind =
  | 'home'
  | 'page'
  | 'divisions'
  | 'sector'
  | 'initiative'
  | 'list'
  | 'article'
  | 'reference'
  | 'news'
  | 'legal'
  | 'thanks'
  | 'search'
  | 'admin';

export interface SiteRoute {
  path: string;
  /** The i18n record with title, description, eyebrow and intro; absent for routes made from a content entry. */
  copy?: `${string}:${string}`;
  /** The content entry the page is made from (articles, news, initiatives, sectors, legal documents, references). */
  entry?: { collection: 'blog' | 'news' | 'initiatives' | 'sectors' | 'legal' | 'references'; id: string };
  kind: RouteKind;
}

/**
 * The six divisions: `slug` is the route SPEC names, `art` the id of src/content/sectors/<art>.mdx (and the
 * #anchor on /our-references), `key` the nav label in nav.json.
 */
export const sectors = [
  { slug: 'pharma', key: 'pharma', art: 'pharma' },
  { slug: 'food', key: 'food', art: 'food' },
  { slug: 'chemicals', key: 'chemicals', art: 'chemicals' },
  { slug: 'electronics', key: 'electronics', art: 'electronics' },
  { slug: 'energy', key: 'energy', art: 'energy' },
  { slug: 'oil&gas', key: 'oil_gas', art: 'oil-gas' },
] as const;

export type Sector = (typeof sectors)[number];

export const initiatives = [
  { slug: brandInitiativeSlug, key: 'product' },
  { slug: 'navigator', key: 'navigator' },
  { slug: 'assure', key: 'assure' },
  { slug: 'innolab', key: 'innolab' },
  { slug: 'academy', key: 'academy' },
] as const;

/** Blog article ids: src/content/blog/<id>.mdx, served at /blog/<id> (SPEC §2). */
export const articles = [
  'volleyball',
  'diversity',
  'sustainability',
  'roda',
  'closed-systems',
  'insulin',
  'co-creation',
  'integrating-ai',
  'gmp',
  'regulation-as-a-strategic-lever-in-pharmaceutical-plant-design',
  'cleanrooms-and-ultrapure-water-for-electronics',
  'hygienic-design-in-food-plants',
  'industrial-heat-pumps-from-pinch-to-grid',
  'process-safety-in-chemical-plant-layout',
  'revamping-a-live-fuel-terminal',
] as const;

/**
 * Project reference ids: src/content/references/<id>.yaml, each a case study at /our-references/<id>
 * (issue 15; a route test holds this list to the folder).
 */
export const references = [
  'chemicals-api-intermediates-plant',
  'chemicals-liquid-detergent-plant',
  'chemicals-paints-coatings-plant',
  'chemicals-polymer-dispersions-scale-up',
  'chemicals-river-port-tank-farm',
  'electronics-battery-cell-pilot-line',
  'electronics-pcb-assembly-cleanroom',
  'electronics-semiconductor-back-end',
  'electronics-ultrapure-water-plant',
  'energy-biomass-district-heating',
  'energy-gas-engine-chp',
  'energy-solar-plus-storage',
  'energy-wastewater-heat-pump',
  'food-dairy-yogurt-plant',
  'food-juice-concentrate-line',
  'food-par-baked-bread-line',
  'food-pea-protein-plant',
  'food-probiotics-fermentation',
  'oil-gas-fuel-depot-safety-upgrade',
  'oil-gas-hydrotreater-revamp',
  'oil-gas-lpg-terminal',
  'oil-gas-metering-regulating-station',
  'pharma-annex-1-gap-assessment',
  'pharma-biologics-downstream-suite',
  'pharma-gdp-warehouse-qualification',
  'pharma-oral-solid-dosage-plant',
  'pharma-qc-laboratory',
  'pharma-sterile-fill-finish-line',
  'pharma-veterinary-vaccine-suite',
  'pharma-wfi-pure-steam-system',
] as const;

/** News ids: src/content/news/<id>.mdx, served at /news/<id>. */
export const newsItems = ['achema', 'k2022', 'team-talk'] as const;

export const routes: readonly SiteRoute[] = [
  { path: '/', copy: 'home:page', kind: 'home' },
  { path: '/about-us/who-are-we', copy: 'who_are_we:page', kind: 'page' },
  { path: '/about-us/our-team', copy: 'team:page', kind: 'page' },
  { path: '/about-us/our-vision-and-mission', copy: 'vision:page', kind: 'page' },
  { path: '/about-us/our-values', copy: 'vision:values', kind: 'page' },
  { path: '/divisions', copy: 'divisions:page', kind: 'divisions' },
  ...sectors.map(
    (s) => ({ path: `/${s.slug}`, entry: { collection: 'sectors', id: s.art }, kind: 'sector' }) as const,
  ),
  { path: '/our-services', copy: 'services:page', kind: 'page' },
  { path: '/our-references', copy: 'references:page', kind: 'page' },
  ...references.map(
    (id) =>
      ({
        path: `/our-references/${id}`,
        entry: { collection: 'references', id },
        kind: 'reference',
      }) as const,
  ),
  ...initiatives.map(
    (i) =>
      ({
        path: `/initiatives/${i.slug}`,
        entry: { collection: 'initiatives', id: i.slug },
        kind: 'initiative',
      }) as const,
  ),
  { path: '/career', copy: 'career:page', kind: 'page' },
  { path: '/contact', copy: 'contact:page', kind: 'page' },
  { path: '/news', copy: 'news:page', kind: 'list' },
  ...newsItems.map(
    (id) => ({ path: `/news/${id}`, entry: { collection: 'news', id }, kind: 'news' }) as const,
  ),
  { path: '/blog', copy: 'blog:page', kind: 'list' },
  ...articles.map(
    (id) => ({ path: `/blog/${id}`, entry: { collection: 'blog', id }, kind: 'article' }) as const,
  ),
  { path: '/privacy-policy', entry: { collection: 'legal', id: 'privacy-policy' }, kind: 'legal' },
  {
    path: '/terms-and-conditions',
    entry: { collection: 'legal', id: 'terms-and-conditions' },
    kind: 'legal',
  },
  { path: '/cookie-policy', copy: 'policy:cookies', kind: 'legal' },
  // The newsletter archive (issue 36): the sent issues a function lists into this page's built shell.
  { path: '/newsletter', copy: 'newsletter:archive', kind: 'page' },
  { path: '/thanks', copy: 'contact:thanks', kind: 'thanks' },
  // Site search (issue 16): `/search?q=…` links a search; the page itself is not indexed.
  { path: '/search', copy: 'search:page', kind: 'search' },
  { path: '/admin', copy: 'admin:panel', kind: 'admin' },
  { path: '/admin/login', copy: 'admin:login', kind: 'admin' },
  // Team accounts (issue 23): mailed links open the reset and invitation pages with `#token=…`.
  { path: '/admin/forgot-password', copy: 'admin:forgot', kind: 'admin' },
  { path: '/admin/reset-password', copy: 'admin:reset', kind: 'admin' },
  { path: '/admin/invite', copy: 'admin:invite', kind: 'admin' },
  { path: '/admin/account', copy: 'admin:account', kind: 'admin' },
];

const unlisted: ReadonlySet<RouteKind> = new Set(['admin', 'thanks', 'search']);

/** Whether a route is published in a language: the admin is English only. */
export const isPublishedIn = (route: SiteRoute, lang: Lang): boolean =>
  lang === defaultLang || route.kind !== 'admin';

/**
 * The routes of a language with their paths in it (`/contact` → `/de/contact`). `translated` says whether a
 * content entry has a twin in that language (src/i18n/content.ts); entry routes without one are left out.
 */
export function routesIn(
  lang: Lang,
  translated: (entry: NonNullable<SiteRoute['entry']>) => boolean,
): SiteRoute[] {
  return routes
    .filter(
      (route) =>
        isPublishedIn(route, lang) && (!route.entry || lang === defaultLang || translated(route.entry)),
    )
    .map((route) => ({ ...route, path: localePath(lang, route.path) }));
}

/** The route a path in any language shows (`/de/contact` → the /contact route), or undefined. */
export function routeOf(path: string): SiteRoute | undefined {
  const decoded = decodeURIComponent(path);
  const normalized = decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
  const { lang, path: english } = splitLocale(normalized);
  const route = routes.find((r) => r.path === english);
  return route && isPublishedIn(route, lang) ? route : undefined;
}

/** Whether search engines should index a path: admin screens, the thank-you and search pages stay out. */
export function isIndexable(path: string): boolean {
  const route = routeOf(path);
  return route ? !unlisted.has(route.kind) : false;
}

export function routeFor(path: string): SiteRoute {
  const route = routes.find((r) => r.path === path);
  if (!route) throw new Error(`No route is declared for ${path}`);
  return route;
}

/** A navigation entry: a link, or a labelled group that opens as a dropdown (groups may nest once). */
export type NavItem = { label: string; href: string } | { label: string; children: NavItem[]; href?: string };

/** The header's structure; labels are keys of the `nav` namespace. */
export const navigation: NavItem[] = [
  {
    label: 'about_us',
    children: [
      { label: 'who_are_we', href: '/about-us/who-are-we' },
      {
        label: 'departments',
        children: sectors.map((s) => ({ label: `sectors.${s.key}`, href: `/${s.slug}` })),
      },
      { label: 'our_team', href: '/about-us/our-team' },
      { label: 'vision_mission', href: '/about-us/our-vision-and-mission' },
      { label: 'our_values', href: '/about-us/our-values' },
    ],
  },
  { label: 'divisions', href: '/divisions' },
  { label: 'services', href: '/our-services' },
  { label: 'references', href: '/our-references' },
  {
    label: 'initiatives',
    children: initiatives.map((i) => ({
      label: `initiatives_menu.${i.key}`,
      href: `/initiatives/${i.slug}`,
    })),
  },
  { label: 'career', href: '/career' },
  { label: 'news', href: '/news' },
  { label: 'blog', href: '/blog' },
  { label: 'contact', href: '/contact' },
];
