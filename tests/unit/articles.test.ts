import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { filterPath, filterTopics, matchesFilter, readingMinutes, related } from '../../src/lib/articles.ts';
import { splitSource } from '../../src/server/content/pieces.ts';

const entry = (id: string, day: number, tags: string[], divisions: string[] = []) => ({
  id,
  date: new Date(Date.UTC(2026, 0, day)),
  tags,
  divisions,
});

describe('related', () => {
  const current = entry('current', 10, ['gmp', 'cleanrooms'], ['pharma']);
  const others = [
    current,
    entry('same-division', 1, ['ai'], ['pharma']),
    entry('one-tag', 9, ['gmp'], ['food']),
    entry('nothing-shared', 20, ['sports']),
    entry('both', 2, ['gmp'], ['pharma']),
  ];

  test('never lists the entry itself and ranks a shared division above a shared tag', () => {
    expect(related(current, others).map((e) => e.id)).toEqual(['both', 'same-division', 'one-tag']);
  });

  test('fills up with the newest entries when few share anything', () => {
    expect(related(entry('x', 1, ['unique']), others, 2).map((e) => e.id)).toEqual([
      'nothing-shared',
      'current',
    ]);
  });
});

describe('blog filter', () => {
  const entries = [
    entry('a', 1, ['gmp', 'pharma'], ['pharma']),
    entry('b', 2, ['gmp', 'community']),
    entry('c', 3, ['community', 'sports']),
    entry('d', 4, ['atex'], ['chemicals']),
  ];

  test('offers the tags several entries share, most used first, without division names', () => {
    expect(filterTopics(entries, ['pharma', 'chemicals'])).toEqual(['community', 'gmp']);
  });

  test('matches an entry by division or by tag', () => {
    expect(
      entries.filter((e) => matchesFilter(e, { kind: 'division', id: 'pharma' })).map((e) => e.id),
    ).toEqual(['a']);
    expect(
      entries.filter((e) => matchesFilter(e, { kind: 'topic', id: 'community' })).map((e) => e.id),
    ).toEqual(['b', 'c']);
  });

  test('names the pre-rendered page of each filter', () => {
    expect(filterPath({ kind: 'division', id: 'oil-gas' })).toBe('/blog/division/oil-gas');
    expect(filterPath({ kind: 'topic', id: 'gmp' })).toBe('/blog/topic/gmp');
  });
});

describe('readingMinutes', () => {
  test('a component’s {…} data counts (the page shows it); its name and plain attributes do not', () => {
    const words = 'word '.repeat(440).trim();
    expect(readingMinutes(`<ComparisonTable caption="Table 1" rows={[{ area: '${words}' }]} />`)).toBe(2);
    expect(readingMinutes(`${words}\n\n<Email to="careers" />`)).toBe(2);
  });

  test('the GMP article reads in 9 minutes, as before its tables moved from an export into the component', () => {
    // 1,897 words at 3afa965^ (import/export), 1,891 now (rows={[…]}): both 9 at 220 words a minute.
    expect(readingMinutes(splitSource(readFileSync('src/content/blog/gmp.mdx', 'utf8')).body)).toBe(9);
    expect(readingMinutes(splitSource(readFileSync('src/content/de/blog/gmp.mdx', 'utf8')).body)).toBe(8);
  });
});
