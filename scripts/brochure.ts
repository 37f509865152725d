/**
 * `npm run brochure`: generates public/korvel-brochure.pdf from the site's content (services, divisions,
 * references, company facts). `npm run build` and `npm run dev` do the same on their own; run this to look
 * at the PDF after changing content. `-- --out <file>` writes elsewhere.
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeBrochure } from './lib/brochure/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const result = await writeBrochure(root, values.out ? resolve(values.out) : undefined);
console.log(
  `${relative(process.cwd(), result.file) || result.file}: ${result.pages} pages, ${Math.round(result.bytes / 1024)} KB`,
);
