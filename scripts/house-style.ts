/**
 * `npm run style`: lists every place in src/content and the English locale files that breaks the house style
 * of docs/editing.md (British spelling, "30 %" with a thin space, "14 May 2024", no e-mail or phone typed into
 * MDX). `npm run style -- --fix` repairs what needs no judgement and lists the rest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFile, fixFile } from '../src/lib/house-style.ts';
import { styledFiles } from './lib/styled-files.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const fix = process.argv.includes('--fix');
let open = 0;
for (const path of styledFiles(root)) {
  const name = relative(root, path);
  let source = readFileSync(path, 'utf8');
  if (fix) {
    const fixed = fixFile(name, source);
    if (fixed !== source) {
      writeFileSync(path, fixed);
      console.log(`fixed ${name}`);
      source = fixed;
    }
  }
  for (const issue of checkFile(name, source)) {
    open += 1;
    const hint = issue.replacement ? ` → "${issue.replacement}"` : '';
    console.log(`${name}:${issue.line}  ${issue.rule}  "${issue.found}"${hint}`);
  }
}
if (open > 0) {
  console.log(
    `\n${open} to change${fix ? ' by hand' : '; `npm run style -- --fix` repairs the ones with →'}.`,
  );
  process.exit(1);
}
