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
  return [...entries].sort((a, b) => b.date.getTime() - a.date.getTime() || a.id.localeCompare(b.id));
}

/** Up to `limit` other entries sharing the most tags with `current`, newest first among equals. */
export function related<T extends Dated & { tags: readonly string[] }>(
  current: T,
  entries: readonly T[],
  limit = 3,
): T[] {
  const shared = (entry: T) => entry.tags.filter((tag) => current.tags.includes(tag)).length;
  return newestFirst(entries.filter((entry) => entry.id !== current.id))
    .map((entry) => ({ entry, score: shared(entry) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ entry }) => entry);
}
