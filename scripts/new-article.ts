/**
 * `npm run new:article -- "Title of the article"`: a valid MDX skeleton in src/content/blog/, dated today
 * and marked `draft: true`, with three starter illustrations copied into src/assets/articles/<slug>/.
 * See docs/editing.md for the rest.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const title = process.argv.slice(2).join(' ').trim();
if (title.length < 10 || title.length > 90) {
  console.error(
    'Give the title (10–90 characters): npm run new:article -- "Closed systems in fill-finish lines"',
  );
  process.exit(1);
}

const slug = title
  .normalize('NFKD')
  .replace(/[\u0300-\u036f]/g, '')
  .toLowerCase()
  .replace(/đ/g, 'dj')
  .replace(/[^a-z0-9]+/g, '-')
  .replace(/^-|-$/g, '');
const file = `${root}src/content/blog/${slug}.mdx`;
if (existsSync(file)) {
  console.error(`src/content/blog/${slug}.mdx exists already; pick another title.`);
  process.exit(1);
}

const starter = `${root}src/assets/articles/_starter/`;
const images = `${root}src/assets/articles/${slug}/`;
mkdirSync(images, { recursive: true });
const alts = JSON.parse(readFileSync(`${starter}alt.json`, 'utf8')) as { file: string; alt: string }[];
for (const { file: image } of alts) copyFileSync(`${starter}${image}`, `${images}${image}`);

const today = new Date().toISOString().slice(0, 10);
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
writeFileSync(
  file,
  `---
title: ${quote(title)}
summary: 'One or two sentences, 80 to 240 characters, that tell a client why this article is worth their time.'
date: ${today}
author: your-first-last # the id of your entry in src/content/team/
discipline: 'Your discipline'
tags: [engineering]
images:
${alts.map(({ file: image, alt }) => `  - src: '../../assets/articles/${slug}/${image}'\n    alt: ${quote(alt)}`).join('\n')}
draft: true
---

{/* The layout prints the title, summary, date and images. Start with one or two paragraphs of introduction. */}

## First section

{/* Subtitle every section with ##. Tables, lists and links are plain Markdown; see docs/editing.md. */}
`,
);
console.log(`Created src/content/blog/${slug}.mdx (draft) and src/assets/articles/${slug}/.
Preview it with npm run dev at http://127.0.0.1:4321/blog/${slug}; set draft: false to publish.`);
