/**
 * What `npm run build` runs (scripts/build.ts) and `npm run bench:build` measures: `astro build`, then the
 * search index in a process of its own, both with BUILD_ENV added to the environment.
 *
 * MIMALLOC_PURGE_DELAY=0: Rolldown, Vite's bundler, allocates with mimalloc, which by default keeps freed
 * memory for a while before giving it back to the system. Bundling 1,000 MDX articles for prerendering
 * frees a few hundred MB that the process then kept while it rendered the pages; returned at once, the
 * build's peak fell from 1.70–1.87 GB to 1.42–1.47 GB in three runs each (README, "Build at scale"), for
 * about 1 s more system time.
 */
import { join } from 'node:path';

export const BUILD_ENV = { MIMALLOC_PURGE_DELAY: '0' } as const;

/** The two steps of a build of the project at `root`, as Node argument lists. */
export function buildSteps(root: string): string[][] {
  return [[join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], [join(root, 'scripts/search-index.ts')]];
}
