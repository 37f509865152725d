/**
 * German content (issue 25): every English entry has its German twin in src/content/de/<collection>, and the
 * twin differs only in its words. Dates, ids, enums, numbers, images, sources and list lengths are the English
 * entry's, so a German page never tells a different story from the English one. A source is its document (url and
 * year): its title and publisher are words, in German where German exists (issue 39).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { missingTranslations, TRANSLATED_COLLECTIONS } from '../../scripts/lib/content-lint.ts';

const root = process.cwd();
type Entry = Record<string, unknown>;

function read(file: string): Entry {
  const source = readFileSync(file, 'utf8');
  const yaml = file.endsWith('.mdx') ? (/^---\n([\s\S]*?)\n---\n/.exec(source)?.[1] ?? '') : source;
  return parse(yaml) as Entry;
}

/** An image path as the file it names, so `../../assets/x.svg` and `../../../assets/x.svg` compare equal. */
const imageFile = (file: string, src: unknown) => resolve(dirname(file), String(src));

/** The fields of an entry that carry no words, per collection; lists of text compare by length. */
function facts(collection: string, file: string, entry: Entry): Record<string, unknown> {
  const images = (list: unknown) =>
    (Array.isArray(list) ? list : [list]).map((image: { src?: unknown }) => imageFile(file, image?.src));
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  switch (collection) {
    case 'blog':
    case 'news':
      return {
        date: entry.date,
        updated: entry.updated,
        author: entry.author,
        divisions: entry.divisions,
        tags: entry.tags,
        images: images(entry.images),
        references: (entry.references as Entry[] | undefined)?.map(({ url, year }) => ({ url, year })),
      };
    case 'sectors': {
      const market = entry.market as Entry | undefined;
      return {
        order: entry.order,
        image: images(entry.image),
        highlights: length(entry.highlights),
        market: market && { sourceUrl: market.sourceUrl, points: market.points },
      };
    }
    case 'initiatives':
      return {
        order: entry.order,
        image: images(entry.image),
        audience: length(entry.audience),
        engage: length(entry.engage),
      };
    case 'references':
      return {
        division: entry.division,
        year: entry.year,
        durationMonths: entry.durationMonths,
        services: entry.services,
        deliveredUnderBrand: entry.deliveredUnderBrand,
        featured: entry.featured,
        articles: entry.articles,
        investment: entry.investment,
        status: entry.status,
        approach: length(entry.approach),
        scope: length(entry.scope),
        standards: length(entry.standards),
      };
    case 'team': {
      const portrait = entry.portrait as Entry;
      return {
        name: entry.name,
        discipline: entry.discipline,
        group: entry.group,
        divisions: entry.divisions,
        joined: entry.joined,
        inIndustrySince: entry.inIndustrySince,
        order: entry.order,
        leads: entry.leads,
        portrait: imageFile(file, portrait.src),
      };
    }
    default:
      return { lastUpdated: entry.lastUpdated, version: entry.version };
  }
}

describe('German content', () => {
  test('every English entry and locale file has its German version (npm run lint:content lists any missing)', () => {
    expect(missingTranslations(root).map((problem) => `${problem.file}: ${problem.message}`)).toEqual([]);
  });

  for (const [collection, ext] of Object.entries(TRANSLATED_COLLECTIONS)) {
    test(`${collection}: each German twin has the English entry's facts, only its words differ`, () => {
      const dir = join(root, 'src/content', collection);
      const twins = readdirSync(dir).filter((name) => name.endsWith(ext));
      for (const name of twins) {
        const english = join(dir, name);
        const german = join(root, 'src/content/de', collection, name);
        if (!existsSync(german)) continue; // reported by the test above
        expect(facts(collection, german, read(german)), `src/content/de/${collection}/${name}`).toEqual(
          facts(collection, english, read(english)),
        );
        const title = read(english).title ?? read(english).role;
        expect(read(german).title ?? read(german).role, `${name} is in German`).not.toBe(title);
      }
    });
  }

  test('no published German entry is without its English original', () => {
    const orphans = Object.entries(TRANSLATED_COLLECTIONS).flatMap(([collection, ext]) => {
      const dir = join(root, 'src/content/de', collection);
      return existsSync(dir)
        ? readdirSync(dir)
            .filter((name) => name.endsWith(ext))
            .filter((name) => !existsSync(join(root, 'src/content', collection, name)))
            .filter((name) => read(join(dir, name)).draft !== true)
            .map((name) => `src/content/de/${collection}/${name}`)
        : [];
    });
    expect(orphans).toEqual([]);
  });
});
