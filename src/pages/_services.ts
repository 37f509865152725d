/** What /our-services shows beside each service's copy: its lead, projects and articles (src/content/services.yaml). */
import { getEntry, type CollectionEntry } from 'astro:content';
import type { Service } from '../content/constants.ts';
import { entryLink, localEntry } from '../i18n/content.ts';
import { localePath, type Lang } from '../i18n/lang.ts';
import { teamCardPath } from './_articles.ts';

/** A link to an entry's page; `hreflang` and `lang` mark one not yet translated into the page's language. */
type Link = ReturnType<typeof entryLink>;

export interface ServiceProof {
  lead: { name: string; role: string; href: string };
  references: ({ title: string; outcome: string } & Link)[];
  articles: ({ title: string } & Link)[];
}

/** Where a project's case study lives: /our-references/<file name>. */
export const referencePath = (reference: CollectionEntry<'references'>) => `/our-references/${reference.id}`;

/**
 * The proof for one service. A project that does not list the service among its `services`, or an id with no
 * entry, stops the build with the file and the fix.
 */
export async function serviceProof(service: Service, lang: Lang): Promise<ServiceProof> {
  const where = `src/content/services.yaml → ${service}`;
  const entry = await getEntry('services', service);
  if (!entry) throw new Error(`${where}: no entry; add lead, references and articles for it.`);
  const lead = await localEntry('team', entry.data.lead.id, lang);
  if (!lead) throw new Error(`${where}: lead "${entry.data.lead.id}" is not in src/content/team.`);
  const local = <C extends 'references' | 'blog'>(collection: C, ids: { id: string }[]) =>
    Promise.all(ids.map(async ({ id }) => (await localEntry(collection, id, lang))!));
  const references = await local('references', entry.data.references);
  for (const reference of references) {
    if (!reference.data.services.includes(service))
      throw new Error(
        `${where}: project "${reference.id}" does not list ${service} among its services; pick one that does.`,
      );
  }
  const articles = await local('blog', entry.data.articles);
  return {
    lead: { name: lead.data.name, role: lead.data.role, href: localePath(lang, teamCardPath(lead)) },
    references: references.map((reference) => ({
      title: reference.data.title,
      outcome: reference.data.outcome,
      ...entryLink(reference, referencePath(reference), lang),
    })),
    articles: articles.map((article) => ({
      title: article.data.title,
      ...entryLink(article, `/blog/${article.id}`, lang),
    })),
  };
}
