/**
 * `npm run brochure`: generates public/korvel-brochure.pdf and the German public/korvel-brochure-de.pdf
 * from the site's content (services, divisions, references, company facts). `npm run build` and
 * `npm run dev` do the same on their own; run this to look at the PDFs after changing content.
 * `-- --lang de --out <file>` writes one language elsewhere.
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isLang } from '../src/i18n/lang.ts';
import { writeBrochure, writeBrochures } from './lib/brochure/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, lang: { type: 'string' } } });
if (values.lang !== undefined && !isLang(values.lang))
  throw new Error(`--lang: en or de, not ${values.lang}`);
const results = values.lang
  ? [await writeBrochure(root, values.out ? resolve(values.out) : undefined, { lang: values.lang })]
  : await writeBrochures(root);
for (const result of results) {
  console.log(
    `${relative(process.cwd(), result.file) || result.file}: ${result.pages} pages, ${Math.round(result.bytes / 1024)} KB`,
  );
  if (result.fallbacks.length > 0)
    console.log(`  in English until translated: ${result.fallbacks.join(', ')}`);
}
