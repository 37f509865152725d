import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { featuredPerDivision } from '../../src/lib/featured-references.ts';
import { sectors } from '../../src/routes.ts';

const ref = (division: string, featured: boolean, title = `${division} project`) => ({
  division,
  featured,
  title,
});

describe('featuredPerDivision', () => {
  test('returns the featured reference of each division in the given division order', () => {
    const picked = featuredPerDivision(
      [
        ref('food', true, 'dairy'),
        ref('pharma', false),
        ref('pharma', true, 'fill-finish'),
        ref('food', false),
      ],
      ['pharma', 'food'],
    );
    expect(picked.map((r) => r.title)).toEqual(['fill-finish', 'dairy']);
  });

  test('names a division that has no featured reference', () => {
    expect(() => featuredPerDivision([ref('pharma', true), ref('food', false)], ['pharma', 'food'])).toThrow(
      /"food".*found 0/,
    );
  });

  test('names a division that has two featured references', () => {
    expect(() => featuredPerDivision([ref('pharma', true), ref('pharma', true)], ['pharma'])).toThrow(
      /"pharma".*found 2/,
    );
  });
});

describe('src/content/references', () => {
  test('feature exactly one project per division', () => {
    const dir = 'src/content/references';
    const entries = readdirSync(dir)
      .filter((file) => file.endsWith('.yaml'))
      .map(
        (file) => parse(readFileSync(`${dir}/${file}`, 'utf8')) as { division: string; featured?: boolean },
      )
      .map((entry) => ({ division: entry.division, featured: entry.featured === true }));
    const divisions = sectors.map((sector) => sector.art);
    expect(featuredPerDivision(entries, divisions)).toHaveLength(6);
  });
});
