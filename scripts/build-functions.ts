/**
 * `node scripts/build-functions.ts`: the function bundles as a deploy ships them, in .netlify/function-zips,
 * built only when their sources changed (scripts/lib/function-bundles.ts). `npm test` runs it once, before the
 * bundle test and the end-to-end preview, which both unzip these.
 */
import { freshFunctionZips } from './lib/function-bundles.ts';

const started = performance.now();
const { built, zips } = await freshFunctionZips();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Functions: ${zips.length} bundles ${built ? `built in ${seconds} s` : 'current'} (.netlify/function-zips)`,
);
