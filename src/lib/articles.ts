/** Pure helpers for article lists: reading time, order, related reading. */

/** Words a reader gets through in a minute of technical prose. */
export const WORDS_PER_MINUTE = 220;

/**
 * Minutes to read an MDX body: imports, JSX tags, link targets and Markdown syntax do not count as words;
 * table data exported from the MDX does, because the page shows it.
 * @example readingMinutes('word '.repeat(440)) // 2
 */
export function readingMinutes(body: string): number {
  const prose = body
    .replace(/^import\s.*$/gm, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[#*_`>|[\]-]+/g, ' ');
  const words = prose.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

export interface Dated {
  id: string;
  date: Date;
}

/** Newest first; same-day entries keep a stable order by id. */
export function newestFirst<T extends Dated>(entries: readonly T[]): T[] {
  return [...entries].sort(byNewest);
}

const byNewest = (a: Dated, b: Dated) => b.date.getTime() - a.date.getTime() || a.id.localeCompare(b.id);

/**
 * Up to `limit` other entries sharing the most tags with `current`, newest first among equals.
 * Linear in the number of entries when they come newest first (as every caller hands them), so a build that
 * asks it for each of n articles stays O(n²) cheap steps instead of n sorts.
 */
export function related<T extends Dated & { tags: readonly string[] }>(
  current: T,
  entries: readonly T[],
  limit = 3,
): T[] {
  if (limit <= 0) return [];
  const ordered = entries.every((entry, i) => i === 0 || byNewest(entries[i - 1]!, entry) <= 0)
    ? entries
    : newestFirst(entries);
  // The best `limit` so far, highest score first; an entry goes after every one scoring at least as much, so
  // among equals the newer one stays ahead.
  const best: { entry: T; score: number }[] = [];
  for (const entry of ordered) {
    if (entry.id === current.id) continue;
    const score = entry.tags.filter((tag) => current.tags.includes(tag)).length;
    if (best.length === limit && score <= best[limit - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at -= 1;
    best.splice(at, 0, { entry, score });
    if (best.length > limit) best.pop();
  }
  return best.map(({ entry }) => entry);
}
