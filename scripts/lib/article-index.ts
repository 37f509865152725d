/**
 * The build-time index of the articles and news that a newsletter issue can show as cards: collection, slug,
 * title, summary and date of every published entry, with the title and summary of its published German twin
 * (src/content/de) for German issues, read from the MDX front matter and written to
 * src/generated/article-index.json. The functions import that file (esbuild bundles it), so a campaign names
 * an article by `blog/<slug>` and the mail always carries the title and summary the site shows. Written
 * after `npm install` and before every dev start and build; drafts are left out.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontMatterOf, type FrontMatter } from './front-matter.ts';
import type { IndexedArticle } from '../../src/lib/article-index.ts';

const COLLECTIONS = ['blog', 'news'] as const;

/** The front matter of an MDX file, which every article has. */
function frontMatter(file: string, name: string): FrontMatter {
  const data = frontMatterOf(file);
  if (!data) throw new Error(`${name}: no front matter`);
  return data;
}

export function readArticleIndex(root: string): IndexedArticle[] {
  const entries: IndexedArticle[] = [];
  for (const collection of COLLECTIONS) {
    const dir = join(root, 'src/content', collection);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.mdx'))) {
      const data = frontMatter(join(dir, file), `${collection}/${file}`);
      if (data.draft === true) continue;
      const slug = file.replace(/\.mdx$/, '');
      const date = data.date instanceof Date ? data.date : new Date(String(data.date));
      const twin = join(root, 'src/content/de', collection, file);
      const german = existsSync(twin) ? frontMatter(twin, `de/${collection}/${file}`) : {};
      entries.push({
        id: `${collection}/${slug}`,
        collection,
        title: String(data.title),
        summary: String(data.summary),
        date: date.toISOString().slice(0, 10),
        path: `/${collection}/${slug}`,
        ...(german.title && german.draft !== true
          ? { de: { title: String(german.title), summary: String(german.summary) } }
          : {}),
      });
    }
  }
  return entries.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
}

export const ARTICLE_INDEX_FILE = 'src/generated/article-index.json';

/** Writes the index; returns how many entries it holds. */
export function writeArticleIndex(root: string): number {
  const entries = readArticleIndex(root);
  mkdirSync(join(root, 'src/generated'), { recursive: true });
  writeFileSync(join(root, ARTICLE_INDEX_FILE), `${JSON.stringify(entries, null, 2)}\n`);
  return entries.length;
}
