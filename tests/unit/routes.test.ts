import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  articles,
  isIndexable,
  navigation,
  newsItems,
  references,
  routes,
  type NavItem,
} from '../../src/routes.ts';

const specRoutes = [
  '/',
  '/about-us/who-are-we',
  '/about-us/our-team',
  '/about-us/our-vision-and-mission',
  '/about-us/our-values',
  '/divisions',
  '/pharma',
  '/food',
  '/chemicals',
  '/electronics',
  '/energy',
  '/oil&gas',
  '/our-services',
  '/our-references',
  '/initiatives/korvele',
  '/initiatives/navigator',
  '/initiatives/assure',
  '/initiatives/innolab',
  '/initiatives/academy',
  '/career',
  '/contact',
  '/news',
  '/news/achema',
  '/news/k2022',
  '/news/team-talk',
  '/blog',
  '/blog/volleyball',
  '/blog/diversity',
  '/blog/sustainability',
  '/blog/roda',
  '/blog/closed-systems',
  '/blog/insulin',
  '/blog/co-creation',
  '/blog/integrating-ai',
  '/blog/gmp',
  '/blog/regulation-as-a-strategic-lever-in-pharmaceutical-plant-design',
  // The division articles, beyond SPEC's list: published pages like the rest.
  '/blog/cleanrooms-and-ultrapure-water-for-electronics',
  '/blog/hygienic-design-in-food-plants',
  '/blog/industrial-heat-pumps-from-pinch-to-grid',
  '/blog/process-safety-in-chemical-plant-layout',
  '/blog/revamping-a-live-fuel-terminal',
  '/privacy-policy',
  '/terms-and-conditions',
  '/cookie-policy',
  '/thanks',
  '/admin',
  '/admin/login',
  // Not in SPEC: the team's account pages (issue 23).
  '/admin/forgot-password',
  '/admin/reset-password',
  '/admin/invite',
  '/admin/account',
  // Not in SPEC: site search (issue 16).
  '/search',
  // Not in SPEC: the public newsletter archive (issue 36).
  '/newsletter',
  // Not in SPEC: a case study per project reference (issue 15), one per file in src/content/references.
  ...readdirSync(new URL('../../src/content/references/', import.meta.url))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => `/our-references/${file.slice(0, -'.yaml'.length)}`),
];

const hrefs = (items: NavItem[]): string[] =>
  items.flatMap((item) => [
    ...(item.href ? [item.href] : []),
    ...('children' in item ? hrefs(item.children) : []),
  ]);

describe('routes', () => {
  test('declare exactly the routes SPEC §2 lists, and the case studies', () => {
    expect(routes.map((r) => r.path).sort()).toEqual([...specRoutes].sort());
  });

  test('list every blog and news entry, so none falls out of the sitemap', () => {
    const ids = (dir: string) =>
      readdirSync(new URL(`../../src/content/${dir}/`, import.meta.url))
        .filter((file) => file.endsWith('.mdx'))
        .map((file) => file.slice(0, -'.mdx'.length))
        .sort();
    expect([...articles].sort()).toEqual(ids('blog'));
    expect([...newsItems].sort()).toEqual(ids('news'));
  });

  test('give every project reference its case study, indexed like any public page', () => {
    expect(references).toHaveLength(30);
    for (const id of references) {
      expect(routes.find((r) => r.path === `/our-references/${id}`)?.kind).toBe('reference');
      expect(isIndexable(`/our-references/${id}`)).toBe(true);
    }
    // The filter pages are not routes: out of the sitemap and the index.
    expect(isIndexable('/our-references/filter/pharma')).toBe(false);
  });

  test('have no duplicates', () => {
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
  });

  test('every navigation link points to a declared route', () => {
    const declared = new Set(routes.map((r) => r.path));
    for (const href of hrefs(navigation)) expect(declared, href).toContain(href);
  });

  test('the navigation reaches every top-level public section', () => {
    const linked = new Set(hrefs(navigation));
    for (const path of [
      '/divisions',
      '/our-services',
      '/our-references',
      '/career',
      '/contact',
      '/news',
      '/blog',
    ]) {
      expect(linked).toContain(path);
    }
  });
});

describe('isIndexable', () => {
  test('keeps admin screens, the thank-you and search pages out of the sitemap', () => {
    expect(isIndexable('/admin')).toBe(false);
    expect(isIndexable('/admin/login/')).toBe(false);
    expect(isIndexable('/thanks')).toBe(false);
    expect(isIndexable('/search')).toBe(false);
  });
  test('indexes public pages, including an encoded ampersand', () => {
    expect(isIndexable('/')).toBe(true);
    expect(isIndexable('/oil&gas')).toBe(true);
    expect(isIndexable('/oil%26gas/')).toBe(true);
  });
  test('does not index unknown paths', () => {
    expect(isIndexable('/nowhere')).toBe(false);
  });
});
