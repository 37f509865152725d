/** What the division pages, /divisions and the home page share: the sector entries in order, with their routes. */
import type { CollectionEntry } from 'astro:content';
import { DIVISIONS } from '../content.config.ts';
import { localCollection } from '../i18n/content.ts';
import type { Lang } from '../i18n/lang.ts';
import { featuredPerDivision } from '../lib/featured-references.ts';
import { sectors } from '../routes.ts';

export type SectorEntry = CollectionEntry<'sectors'>;

/** The route of a sector entry (`oil-gas` → `/oil&gas`). */
export function sectorPath(id: string): string {
  const sector = sectors.find((s) => s.art === id);
  if (!sector) throw new Error(`src/content/sectors/${id}.mdx has no route in src/routes.ts`);
  return `/${sector.slug}`;
}

/** The anchor of a division's projects on /our-references (`oil&gas` → `#oil-gas`). */
export const referencesHref = (id: string) => `/our-references#${sectorPath(id).slice(1).replace('&', '-')}`;

/** Every sector entry as a page in `lang` shows it (src/i18n/content.ts), in their `order`. */
export async function sectorEntries(lang: Lang): Promise<SectorEntry[]> {
  return (await localCollection('sectors', lang)).sort((a, b) => a.data.order - b.data.order);
}

/** The one featured reference of each division, in division order. */
export async function featuredReferences(lang: Lang): Promise<CollectionEntry<'references'>[]> {
  const entries = await localCollection('references', lang);
  const picked = featuredPerDivision(
    entries.map((entry) => ({ ...entry.data, entry })),
    DIVISIONS,
  );
  return picked.map(({ entry }) => entry);
}
