/**
 * Gates over the built site (`npm test` runs each after `build`; `npm run build` first):
 *   node scripts/check-dist.ts links            internal links and #fragments resolve
 *   node scripts/check-dist.ts html             html-validate, recommended preset (.htmlvalidate.mjs)
 *   node scripts/check-dist.ts structured-data  JSON-LD parses and has each type's required properties
 *   node scripts/check-dist.ts feeds            RSS items and sitemap URLs against the built pages
 *   node scripts/check-dist.ts social-cards     each indexable page's own 1200×630 og:image PNG and its meta
 *   node scripts/check-dist.ts fonts            every character a page shows is in the site's cut of Plex
 *   node scripts/check-dist.ts images           no derived image is larger than its source
 * `--dist <dir>` checks another directory; `--report <file>` writes each gate's number of problems as JSON
 * (npm test counts one result per gate). Exits 1 and lists the problems when there are any.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gates, type Gate } from './lib/dist-checks/index.ts';
import { readSite } from './lib/dist-checks/site.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dist: { type: 'string', default: 'dist' }, report: { type: 'string' } },
});
const names = positionals.length > 0 ? positionals : Object.keys(gates);
const unknown = names.filter((name) => !(name in gates));
if (unknown.length > 0) {
  console.error(`Unknown gate ${unknown.join(', ')}; known: ${Object.keys(gates).join(', ')}`);
  process.exit(2);
}

const site = readSite(resolve(values.dist));
let failed = false;
const report: { gate: string; problems: number }[] = [];
for (const name of names) {
  const problems = await gates[name as Gate](site);
  report.push({ gate: name, problems: problems.length });
  if (problems.length === 0) {
    console.log(`✓ ${name}: ${site.pages.size} pages`);
    continue;
  }
  failed = true;
  console.log(`✗ ${name}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  for (const problem of problems) console.log(`  ${problem.page}  ${problem.message}`);
}
if (values.report) writeFileSync(values.report, JSON.stringify(report, null, 2));
process.exit(failed ? 1 : 0);
