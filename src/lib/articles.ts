/** Pure helpers for article lists: reading time, order, related reading. */

/** Words a reader gets through in a minute of technical prose. */
export const WORDS_PER_MINUTE = 220;

/** Reading times by body: list pages show every article's card, so a build asks for each body many times. */
const minutesByBody = new Map<string, number>();

/**
 * Minutes to read an MDX body: imports, JSX tags, link targets and Markdown syntax do not count as words;
 * data written into a component's `{…}` attributes (a table's `rows`) does, because the page shows it — as
 * it did when such data was an `export` of the MDX. Counted once per body.
 * @example readingMinutes('word '.repeat(440)) // 2
 */
export function readingMinutes(body: string): number {
  let minutes = minutesByBody.get(body);
  if (minutes === undefined) {
    const prose = body
      .replace(/^import\s.*$/gm, ' ')
      .replace(/<[^>]+>/g, (tag) => ` ${/\{[\s\S]*\}/.exec(tag)?.[0] ?? ''} `)
      .replace(/\]\([^)]*\)/g, ']')
      .replace(/[#*_`>|[\]-]+/g, ' ');
    const words = prose.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
    minutes = Math.max(1, Math.round(words / WORDS_PER_MINUTE));
    minutesByBody.set(body, minutes);
  }
  return minutes;
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

/** Content entries (dated in their front matter) newest first, as `newestFirst` orders them. */
export function newestEntriesFirst<E extends { id: string; data: { date: Date } }>(
  entries: readonly E[],
): E[] {
  return newestFirst(entries.map((entry) => ({ id: entry.id, date: entry.data.date, entry }))).map(
    ({ entry }) => entry,
  );
}

/** What related reading and the blog filter look at: the divisions a piece is about and its tags. */
export interface Topical extends Dated {
  tags: readonly string[];
  divisions?: readonly string[];
}

/**
 * Up to `limit` other entries, never `current` itself, closest first: a shared division counts twice a shared
 * tag, and among equals the newer entry comes first. Linear in the number of entries when they come newest
 * first (as every caller hands them), so a build that asks it for each of n articles makes no n sorts.
 */
export function related<T extends Topical>(current: T, entries: readonly T[], limit = 3): T[] {
  if (limit <= 0) return [];
  const shared = (mine: readonly string[] = [], theirs: readonly string[] = []) =>
    theirs.filter((item) => mine.includes(item)).length;
  const scoreOf = (entry: T) =>
    2 * shared(current.divisions, entry.divisions) + shared(current.tags, entry.tags);
  const ordered = entries.every((entry, i) => i === 0 || byNewest(entries[i - 1]!, entry) <= 0)
    ? entries
    : newestFirst(entries);
  // The best `limit` so far, highest score first; an entry goes after every one scoring at least as much, so
  // among equals the newer one stays ahead.
  const best: { entry: T; score: number }[] = [];
  for (const entry of ordered) {
    if (entry.id === current.id) continue;
    const score = scoreOf(entry);
    if (best.length === limit && score <= best[limit - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at -= 1;
    best.splice(at, 0, { entry, score });
    if (best.length > limit) best.pop();
  }
  return best.map(({ entry }) => entry);
}

/** A blog filter: every entry of one division, or every entry with one tag. */
export type ArticleFilter = { kind: 'division'; id: string } | { kind: 'topic'; id: string };

/** Where a filter's pre-rendered page lives: /blog/division/pharma, /blog/topic/gmp. */
export const filterPath = (filter: ArticleFilter) => `/blog/${filter.kind}/${filter.id}`;

export function matchesFilter(
  entry: { tags: readonly string[]; divisions?: readonly string[] },
  filter: ArticleFilter,
): boolean {
  return filter.kind === 'division'
    ? (entry.divisions ?? []).includes(filter.id)
    : entry.tags.includes(filter.id);
}

/**
 * The topics worth a filter: tags at least `min` entries share, most used first, leaving out tags that name a
 * division (the division filter covers them).
 * @example filterTopics([{ tags: ['gmp'] }, { tags: ['gmp', 'pharma'] }], ['pharma']) // ['gmp']
 */
export function filterTopics(
  entries: ReadonlyArray<{ tags: readonly string[] }>,
  divisions: readonly string[],
  min = 2,
): string[] {
  const counts = new Map<string, number>();
  for (const tag of entries.flatMap((entry) => entry.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .filter(([tag, count]) => count >= min && !divisions.includes(tag))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([tag]) => tag);
}
