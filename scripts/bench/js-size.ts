/**
 * `npm run bench:js`: for every built page, eager, total, React and returning-visitor JavaScript in gzip
 * bytes (see page-js.ts for what each column counts). Reads dist/; run `npm run build` first.
 */
import { measurePages } from './page-js.ts';

const rows = measurePages();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const cell = (bytes: number, width = 10) => kb(bytes).padStart(width);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(
  `${'page'.padEnd(72)}${'eager'.padStart(10)}${'total'.padStart(10)}${'react'.padStart(10)}${'returning'.padStart(12)}`,
);
for (const row of rows) {
  console.log(
    `${row.page.padEnd(72)}${cell(row.eager)}${cell(row.total)}${cell(row.react)}${cell(row.returning, 12)}`,
  );
}
console.log(
  `\n${rows.length} pages · median eager ${kb(median(rows.map((r) => r.eager)))} · median total ${kb(
    median(rows.map((r) => r.total)),
  )} · most React any returning visitor downloads: ${kb(
    Math.max(0, ...rows.map((r) => r.returningReact)),
  )} · the replaced SPA shipped ~300–400 KB gz eagerly on every route`,
);
