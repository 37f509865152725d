/**
 * What `npm run build` runs (scripts/build.ts) and `npm run bench:build` measures: `astro build`, then the
 * search index in a process of its own, both with BUILD_ENV added to the environment.
 *
 * MIMALLOC_PURGE_DELAY=0: Rolldown, Vite's bundler, allocates with mimalloc, which by default keeps freed
 * memory for a while before giving it back to the system. Bundling 1,000 MDX articles for prerendering
 * frees a few hundred MB that the process then kept while it rendered the pages; returned at once, the
 * build's peak fell from 1.70–1.87 GB to 1.42–1.47 GB in three runs each (README, "Build at scale"), for
 * about 1 s more system time.
 *
 * MIMALLOC_ALLOW_THP=0: this machine has transparent huge pages `always` on, and mimalloc let its arenas use
 * them. Memory it had purged stayed resident in huge pages. During the render, the build then held 830–940 MB:
 * V8's heap was 200–250 MB of it, and 360 MB sat resident in one 1 GB arena of Rolldown's. Without huge
 * pages, `astro build` of the + 1,000 copy peaked at 809–861 MB instead of 1,017–1,060 MB in three
 * alternated pairs, with the same times (README, "Build at scale").
 */
import { join } from 'node:path';

export const BUILD_ENV = { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ALLOW_THP: '0' } as const;

/**
 * V8's heap for `astro build`. Left to itself on a 24 GB machine, V8 let the heap grow to 600 MB of mostly
 * garbage while Rolldown bundled 1,000 articles (the live heap stays at 170–220 MB throughout), on top of the
 * bundler's own memory: a peak of 1.60 GB. A 1 GB old generation and 8 MB semi-spaces make it collect sooner:
 * 1.19 GB in the same copy, in the same time within the runs' spread (README, "Build at scale"). The limit
 * leaves the heap four times what 1,000 articles need; `--optimize-for-size` reached 1.03 GB but took 60 %
 * longer.
 */
export const ASTRO_V8_FLAGS = ['--max-old-space-size=1024', '--max-semi-space-size=8'] as const;

/** The two steps of a build of the project at `root`, as Node argument lists. */
export function buildSteps(root: string): string[][] {
  return [
    [...ASTRO_V8_FLAGS, join(root, 'node_modules/astro/bin/astro.mjs'), 'build'],
    [join(root, 'scripts/search-index.ts')],
  ];
}
