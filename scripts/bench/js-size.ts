/**
 * `npm run bench:js [-- --parts]`: for every built page, eager, total and React
 * JavaScript in gzip bytes (see page-js.ts for what each column counts). `--parts` then shows where each
 * page's eager bytes go, once for every group of pages that ship the same scripts. Reads dist/; run
 * `npm run build` first.
 */
import { parseArgs } from 'node:util';
import { measurePages } from './page-js.ts';

const { values } = parseArgs({ options: { parts: { type: 'boolean', default: false } } });

const rows = measurePages();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const cell = (bytes: number, width = 10) => kb(bytes).padStart(width);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(`${'page'.padEnd(72)}${'eager'.padStart(10)}${'total'.padStart(10)}${'react'.padStart(10)}`);
for (const row of rows) {
  console.log(`${row.page.padEnd(72)}${cell(row.eager)}${cell(row.total)}${cell(row.react)}`);
}
console.log(
  `\n${rows.length} pages · median eager ${kb(median(rows.map((r) => r.eager)))} · most eager ${kb(
    Math.max(0, ...rows.map((r) => r.eager)),
  )} · median total ${kb(median(rows.map((r) => r.total)))} · pages with React: ${rows.filter((r) => r.react > 0).length} · the replaced SPA shipped ~300–400 KB gz eagerly on every route`,
);

if (values.parts) {
  // Pages with the same eager scripts, heaviest first; file names lose their content hash.
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = row.eagerParts.map((part) => `${part.name}:${part.bytes}`).join('|');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const pages of [...groups.values()].sort((a, b) => b[0]!.eager - a[0]!.eager)) {
    const [first] = pages;
    const others = pages.length > 1 ? ` and ${pages.length - 1} more like it` : '';
    console.log(`\n${first!.page}${others}: ${first!.eager.toLocaleString('en-GB')} B eager`);
    for (const part of first!.eagerParts)
      console.log(`  ${String(part.bytes).padStart(6)} B  ${part.name.replace(/\.[\w-]{8}\.js$/, '.js')}`);
  }
}
