/**
 * The RSS feeds of the blog and the news in each language: `/blog/rss.xml` and `/news/rss.xml` list the
 * English entries, `/de/blog/rss.xml` and `/de/news/rss.xml` the German ones (the `blog_de`, `news_de`
 * collections), with German channel copy and links to the `/de` pages. Every page's head names the two
 * feeds of its language (FeedLinks.astro).
 */
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { getEntry, type CollectionEntry } from 'astro:content';
import { entriesIn } from '../i18n/content.ts';
import { getT } from '../i18n/index.ts';
import { localePath, type Lang } from '../i18n/lang.ts';
import { newestEntriesFirst } from '../lib/articles.ts';
import { site } from '../site.config.ts';

export type FeedCollection = 'blog' | 'news';
const feedCollections: readonly FeedCollection[] = ['blog', 'news'];

/** RSS `<language>` of each site language (RFC 1766 tags, as RSS 2.0 asks). */
const rssLanguage: Record<Lang, string> = { en: 'en-gb', de: 'de-DE' };

/** Where a collection's feed of a language is served: `feedPath('news', 'de')` → `/de/news/rss.xml`. */
export function feedPath(collection: FeedCollection, lang: Lang): string {
  return localePath(lang, `/${collection}/rss.xml`);
}

/** The feeds a page of a language names in its head, each with its channel title. */
export async function feedsOf(lang: Lang): Promise<Array<{ href: string; title: string }>> {
  const t = await getT(lang);
  return feedCollections.map((collection) => ({
    href: feedPath(collection, lang),
    title: channelTitle(t, collection),
  }));
}

const channelTitle = (t: Awaited<ReturnType<typeof getT>>, collection: FeedCollection) =>
  `${t(`${collection}:page.title`)} | ${site.displayName}`;

type FeedEntry = CollectionEntry<FeedCollection>;

/** A language's own entries of a collection (no English stand-ins), newest first; drafts only in npm run dev. */
async function entriesOf(collection: FeedCollection, lang: Lang): Promise<FeedEntry[]> {
  const entries: FeedEntry[] = await entriesIn(
    collection,
    lang,
    (entry: FeedEntry) => import.meta.env.DEV || !entry.data.draft,
  );
  return newestEntriesFirst(entries);
}

/** RSS 2.0 feed of a collection in a language, every entry, newest first. */
export async function feed(collection: FeedCollection, lang: Lang, context: APIContext): Promise<Response> {
  const t = await getT(lang);
  const entries = await entriesOf(collection, lang);
  const authors = await Promise.all(
    entries.map(async (entry) => {
      // German entries keep the English byline's person: names do not change.
      const person = await getEntry(entry.data.author);
      if (!person)
        throw new Error(
          `${entry.collection} → ${entry.id}: author "${entry.data.author.id}" is not on the team page`,
        );
      return person.data.name;
    }),
  );
  return rss({
    title: channelTitle(t, collection),
    description: t(`${collection}:page.description`),
    site: context.site ?? site.url,
    items: entries.map((entry, index) => ({
      title: entry.data.title,
      description: entry.data.summary,
      pubDate: entry.data.date,
      link: localePath(lang, `/${collection}/${entry.id}`),
      author: `${site.email} (${authors[index]})`,
      categories: [...entry.data.tags],
    })),
    customData: `<language>${rssLanguage[lang]}</language>`,
    trailingSlash: false,
  });
}
