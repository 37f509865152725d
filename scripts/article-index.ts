/** `npm run article-index` (also after `npm install`): writes src/generated/article-index.json. */
import { fileURLToPath } from 'node:url';
import { ARTICLE_INDEX_FILE, writeArticleIndex } from './lib/article-index.ts';

const count = writeArticleIndex(fileURLToPath(new URL('..', import.meta.url)));
console.log(`${ARTICLE_INDEX_FILE}: ${count} articles`);
