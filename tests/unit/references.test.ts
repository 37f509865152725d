import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { DIVISIONS, SERVICES } from '../../src/content/constants.ts';
import {
  brandNoteKey,
  caseStudyStructuredData,
  filterOptions,
  filterPath,
  filtersWithResults,
  matches,
  parseFilter,
} from '../../src/lib/references.ts';
import { articles, references as referenceIds, sectors } from '../../src/routes.ts';

const dir = new URL('../../src/content/references/', import.meta.url);
const entries = readdirSync(dir)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => ({
    id: file.slice(0, -'.yaml'.length),
    data: parse(readFileSync(new URL(file, dir), 'utf8')) as {
      division: string;
      services: string[];
      year: number;
      durationMonths: number;
      deliveredUnderBrand: boolean;
      articles?: string[];
      status?: string;
    },
  }));
const data = entries.map((entry) => entry.data);

describe('reference links', () => {
  test('every case study is a declared route', () => {
    expect(entries.map((e) => e.id).sort()).toEqual([...referenceIds].sort());
  });

  test('every article a reference names is a published blog article', () => {
    for (const { id, data: reference } of entries) {
      for (const article of reference.articles ?? []) {
        expect(articles, `${id} → /blog/${article}`).toContain(article);
        const source = readFileSync(
          new URL(`../../src/content/blog/${article}.mdx`, import.meta.url),
          'utf8',
        );
        expect(/^draft: true$/m.test(source.split(/^---$/m)[1] ?? ''), `${article} is a draft`).toBe(false);
      }
    }
  });

  test('every service is an anchor of /our-services and every division has its page', () => {
    const page = readFileSync(
      new URL('../../src/pages/[...lang]/our-services.astro', import.meta.url),
      'utf8',
    );
    expect(page).toContain('id={service.id}');
    for (const { id, data: reference } of entries) {
      for (const service of reference.services) expect(SERVICES, `${id}: ${service}`).toContain(service);
      expect(
        sectors.map((s) => s.art),
        id,
      ).toContain(reference.division);
    }
  });

  test('a plant designed before 2023 is no longer waiting for construction', () => {
    for (const { id, data: reference } of entries.filter((e) => e.data.status)) {
      if (reference.year <= 2022)
        expect(['in-operation', 'study-complete'], `${id}: ${reference.status}`).toContain(reference.status);
    }
  });
});

describe('the reference filter', () => {
  test('gives each filter one address and reads it back', () => {
    expect(filterPath({})).toBe('/our-references');
    expect(filterPath({ division: 'oil-gas' })).toBe('/our-references/filter/oil-gas');
    expect(filterPath({ service: 'permitting' })).toBe('/our-references/filter/permitting');
    expect(filterPath({ division: 'pharma', service: 'site-supervision' })).toBe(
      '/our-references/filter/pharma/site-supervision',
    );
    for (const filter of filtersWithResults(data)) {
      const path = filterPath(filter).replace('/our-references/filter/', '');
      expect(parseFilter(path)).toEqual(filter);
    }
  });

  test('refuses what names no filter', () => {
    for (const path of ['', 'nowhere', 'permitting/pharma', 'pharma/food', 'pharma/permitting/extra'])
      expect(parseFilter(path), path).toBeUndefined();
  });

  test('division and service keys never coincide, so one segment names one filter', () => {
    expect(DIVISIONS.filter((d) => (SERVICES as readonly string[]).includes(d))).toEqual([]);
  });

  test('pre-renders every division, every service and each pair that keeps a project, and no empty one', () => {
    const filters = filtersWithResults(data);
    for (const division of DIVISIONS) expect(filters).toContainEqual({ division });
    for (const service of SERVICES) expect(filters).toContainEqual({ service });
    for (const filter of filters) expect(data.some((r) => matches(r, filter))).toBe(true);
    const pairs = DIVISIONS.flatMap((division) => SERVICES.map((service) => ({ division, service })));
    const kept = pairs.filter((pair) => data.some((r) => matches(r, pair)));
    expect(filters).toHaveLength(DIVISIONS.length + SERVICES.length + kept.length);
  });

  test('counts what each option would show, keeping the other facet', () => {
    const { divisions, services } = filterOptions(data, { service: 'permitting' });
    const all = divisions[0]!;
    expect(all).toMatchObject({ key: undefined, href: '/our-references/filter/permitting', current: true });
    expect(all.count).toBe(data.filter((r) => r.services.includes('permitting')).length);
    const pharma = divisions.find((o) => o.key === 'pharma')!;
    expect(pharma.count).toBe(
      data.filter((r) => r.division === 'pharma' && r.services.includes('permitting')).length,
    );
    const current = services.find((o) => o.current)!;
    expect(current).toMatchObject({ key: 'permitting', count: all.count });
    expect(services[0]).toMatchObject({ key: undefined, href: '/our-references', count: data.length });
  });
});

describe('case studies', () => {
  test('name the brand note the disclaimer announces: the former name before 2014, a consortium after', () => {
    expect(brandNoteKey({ year: 2012, deliveredUnderBrand: false }, 2014)).toBe('before_brand');
    expect(brandNoteKey({ year: 2016, deliveredUnderBrand: false }, 2014)).toBe('consortium');
    expect(brandNoteKey({ year: 2012, deliveredUnderBrand: true }, 2014)).toBeUndefined();
  });

  test('describe themselves as an ItemPage with breadcrumbs References › division › project', () => {
    const data = caseStudyStructuredData(
      {
        id: 'pharma-qc-laboratory',
        title: 'Quality control laboratory',
        description: 'Layout and MEP design.',
        outcome: 'In routine use after ten months',
        country: 'North Macedonia',
        year: 2021,
        division: { name: 'Pharma & life sciences', href: '/our-references/filter/pharma' },
        services: ['Basic design'],
        standards: ['EU GMP Annex 15'],
      },
      { url: 'https://www.example.test', name: 'Korvel Engineering' },
      'References',
    ) as { '@graph': Array<Record<string, unknown>> };
    const [page, crumbs] = data['@graph'];
    expect(page).toMatchObject({
      '@type': 'ItemPage',
      url: 'https://www.example.test/our-references/pharma-qc-laboratory',
      name: 'Quality control laboratory',
      abstract: 'In routine use after ten months',
      spatialCoverage: { '@type': 'Country', name: 'North Macedonia' },
      temporalCoverage: '2021',
    });
    expect(crumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: 'References', item: 'https://www.example.test/our-references' },
        { position: 2, item: 'https://www.example.test/our-references/filter/pharma' },
        { position: 3, item: 'https://www.example.test/our-references/pharma-qc-laboratory' },
      ],
    });
  });

  test('in German, name the German page, list and language', () => {
    const data = caseStudyStructuredData(
      {
        id: 'pharma-qc-laboratory',
        title: 'QC-Labor',
        description: 'Layout und TGA-Planung.',
        outcome: 'Nach zehn Monaten im Routinebetrieb',
        country: 'Nordmazedonien',
        year: 2021,
        division: { name: 'Pharma & Life Sciences', href: '/de/our-references/filter/pharma' },
        services: ['Basic Engineering'],
        standards: ['EU GMP Annex 15'],
      },
      { url: 'https://www.example.test', name: 'Korvel Engineering' },
      'Referenzen',
      'de',
    ) as { '@graph': Array<Record<string, unknown>> };
    const [page, crumbs] = data['@graph'];
    expect(page).toMatchObject({
      url: 'https://www.example.test/de/our-references/pharma-qc-laboratory',
      inLanguage: 'de',
    });
    expect(crumbs).toMatchObject({
      itemListElement: [
        { position: 1, item: 'https://www.example.test/de/our-references' },
        { position: 2, item: 'https://www.example.test/de/our-references/filter/pharma' },
        { position: 3, item: 'https://www.example.test/de/our-references/pharma-qc-laboratory' },
      ],
    });
  });
});
