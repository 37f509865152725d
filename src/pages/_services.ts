/** What /our-services shows beside each service's copy: its lead, projects and articles (src/content/services.yaml). */
import { getEntries, getEntry, type CollectionEntry } from 'astro:content';
import type { Service } from '../content/constants.ts';
import { teamCardPath } from './_articles.ts';

export interface ServiceProof {
  lead: { name: string; role: string; href: string };
  references: { title: string; outcome: string; href: string }[];
  articles: { title: string; href: string }[];
}

/** Where a project's case study lives: /our-references/<file name>. */
export const referencePath = (reference: CollectionEntry<'references'>) => `/our-references/${reference.id}`;

/**
 * The proof for one service. A project that does not list the service among its `services`, or an id with no
 * entry, stops the build with the file and the fix.
 */
export async function serviceProof(service: Service): Promise<ServiceProof> {
  const where = `src/content/services.yaml → ${service}`;
  const entry = await getEntry('services', service);
  if (!entry) throw new Error(`${where}: no entry; add lead, references and articles for it.`);
  const lead = await getEntry(entry.data.lead);
  if (!lead) throw new Error(`${where}: lead "${entry.data.lead.id}" is not in src/content/team.`);
  const references = await getEntries(entry.data.references);
  for (const reference of references) {
    if (!reference.data.services.includes(service))
      throw new Error(
        `${where}: project "${reference.id}" does not list ${service} among its services; pick one that does.`,
      );
  }
  const articles = await getEntries(entry.data.articles);
  return {
    lead: { name: lead.data.name, role: lead.data.role, href: teamCardPath(lead) },
    references: references.map((reference) => ({
      title: reference.data.title,
      outcome: reference.data.outcome,
      href: referencePath(reference),
    })),
    articles: articles.map((article) => ({ title: article.data.title, href: `/blog/${article.id}` })),
  };
}
