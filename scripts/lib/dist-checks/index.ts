/** The gates over dist/, set up for this site: its origin, routes, functions and feeds. */
import { fileURLToPath } from 'node:url';
import type { ConfigData } from 'html-validate';
import htmlValidateConfig from '../../../.htmlvalidate.mjs';
import { isIndexable, routes } from '../../../src/routes.ts';
import { site as siteConfig } from '../../../src/site.config.ts';
import { inWebFonts } from '../web-fonts.ts';
import { checkFeeds } from './feeds.ts';
import { checkFonts } from './fonts.ts';
import { checkHtml } from './html.ts';
import { checkImageSizes } from './images.ts';
import { checkLinks, functionPathsIn } from './links.ts';
import { normalisePath, type BuiltSite, type Problem } from './site.ts';
import { checkSocialCards } from './social-cards.ts';
import { checkStructuredData } from './structured-data.ts';

const functionsDir = fileURLToPath(new URL('../../../netlify/functions', import.meta.url));

/** The JSON-LD types a page must carry: the publisher on every indexable page, plus what its kind adds. */
export function expectedStructuredData(path: string): string[] {
  const normalised = normalisePath(path);
  const route = routes.find((r) => r.path === normalised);
  if (!route || !isIndexable(normalised)) return [];
  const types = ['Organization'];
  if (route.kind === 'article') types.push('Article');
  if (route.kind === 'news') types.push('NewsArticle');
  if (normalised === '/career') types.push('FAQPage');
  if (route.kind === 'reference') types.push('ItemPage', 'BreadcrumbList');
  return types;
}

export const gates = {
  links: (site: BuiltSite) =>
    checkLinks(site, { origin: siteConfig.url, functionPaths: functionPathsIn(functionsDir) }),
  html: (site: BuiltSite) => checkHtml(site, htmlValidateConfig as ConfigData),
  'structured-data': (site: BuiltSite) =>
    checkStructuredData(site, { origin: siteConfig.url, expected: expectedStructuredData }),
  feeds: (site: BuiltSite) =>
    checkFeeds(site, {
      origin: siteConfig.url,
      isIndexable,
      feeds: [
        { path: '/blog/rss.xml', section: '/blog' },
        { path: '/news/rss.xml', section: '/news' },
        { path: '/de/blog/rss.xml', section: '/de/blog' },
        { path: '/de/news/rss.xml', section: '/de/news' },
      ],
    }),
  'social-cards': (site: BuiltSite) => checkSocialCards(site, { origin: siteConfig.url, isIndexable }),
  fonts: (site: BuiltSite) => checkFonts(site, inWebFonts),
  images: (site: BuiltSite) => checkImageSizes(site),
} satisfies Record<string, (site: BuiltSite) => Problem[] | Promise<Problem[]>>;

export type Gate = keyof typeof gates;
