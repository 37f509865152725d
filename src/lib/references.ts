/**
 * Addresses and filters of the project references: each case study's page, and the division × service filter
 * of /our-references. Pure, so the pages, the filter script's tests and the unit tests share one rule.
 * The filter's pages are pre-rendered (docs/decisions.md, "References as case studies"):
 * `/our-references/filter/<division>`, `/our-references/filter/<service>` and
 * `/our-references/filter/<division>/<service>`; division and service keys never coincide.
 */
import { DIVISIONS, SERVICES, type Division, type Service } from '../content/constants.ts';
import { defaultLang, localePath, type Lang } from '../i18n/lang.ts';

export const REFERENCES_PATH = '/our-references';

/** A reference's case study: the YAML file's name under /our-references. */
export const referencePath = (id: string) => `${REFERENCES_PATH}/${id}`;

export interface ReferenceFilter {
  division?: Division;
  service?: Service;
}

/** What a filter needs to know of a reference. */
export interface Filterable {
  division: string;
  services: readonly string[];
}

/**
 * The page that lists the references a filter keeps; no filter is the full list.
 * @example filterPath({ division: 'pharma', service: 'permitting' }) // '/our-references/filter/pharma/permitting'
 */
export function filterPath({ division, service }: ReferenceFilter): string {
  const parts = [division, service].filter(Boolean);
  return parts.length === 0 ? REFERENCES_PATH : `${REFERENCES_PATH}/filter/${parts.join('/')}`;
}

/**
 * The filter a `filter/…` path segment names, or undefined when it names none (unknown key, service before
 * division, two of a kind).
 * @example parseFilter('pharma/permitting') // { division: 'pharma', service: 'permitting' }
 */
export function parseFilter(segments: string): ReferenceFilter | undefined {
  const parts = segments.split('/').filter(Boolean);
  const isDivision = (key?: string): key is Division => DIVISIONS.includes(key as Division);
  const isService = (key?: string): key is Service => SERVICES.includes(key as Service);
  const [first, second] = parts;
  if (parts.length === 1 && isDivision(first)) return { division: first };
  if (parts.length === 1 && isService(first)) return { service: first };
  if (parts.length === 2 && isDivision(first) && isService(second))
    return { division: first, service: second };
  return undefined;
}

/** Whether a reference is one a filter keeps. */
export const matches = (reference: Filterable, { division, service }: ReferenceFilter) =>
  (!division || reference.division === division) && (!service || reference.services.includes(service));

/**
 * Every filter that keeps at least one reference: each division, each service, each pair. These are the
 * pages the filter pre-renders; an empty combination gets no page and its option no link.
 */
export function filtersWithResults(references: readonly Filterable[]): ReferenceFilter[] {
  const divisions: (Division | undefined)[] = [undefined, ...DIVISIONS];
  const services: (Service | undefined)[] = [undefined, ...SERVICES];
  return divisions
    .flatMap((division) => services.map((service) => ({ division, service })))
    .filter(({ division, service }) => division || service)
    .filter((filter) => references.some((reference) => matches(reference, filter)))
    .map(({ division, service }) => ({ ...(division && { division }), ...(service && { service }) }));
}

/** One option of the filter: where it leads and how many references it would show (0: no link). */
export interface FilterOption {
  key: string | undefined;
  href: string;
  count: number;
  current: boolean;
}

/**
 * The options of both filter rows for the current filter: picking a division keeps the service and vice
 * versa; each count is what the list would show after the pick.
 */
export function filterOptions(
  references: readonly Filterable[],
  current: ReferenceFilter,
): { divisions: FilterOption[]; services: FilterOption[] } {
  const option = (next: ReferenceFilter, key: string | undefined, picked: boolean): FilterOption => ({
    key,
    href: filterPath(next),
    count: references.filter((reference) => matches(reference, next)).length,
    current: picked,
  });
  return {
    divisions: [undefined, ...DIVISIONS].map((division) =>
      option({ ...current, division }, division, current.division === division),
    ),
    services: [undefined, ...SERVICES].map((service) =>
      option({ ...current, service }, service, current.service === service),
    ),
  };
}

/**
 * The note a reference carries when it was not delivered under the Korvel brand: before the brand
 * (`brandSince`) it was the former name, after it a partner's consortium. Keys of `references.json`.
 */
export function brandNoteKey(
  reference: { year: number; deliveredUnderBrand: boolean },
  brandSince: number,
): 'before_brand' | 'consortium' | undefined {
  if (reference.deliveredUnderBrand) return undefined;
  return reference.year < brandSince ? 'before_brand' : 'consortium';
}

/** What the case study's JSON-LD says, in words the page already shows. */
export interface CaseStudyFacts {
  id: string;
  title: string;
  description: string;
  outcome: string;
  country: string;
  year: number;
  division: { name: string; href: string };
  services: readonly string[];
  standards: readonly string[];
}

/**
 * A case study for search engines: an ItemPage (a page about one thing, the project) with its breadcrumbs
 * References › division › project, published by the site's Organization. schema.org has no case-study type
 * and Google no rich result for one; ItemPage says what the page is without claiming an Article's author and
 * publication date, which a reference does not have (docs/decisions.md).
 */
export function caseStudyStructuredData(
  facts: CaseStudyFacts,
  site: { url: string; name: string },
  listName: string,
  lang: Lang = defaultLang,
): Record<string, unknown> {
  const url = new URL(localePath(lang, referencePath(facts.id)), site.url).href;
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'ItemPage',
        '@id': url,
        url,
        name: facts.title,
        description: facts.description,
        abstract: facts.outcome,
        inLanguage: lang,
        about: { '@type': 'Thing', name: facts.division.name },
        keywords: [...facts.services, ...facts.standards].join(', '),
        spatialCoverage: { '@type': 'Country', name: facts.country },
        temporalCoverage: String(facts.year),
        breadcrumb: { '@id': `${url}#breadcrumb` },
        publisher: { '@type': 'Organization', name: site.name, url: site.url },
      },
      {
        '@type': 'BreadcrumbList',
        '@id': `${url}#breadcrumb`,
        itemListElement: [
          {
            '@type': 'ListItem',
            position: 1,
            name: listName,
            item: new URL(localePath(lang, REFERENCES_PATH), site.url).href,
          },
          {
            '@type': 'ListItem',
            position: 2,
            name: facts.division.name,
            item: new URL(facts.division.href, site.url).href,
          },
          { '@type': 'ListItem', position: 3, name: facts.title, item: url },
        ],
      },
    ],
  };
}
