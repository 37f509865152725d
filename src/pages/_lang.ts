/**
 * Every public route file lives under src/pages/[...lang]/ and Astro builds it once per language: `lang` is
 * undefined for English (no prefix, SPEC's paths) and the code for the others (`/de/contact`). The page reads
 * its language back from `Astro.currentLocale` (Astro's i18n routing, astro.config.mjs).
 */
import type { GetStaticPaths } from 'astro';
import { entriesIn, type Translated } from '../i18n/content.ts';
import { defaultLang, languages, type Lang } from '../i18n/lang.ts';

/** The `[...lang]` parameter of a language. */
export const langParam = (lang: Lang) => (lang === defaultLang ? undefined : lang);

/** The static paths of a page with no content entry: one per language. */
export const everyLanguage = (() =>
  languages.map((lang) => ({ params: { lang: langParam(lang) } }))) satisfies GetStaticPaths;

/**
 * The static paths of a page made from content, in every language: `paths(lang)` lists the pages of one
 * language (only its translated entries, src/i18n/content.ts), and each gets that language's parameter.
 */
export async function perLanguage<P extends Record<string, string | undefined>, T>(
  paths: (lang: Lang) => Promise<Array<{ params: P; props: T }>>,
) {
  const all = await Promise.all(
    languages.map(async (lang) =>
      (await paths(lang)).map((path) => ({ ...path, params: { ...path.params, lang: langParam(lang) } })),
    ),
  );
  return all.flat();
}

/** The static paths of a page made from one entry (a legal document): one per language it is written in. */
export const entryPaths = <C extends Translated>(collection: C, id: string) =>
  perLanguage(async (lang) => {
    const entry = (await entriesIn(collection, lang)).find((e) => e.id === id);
    return entry ? [{ params: {}, props: { entry } }] : [];
  });
