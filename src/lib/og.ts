/**
 * Where a page's social card is served: `/` → `/og/home.png`, `/oil&gas` → `/og/oil-and-gas.png`,
 * `/blog/gmp` → `/og/blog/gmp.png`.
 * @example ogImagePath('/pharma') // '/og/pharma.png'
 */
export function ogImagePath(path: string): string {
  return `/og/${ogSlug(path)}.png`;
}

/** The card's file name under /og, without the extension. */
export function ogSlug(path: string): string {
  return path === '/' ? 'home' : path.slice(1).replaceAll('&', '-and-');
}
