/**
 * `npm run build`'s last step: the Pagefind search index of dist/ in dist/pagefind (index, `pagefind.js`, its
 * worker and WebAssembly core). It runs in its own process after `astro build` has exited, so the index
 * (≈ 0.7 MB of memory a page) and the build's own memory (≈ 0.9 MB a page) never add up: at 1,000 extra
 * articles that kept the peak under 2 GB (README, "Build benchmark"). Pagefind's stock UIs are removed: our
 * own search UI talks to pagefind.js. Pagefind writes one index per `<html lang>` (en, de), each stemmed for
 * its language, and pagefind.js loads the one of the page it runs on: German pages search German pages only.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';

const dist = join(process.cwd(), 'dist');
const { index, errors } = await pagefind.createIndex();
if (!index) throw new Error(`Pagefind: ${errors.join('; ')}`);
const indexed = await index.addDirectory({ path: dist });
const output = join(dist, 'pagefind');
const written = await index.writeFiles({ outputPath: output });
await pagefind.close();
for (const name of await readdir(output))
  if (/^pagefind-(ui|component-ui|modular-ui|highlight)\./.test(name)) await rm(join(output, name));
const problems = [...indexed.errors, ...written.errors];
if (problems.length > 0) throw new Error(`Pagefind: ${problems.join('; ')}`);
console.log(`search: ${indexed.page_count} pages indexed`);
