/**
 * `npm run new:article -- "Title of the article"`: a valid MDX skeleton in src/content/blog/, dated today
 * and marked `draft: true`, with three starter illustrations copied into src/assets/articles/<slug>/.
 *
 * German (docs/editing.md, "German"):
 * - `npm run new:article -- --lang de --from <id>` starts the translation of src/content/blog/<id>.mdx: a copy
 *   in src/content/de/blog/<id>.mdx with the same facts, its paths one folder deeper and `draft: true`, to be
 *   rewritten in German;
 * - `npm run new:article -- --lang de "Titel des Artikels"` starts a German article and its English twin,
 *   both drafts: a German page is published together with its English original.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { slugify } from '../src/lib/slug.ts';
import { deeper, germanStart } from '../src/lib/translation-start.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  options: { lang: { type: 'string', default: 'en' }, from: { type: 'string' } },
  allowPositionals: true,
});
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};
if (values.lang !== 'en' && values.lang !== 'de') fail('--lang is en or de.');

const today = new Date().toISOString().slice(0, 10);
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
if (values.from) {
  if (values.lang !== 'de') fail('--from starts a translation: npm run new:article -- --lang de --from gmp');
  const id = values.from;
  const english = `src/content/blog/${id}.mdx`;
  const german = `src/content/de/blog/${id}.mdx`;
  if (!existsSync(`${root}${english}`)) fail(`There is no ${english} to translate.`);
  if (existsSync(`${root}${german}`)) fail(`${german} exists already; edit it.`);
  const source = readFileSync(`${root}${english}`, 'utf8');
  mkdirSync(`${root}src/content/de/blog`, { recursive: true });
  writeFileSync(`${root}${german}`, germanStart(source, english));
  console.log(`Created ${german} (draft), a copy of ${english} to rewrite in German.
Preview it with npm run dev at http://127.0.0.1:4321/de/blog/${id}; set draft: false to publish it.`);
  process.exit(0);
}

const title = positionals.join(' ').trim();
if (title.length < 10 || title.length > 90) {
  fail(
    values.lang === 'de'
      ? 'Give the German title (10–90 characters): npm run new:article -- --lang de "Geschlossene Systeme in Abfülllinien"'
      : 'Give the title (10–90 characters): npm run new:article -- "Closed systems in fill-finish lines"',
  );
}

const slug = slugify(title);
const file = `src/content/blog/${slug}.mdx`;
if (existsSync(`${root}${file}`)) fail(`${file} exists already; pick another title.`);

const starter = `${root}src/assets/articles/_starter/`;
const images = `${root}src/assets/articles/${slug}/`;
mkdirSync(images, { recursive: true });
const alts = JSON.parse(readFileSync(`${starter}alt.json`, 'utf8')) as { file: string; alt: string }[];
for (const { file: image } of alts) copyFileSync(`${starter}${image}`, `${images}${image}`);

const english = `---
title: ${quote(values.lang === 'de' ? `English title of: ${title}`.slice(0, 90) : title)}
summary: 'One or two sentences, 80 to 240 characters, that tell a client why this article is worth their time.'
date: ${today}
author: your-first-last # the id of your entry in src/content/team/
discipline: 'Your discipline'
divisions: [] # the divisions it is about, e.g. [pharma, food]; [] for pieces about the firm
tags: [engineering]
images:
${alts.map(({ file: image, alt }) => `  - src: '../../assets/articles/${slug}/${image}'\n    alt: ${quote(alt)}`).join('\n')}
draft: true
---

{/* The layout prints the title, summary, date and images. Start with one or two paragraphs of introduction. */}

## First section

{/* Subtitle every section with ##. Tables, lists and links are plain Markdown; see docs/editing.md. */}
`;
writeFileSync(`${root}${file}`, english);

if (values.lang === 'de') {
  const german = `src/content/de/blog/${slug}.mdx`;
  mkdirSync(`${root}src/content/de/blog`, { recursive: true });
  writeFileSync(
    `${root}${german}`,
    deeper(
      english
        .replace(/^title: .*$/m, `title: ${quote(title)}`)
        .replace(
          /^summary: .*$/m,
          "summary: 'Ein oder zwei Sätze, 80 bis 240 Zeichen, die einer Kundin oder einem Kunden sagen, warum sich der Artikel lohnt.'",
        )
        .replace("discipline: 'Your discipline'", "discipline: 'Ihr Fachgebiet'")
        .replace(
          /\{\/\* The layout[^]*$/,
          `{/* Das Layout zeigt Titel, Zusammenfassung, Datum und Bilder. Beginnen Sie mit ein, zwei Absätzen Einleitung; ersetzen Sie die Alternativtexte der Bilder durch deutsche. */}

## Erster Abschnitt

{/* Jeder Abschnitt bekommt eine ##-Überschrift; Tabellen, Listen und Links sind Markdown (docs/editing.md). */}
`,
        ),
    ),
  );
  console.log(`Created ${german} and its English twin ${file} (both drafts) and src/assets/articles/${slug}/.
Preview it with npm run dev at http://127.0.0.1:4321/de/blog/${slug}; publish both together (draft: false).`);
} else {
  console.log(`Created ${file} (draft) and src/assets/articles/${slug}/.
Preview it with npm run dev at http://127.0.0.1:4321/blog/${slug}; set draft: false to publish.`);
}
