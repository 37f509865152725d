/**
 * The article index that newsletter issues draw their cards from (written by scripts/lib/article-index.ts).
 * Browser-safe: the admin's article picker reads the same shape from GET /api/campaign-articles.
 */

/** One published blog or news entry. */
export interface IndexedArticle {
  /** `blog/<slug>` or `news/<slug>`: how a campaign names it. */
  id: string;
  collection: 'blog' | 'news';
  title: string;
  summary: string;
  /** Publication day, `YYYY-MM-DD`. */
  date: string;
  /** Path on the site, e.g. `/blog/closed-systems`. */
  path: string;
  /** The published German twin's title and summary (src/content/de), when there is one; its page is /de + path. */
  de?: { title: string; summary: string };
}

/** At most this many cards under one issue's text. */
export const MAX_CAMPAIGN_ARTICLES = 6;
