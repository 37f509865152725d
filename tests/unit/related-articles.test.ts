import { describe, expect, test } from 'vitest';
import { newestFirst, related } from '../../src/lib/articles.ts';

interface Item {
  id: string;
  date: Date;
  tags: string[];
  divisions: string[];
}

/**
 * The rule written the slow way: sort newest first, then by score (a shared division counts twice a shared
 * tag), take the top.
 */
function reference(current: Item, entries: readonly Item[], limit = 3): Item[] {
  const shared = (mine: string[], theirs: string[]) => theirs.filter((x) => mine.includes(x)).length;
  const score = (entry: Item) =>
    2 * shared(current.divisions, entry.divisions) + shared(current.tags, entry.tags);
  return newestFirst(entries.filter((entry) => entry.id !== current.id))
    .map((entry) => ({ entry, score: score(entry) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ entry }) => entry);
}

/** A small deterministic generator, so a failure can be replayed. */
function items(count: number, seed: number): Item[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const tags = ['gmp', 'hvac', 'water', 'layout', 'safety', 'energy'];
  const divisions = ['pharma', 'food', 'energy'];
  return Array.from({ length: count }, (_, i) => ({
    id: `item-${String(i).padStart(3, '0')}`,
    // Few distinct days, so same-day ties (ordered by id) are common.
    date: new Date(Date.UTC(2025, 0, 1 + Math.floor(next() * 20))),
    tags: tags.filter(() => next() < 0.35),
    divisions: divisions.filter(() => next() < 0.25),
  }));
}

describe('related', () => {
  test('picks what the sort-based rule picks, divisions counting double, for entries in any order, with ties on score and date', () => {
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
      { id: 'a', date: new Date('2025-03-01'), tags: ['gmp'], divisions: [] },
      { id: 'b', date: new Date('2025-02-01'), tags: ['water'], divisions: [] },
      { id: 'c', date: new Date('2025-04-01'), tags: ['energy'], divisions: [] },
    ];
    expect(related(entries[0]!, entries).map((e) => e.id)).toEqual(['c', 'b']);
  });
});
