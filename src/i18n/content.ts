/**
 * Content in a language. A German entry lives in the `<collection>_de` twin of its collection under the English
 * id (src/content/de, src/content.config.ts). A German page of an entry exists exactly when its German entry
 * does; elsewhere on German pages (lists, cards, sibling links) an entry without a German twin shows in English
 * and links its English page. The language of an entry is that of its collection (`entryLang`), so a link to an
 * entry always points at the page in the language it is written in.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { isPublishedIn, routes, routesIn, type SiteRoute } from '../routes.ts';
import { defaultLang, languages, localePath, splitLocale, type Lang } from './lang.ts';

/** The collections with German twins (`services` has no text). */
export type Translated = 'blog' | 'news' | 'sectors' | 'references' | 'initiatives' | 'team' | 'legal';

type Filter<C extends Translated> = (entry: CollectionEntry<C>) => boolean;

/** `getEntry` by collection name and id; the twin collections' names are computed, so typed loosely here. */
const entryOf = getEntry as unknown as <C extends Translated>(
  collection: string,
  id: string,
) => Promise<CollectionEntry<C> | undefined>;

const twinOf = (collection: Translated, lang: Lang) =>
  lang === defaultLang ? collection : `${collection}_${lang}`;

/** The language an entry is written in: entries of a `_de` collection are German. */
export function entryLang(entry: { collection: string }): Lang {
  const suffix = /_([a-z]{2})$/.exec(entry.collection)?.[1];
  return languages.find((lang) => lang === suffix) ?? defaultLang;
}

const collections = new Map<string, Promise<CollectionEntry<Translated>[]>>();

/**
 * Entries written in `lang`, newest state of each. Twins share the English schema, so they are typed as the
 * English collection and every component takes both; `entry.collection` still names the twin (`entryLang`).
 * A build reads each collection once: Astro's `getCollection` resolves every entry's images again on each call,
 * which list pages, cards and related articles made 0.8 s of a build at 1,000 extra articles. Each caller gets
 * its own array (some sort it); `npm run dev` reads afresh, so an edited entry shows at once.
 */
export async function entriesIn<C extends Translated>(
  collection: C,
  lang: Lang,
  filter?: Filter<C>,
): Promise<CollectionEntry<C>[]> {
  const name = twinOf(collection, lang);
  let read = collections.get(name);
  if (!read || import.meta.env.DEV) {
    read = getCollection(name as Translated);
    collections.set(name, read);
  }
  const entries = (await read) as CollectionEntry<C>[];
  return filter ? entries.filter(filter) : [...entries];
}

/** The entries a page in `lang` shows: each one's translation where it exists, the English entry otherwise. */
export async function localCollection<C extends Translated>(
  collection: C,
  lang: Lang,
  filter?: Filter<C>,
): Promise<CollectionEntry<C>[]> {
  const english = await entriesIn(collection, defaultLang, filter);
  if (lang === defaultLang) return english;
  const translated = new Map((await entriesIn(collection, lang, filter)).map((entry) => [entry.id, entry]));
  return english.map((entry) => translated.get(entry.id) ?? entry);
}

const written = new Map<string, Promise<Set<string>>>();

/**
 * The ids of a collection's entries written in `lang`, read once per build: asking `getEntry` for a twin that
 * does not exist logs a warning each time (1,000 lines for 1,000 untranslated articles).
 */
function idsIn(collection: Translated, lang: Lang): Promise<Set<string>> {
  const key = twinOf(collection, lang);
  let ids = written.get(key);
  // npm run dev reads them afresh, so a translation added while it runs shows at once.
  if (!ids || import.meta.env.DEV) {
    ids = entriesIn(collection, lang).then((entries) => new Set(entries.map((entry) => entry.id)));
    written.set(key, ids);
  }
  return ids;
}

/** One entry as a page in `lang` shows it: its translation, or the English entry. */
export async function localEntry<C extends Translated>(
  collection: C,
  id: string,
  lang: Lang,
): Promise<CollectionEntry<C> | undefined> {
  const translated =
    lang !== defaultLang && (await idsIn(collection, lang)).has(id)
      ? await entryOf<C>(twinOf(collection, lang), id)
      : undefined;
  return translated ?? (await entryOf<C>(collection, id));
}

/** The languages an entry is published in, English first; its page exists in each. */
export async function entryLanguages(collection: Translated, id: string): Promise<Lang[]> {
  const found = await Promise.all(
    languages.map(async (lang) => ((await idsIn(collection, lang)).has(id) ? lang : null)),
  );
  return found.filter((lang): lang is Lang => lang !== null);
}

/**
 * The attributes of a link to an entry's page (`path` in its English form) from a page in `pageLang`: the
 * page in the entry's own language, marked with `hreflang` and `lang` when that differs from the page's.
 */
export function entryLink(
  entry: { collection: string },
  path: string,
  pageLang: Lang,
): { href: string; hreflang?: Lang; lang?: Lang } {
  const lang = entryLang(entry);
  const href = localePath(lang, path);
  return lang === pageLang ? { href } : { href, hreflang: lang, lang };
}

/** The languages a route's page exists in: every language, the admin English only, an entry's page where it is written. */
export async function routeLanguages(route: SiteRoute): Promise<Lang[]> {
  if (route.entry) return entryLanguages(route.entry.collection, route.entry.id);
  return languages.filter((lang) => isPublishedIn(route, lang));
}

const published = new Map<Lang, Promise<Set<string>>>();

/** The English-form paths of the routes whose page exists in `lang`. */
function publishedPaths(lang: Lang): Promise<Set<string>> {
  let paths = published.get(lang);
  if (!paths) {
    paths = (async () => {
      const collections = [...new Set(routes.flatMap((route) => route.entry?.collection ?? []))];
      const ids = new Map(
        await Promise.all(
          collections.map(async (collection) => [collection, await idsIn(collection, lang)] as const),
        ),
      );
      const inLang = routesIn(lang, (entry) => ids.get(entry.collection)?.has(entry.id) ?? false);
      return new Set(inLang.map((route) => splitLocale(route.path).path));
    })();
    published.set(lang, paths);
  }
  return paths;
}

/**
 * Links from a page in `lang`: `href('/pharma#x')` is the page in `lang` where it exists there, and the English
 * page where it does not yet (an untranslated division or document). Paths outside src/routes.ts (filter views,
 * feeds) exist in every language.
 */
export async function linksIn(lang: Lang): Promise<(path: string) => string> {
  if (lang === defaultLang) return (path) => path;
  const paths = await publishedPaths(lang);
  const known = new Set(routes.map((route) => route.path));
  return (path) => {
    const page = path.replace(/[?#].*$/, '') || '/';
    return known.has(page) && !paths.has(page) ? path : localePath(lang, path);
  };
}
