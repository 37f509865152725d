import { defaultLang, splitLocale } from '../i18n/lang.ts';

/**
 * Where a page's social card is served: `/` → `/og/home.png`, `/oil&gas` → `/og/oil-and-gas.png`,
 * `/blog/gmp` → `/og/blog/gmp.png`; a German page's card sits under `/og/de/` (`/de` → `/og/de/home.png`,
 * `/de/blog/gmp` → `/og/de/blog/gmp.png`).
 * @example ogImagePath('/pharma') // '/og/pharma.png'
 */
export function ogImagePath(path: string): string {
  return `/og/${ogSlug(path)}.png`;
}

/** The card's file name under /og, without the extension. */
export function ogSlug(path: string): string {
  const { lang, path: page } = splitLocale(path);
  const slug = page === '/' ? 'home' : page.slice(1).replaceAll('&', '-and-');
  return lang === defaultLang ? slug : `${lang}/${slug}`;
}
