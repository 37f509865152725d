/**
 * What each indexable page's social card shows, in the page's language: title, section and the page's
 * drawing (src/server/og). A German page has its own card from its German entry or copy; an entry without a
 * German twin has no German page, so no German card.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { dirname, join, resolve } from 'node:path';
import { frontMatterOf } from '../../scripts/lib/front-matter.ts';
import { getT } from '../i18n/index.ts';
import { defaultLang, languages, localePath, splitLocale, type Lang } from '../i18n/lang.ts';
import { divisionLabelKey } from '../lib/search.ts';
import { isIndexable, routes, type SiteRoute } from '../routes.ts';
import type { CardInput } from '../server/og/card.ts';

const homeDrawing = join(process.cwd(), 'src/assets/home/plant-section.svg');

/**
 * The source SVG of an entry's drawing. In a build the image is already an emitted asset, so the path comes
 * from the entry's own front matter (`image.src`, or the first of `images`), relative to its file; the build
 * read every article's front matter before it started (scripts/lib/front-matter.ts keeps it).
 */
function drawingOf(entry: { id: string; filePath?: string }): string {
  if (!entry.filePath) throw new Error(`Social card: entry ${entry.id} has no file`);
  const file = join(process.cwd(), entry.filePath);
  const front = frontMatterOf(file) as
    { image?: { src: string }; images?: ReadonlyArray<{ src: string }> } | undefined;
  const src = front?.image?.src ?? front?.images?.[0]?.src;
  if (!src) throw new Error(`Social card: ${entry.filePath} names no drawing`);
  return resolve(dirname(file), src);
}

type EntryCollection = NonNullable<SiteRoute['entry']>['collection'];

/**
 * Entries in a language: the English entry, or its German twin from the `<collection>_de` collection (same id,
 * same schema); undefined when the language has no twin. Each collection is read once per call: asking
 * getEntry for a twin that does not exist logs a warning, at 1,000 English-only articles 1,000 lines.
 */
function entriesIn(lang: Lang) {
  const collections = new Map<string, Promise<Map<string, CollectionEntry<EntryCollection>>>>();
  return async (collection: EntryCollection, id: string) => {
    const name = (lang === defaultLang ? collection : `${collection}_${lang}`) as EntryCollection;
    let entries = collections.get(name);
    if (!entries) {
      entries = getCollection(name).then((all) => new Map(all.map((one) => [one.id, one])));
      collections.set(name, entries);
    }
    return (await entries).get(id);
  };
}

/** One card per indexable route of src/routes.ts, in a language: `/blog/gmp` in German is `/de/blog/gmp`. */
export async function socialCards(lang: Lang = defaultLang): Promise<CardInput[]> {
  const t = await getT(lang);
  const entryIn = entriesIn(lang);
  const cards: CardInput[] = [];
  const english = routes.filter((r) => splitLocale(r.path).lang === defaultLang && isIndexable(r.path));
  for (const route of english) {
    const path = localePath(lang, route.path);
    const { entry } = route;
    if (route.copy) {
      const copy = route.copy;
      const drawing = route.path === '/' ? homeDrawing : undefined;
      cards.push({ path, title: t(`${copy}.title`), section: t(`${copy}.eyebrow`), drawing });
      continue;
    }
    if (!entry) throw new Error(`Social card: nothing to draw for ${path}`);
    const page = await entryIn(entry.collection, entry.id);
    // No twin in this language: the page is not built, and neither is its card.
    if (!page) {
      if (lang === defaultLang) throw new Error(`Social card: no ${entry.collection} entry ${entry.id}`);
      continue;
    }
    if (page.collection.startsWith('blog') || page.collection.startsWith('news')) {
      const { title, discipline } = page.data as CollectionEntry<'blog'>['data'];
      const list = t(`${entry.collection}:page.eyebrow`);
      cards.push({ path, title, section: `${list} · ${discipline}`, drawing: drawingOf(page) });
    } else if (entry.collection === 'sectors' || entry.collection === 'initiatives') {
      const { title, eyebrow } = page.data as CollectionEntry<'sectors' | 'initiatives'>['data'];
      cards.push({ path, title, section: eyebrow, drawing: drawingOf(page) });
    } else if (entry.collection === 'references') {
      // A case study: "References · <division>" over its division's drawing (the same in every language).
      const reference = page.data as CollectionEntry<'references'>['data'];
      const sector = await getEntry('sectors', reference.division);
      if (!sector) throw new Error(`Social card: no division for ${path}`);
      const section = `${t('references:page.eyebrow')} · ${t(divisionLabelKey(reference.division))}`;
      cards.push({ path, title: reference.title, section, drawing: drawingOf(sector) });
    } else {
      const { title, eyebrow } = page.data as CollectionEntry<'legal'>['data'];
      cards.push({ path, title, section: eyebrow });
    }
  }
  return cards;
}

/** Every social card of the site, in every language. */
export async function everySocialCard(): Promise<CardInput[]> {
  return (await Promise.all(languages.map((lang) => socialCards(lang)))).flat();
}
