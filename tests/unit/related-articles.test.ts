import { describe, expect, test } from 'vitest';
import { newestFirst, related } from '../../src/lib/articles.ts';

interface Item {
  id: string;
  date: Date;
  tags: string[];
}

/** The rule as written before it became one pass: sort newest first, then by shared tags, take the top. */
function reference(current: Item, entries: readonly Item[], limit = 3): Item[] {
  const shared = (entry: Item) => entry.tags.filter((tag) => current.tags.includes(tag)).length;
  return newestFirst(entries.filter((entry) => entry.id !== current.id))
    .map((entry) => ({ entry, score: shared(entry) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ entry }) => entry);
}

/** A small deterministic generator, so a failure can be replayed. */
function items(count: number, seed: number): Item[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const tags = ['gmp', 'hvac', 'water', 'layout', 'safety', 'energy'];
  return Array.from({ length: count }, (_, i) => ({
    id: `item-${String(i).padStart(3, '0')}`,
    // Few distinct days, so same-day ties (ordered by id) are common.
    date: new Date(Date.UTC(2025, 0, 1 + Math.floor(next() * 20))),
    tags: tags.filter(() => next() < 0.35),
  }));
}

describe('related', () => {
  test('picks what the sort-based rule picks, for entries in any order, with ties on score and date', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const shuffled = items(60, seed);
      const sorted = newestFirst(shuffled);
      for (const current of shuffled.slice(0, 10)) {
        for (const limit of [0, 1, 3, 5]) {
          const expected = reference(current, shuffled, limit).map((e) => e.id);
          expect(related(current, shuffled, limit).map((e) => e.id)).toEqual(expected);
          expect(related(current, sorted, limit).map((e) => e.id)).toEqual(expected);
        }
      }
    }
  });

  test('falls back to the newest others when nothing shares a tag', () => {
    const entries: Item[] = [
      { id: 'a', date: new Date('2025-03-01'), tags: ['gmp'] },
      { id: 'b', date: new Date('2025-02-01'), tags: ['water'] },
      { id: 'c', date: new Date('2025-04-01'), tags: ['energy'] },
    ];
    expect(related(entries[0]!, entries).map((e) => e.id)).toEqual(['c', 'b']);
  });
});
