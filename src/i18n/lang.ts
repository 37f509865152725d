/**
 * The site's languages and how a path looks in each. English keeps every SPEC path; German lives under
 * `/de` with the same path after the prefix (`/contact` → `/de/contact`, `/` → `/de`), so switching
 * language keeps the page. Pages read their language from `Astro.currentLocale` (Astro's i18n routing).
 */

export const languages = ['en', 'de'] as const;
export type Lang = (typeof languages)[number];

export const defaultLang: Lang = 'en';

/** BCP 47 tags for `Intl` (dates, numbers), `<html lang>`-adjacent metadata and speech synthesis. */
export const intlLocale: Record<Lang, string> = { en: 'en-GB', de: 'de-DE' };

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** A language from anything that may name one (`Astro.currentLocale`, a stored value); English otherwise. */
export function langOf(value: unknown): Lang {
  return isLang(value) ? value : defaultLang;
}

/** The path of an English-form path (`/contact`, `/blog/gmp#refs`, `/?x`) in a language. */
export function localePath(lang: Lang, path: string): string {
  if (lang === defaultLang) return path;
  if (path === '/' || path === '') return `/${lang}`;
  // Same-page fragments, queries, other origins and protocol-relative URLs stay as they are.
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  if (/^\/[?#]/.test(path)) return `/${lang}${path.slice(1)}`;
  return `/${lang}${path}`;
}

/** Splits a pathname into its language and its English-form path: `/de/contact` → `{ de, /contact }`. */
export function splitLocale(pathname: string): { lang: Lang; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (match && isLang(match[1]) && match[1] !== defaultLang) {
    return { lang: match[1], path: match[2] || '/' };
  }
  return { lang: defaultLang, path: pathname };
}
