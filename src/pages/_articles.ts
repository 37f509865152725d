/** What the blog and news routes share: ordered entries and static paths (the feeds: _feeds.ts). */
import type { GetStaticPaths } from 'astro';
import type { CollectionEntry } from 'astro:content';
import { entryLang, localCollection, localEntry } from '../i18n/content.ts';
import { getT } from '../i18n/index.ts';
import { defaultLang, localePath, type Lang } from '../i18n/lang.ts';
import { DIVISIONS } from '../content/constants.ts';
import {
  filterPath,
  filterTopics,
  matchesFilter,
  newestEntriesFirst,
  related,
  type ArticleFilter,
} from '../lib/articles.ts';
import { divisionLabelKey } from '../lib/search.ts';
import { site } from '../site.config.ts';
import { perLanguage } from './_lang.ts';

export type ArticleCollection = 'blog' | 'news';
export type Article = CollectionEntry<'blog'> | CollectionEntry<'news'>;

/**
 * Whether drafts are built: while editing (npm run dev) and in Netlify's deploy previews and branch deploys,
 * where the Content tab shows a writer the draft (CONTEXT, set by Netlify); never in the production build.
 */
export const showsDrafts = (context = process.env.CONTEXT) =>
  import.meta.env.DEV || context === 'deploy-preview' || context === 'branch-deploy';

/**
 * Entries of a collection as a page in `lang` lists them (translations, and English where there is none,
 * src/i18n/content.ts), newest first.
 */
export async function entriesOf(collection: ArticleCollection, lang: Lang = defaultLang): Promise<Article[]> {
  const entries: Article[] = await localCollection(
    collection,
    lang,
    (entry: Article) => showsDrafts() || !entry.data.draft,
  );
  return newestEntriesFirst(entries);
}

/**
 * The person on the team page who wrote an entry, in the entry's language; a byline naming anyone else stops
 * the build.
 */
export async function authorOf(entry: Article): Promise<CollectionEntry<'team'>> {
  const person = await localEntry('team', entry.data.author.id, entryLang(entry));
  if (!person) {
    const id = entry.data.author.id;
    throw new Error(
      `${entry.collection} → ${entry.id}: author "${id}" is not on the team page (src/content/team/${id}.yaml)`,
    );
  }
  return person;
}

/** Where a byline links: the person's card on the team page. */
export const teamCardPath = (person: CollectionEntry<'team'>) => `/about-us/our-team#${person.id}`;

/**
 * One page per entry of both collections at /<collection>/<id> in each language it is written in, each with up
 * to three related entries from that language's list.
 */
export const articlePaths = (() => perLanguage(articlePathsIn)) satisfies GetStaticPaths;

async function articlePathsIn(lang: Lang) {
  const collections: ArticleCollection[] = ['blog', 'news'];
  const pages = await Promise.all(
    collections.map(async (collection) => {
      const scored = (await entriesOf(collection, lang)).map((entry) => ({
        id: entry.id,
        date: entry.data.date,
        tags: entry.data.tags,
        divisions: entry.data.divisions,
        entry,
      }));
      return scored
        .filter((item) => entryLang(item.entry) === lang)
        .map((item) => ({
          params: { collection, slug: item.id },
          props: { entry: item.entry, related: related(item, scored).map(({ entry }) => entry) },
        }));
    }),
  );
  return pages.flat();
}

/** One link of the blog filter, with what the list shows when it is chosen (the script swaps these in). */
export interface FilterLink {
  href: string;
  label: string;
  count: number;
  /** Absent for "All articles". */
  filter?: ArticleFilter;
  /** The list heading, the document title and the count line under the filter. */
  heading: string;
  title: string;
  status: string;
}

export interface BlogFilters {
  all: FilterLink;
  divisions: FilterLink[];
  topics: FilterLink[];
}

/** The blog filter: All, then every division with an article, then the topics several articles share. */
export async function blogFilters(entries: Article[], lang: Lang = defaultLang): Promise<BlogFilters> {
  const t = await getT(lang);
  const total = entries.length;
  const data = entries.map((entry) => entry.data);
  const link = (label: string, filter?: ArticleFilter): FilterLink => {
    const count = filter ? data.filter((item) => matchesFilter(item, filter)).length : total;
    const heading = filter ? t('blog:filter.heading', { name: label }) : t('blog:list.heading');
    return {
      href: localePath(lang, filter ? filterPath(filter) : '/blog'),
      label,
      count,
      ...(filter && { filter }),
      heading,
      title: `${filter ? heading : t('blog:page.title')} | ${site.displayName}`,
      status: t('blog:filter.status', { shown: count, total }),
    };
  };
  return {
    all: link(t('blog:filter.all')),
    divisions: DIVISIONS.map((id) => link(t(divisionLabelKey(id)), { kind: 'division', id })).filter(
      (item) => item.count > 0,
    ),
    topics: filterTopics(data, DIVISIONS).map((id) =>
      link(t(`blog:filter.topics.${id}`, { defaultValue: id.replace(/-/g, ' ') }), { kind: 'topic', id }),
    ),
  };
}
