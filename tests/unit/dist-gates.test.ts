/**
 * The gates `npm test` runs over dist/ (scripts/check-dist.ts; social cards have their own file), each on a small built site in a temp
 * directory: the good one passes every gate, and each planted error fails its gate with a message naming it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ConfigData } from 'html-validate';
import htmlValidateConfig from '../../.htmlvalidate.mjs';
import { checkFeeds } from '../../scripts/lib/dist-checks/feeds.ts';
import { checkFonts } from '../../scripts/lib/dist-checks/fonts.ts';
import { checkHtml } from '../../scripts/lib/dist-checks/html.ts';
import { checkImageSizes } from '../../scripts/lib/dist-checks/images.ts';
import { expectedStructuredData } from '../../scripts/lib/dist-checks/index.ts';
import { checkLinks, functionPathsIn } from '../../scripts/lib/dist-checks/links.ts';
import { readSite } from '../../scripts/lib/dist-checks/site.ts';
import { inWebFonts } from '../../scripts/lib/web-fonts.ts';
import { checkStructuredData } from '../../scripts/lib/dist-checks/structured-data.ts';

const origin = 'https://www.example.test';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const ld = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const organization = ld({
  '@context': 'https://schema.org',
  '@type': 'Organization',
  name: 'Example',
  url: origin,
});
const page = (title: string, body: string, head = organization) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>` +
  `<body><main id="main">${body}</main></body></html>`;

const article = {
  '@context': 'https://schema.org',
  '@type': 'Article',
  headline: 'Closed systems',
  datePublished: '2026-01-12T00:00:00.000Z',
  author: { '@type': 'Person', name: 'Ana Example' },
  publisher: { '@type': 'Organization', name: 'Example' },
  image: [`${origin}/cover.png`],
};
const breadcrumbs = {
  '@context': 'https://schema.org',
  '@type': 'BreadcrumbList',
  itemListElement: [
    { '@type': 'ListItem', position: 1, name: 'Blog', item: `${origin}/blog` },
    { '@type': 'ListItem', position: 2, name: 'Closed systems' },
  ],
};
const faq = {
  '@context': 'https://schema.org',
  '@type': 'FAQPage',
  mainEntity: [
    { '@type': 'Question', name: 'Is it paid?', acceptedAnswer: { '@type': 'Answer', text: 'Yes.' } },
  ],
};
const rss = (links: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog</title><link>${origin}</link>` +
  `<description>Articles</description>${links
    .map(
      (link) =>
        `<item><title>An article</title><link>${link}</link><pubDate>Mon, 12 Jan 2026 00:00:00 GMT</pubDate></item>`,
    )
    .join('')}</channel></rss>`;
const sitemap = (paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
    .map((path) => `<url><loc>${origin}${path}</loc></url>`)
    .join('')}</urlset>`;

/** A good built site: every gate passes on it. Overrides replace or add files. */
const goodFiles = (): Record<string, string> => ({
  'index.html': page(
    'Home',
    // role="list" and Astro's island <style> in <body> are allowed by .htmlvalidate.mjs.
    `<style>astro-island{display:contents}</style><h1>Home</h1>
     <ul role="list"><li><a href="/blog/closed-systems#annex-1">Annex 1</a></li><li><a href="blog">Blog</a></li>
     <li><a href="/oil%26gas">Oil and gas</a></li><li><a href="/career">Career</a></li>
     <li><a href="https://elsewhere.example/x">Elsewhere</a></li><li><a href="mailto:info@example.test">Mail</a></li></ul>
     <form action="/api/newsletter" method="post"><button type="submit">Sign up</button></form>
     <img src="/cover.png" srcset="/cover.png 1x, /cover.png 2x" alt="Cover" width="10" height="10">`,
  ),
  'blog/index.html': page('Blog', '<h1>Blog</h1><a href="#main">Top of the list</a>'),
  'blog/closed-systems/index.html': page(
    'Closed systems',
    '<h1>Closed systems</h1><h2 id="annex-1">Annex 1</h2>',
    organization + ld(article) + ld(breadcrumbs),
  ),
  'oil&gas/index.html': page('Oil and gas', '<h1>Oil and gas</h1>'),
  'career/index.html': page('Career', '<h1>Career</h1>', organization + ld(faq)),
  'admin/index.html': page('Admin', '<h1>Admin</h1>', '<meta name="robots" content="noindex, nofollow">'),
  'cover.png': 'png',
  'blog/rss.xml': rss([`${origin}/blog/closed-systems`]),
  'sitemap-index.xml': `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-0.xml</loc></sitemap></sitemapindex>`,
  'sitemap-0.xml': sitemap(['/', '/blog', '/blog/closed-systems', '/oil&amp;gas', '/career']),
});

function builtSite(overrides: Record<string, string | null> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'korvel-dist-'));
  roots.push(root);
  for (const [file, content] of Object.entries({ ...goodFiles(), ...overrides })) {
    if (content === null) continue;
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  return readSite(root);
}

const links = (overrides?: Record<string, string | null>) =>
  checkLinks(builtSite(overrides), { origin, functionPaths: ['/api/newsletter', '/api/newsletter/:id'] });
const html = (overrides?: Record<string, string | null>) =>
  checkHtml(builtSite(overrides), htmlValidateConfig as ConfigData);
const structuredData = (overrides?: Record<string, string | null>) =>
  checkStructuredData(builtSite(overrides), {
    origin,
    expected: (path) => (path === '/blog/closed-systems' ? ['Organization', 'Article'] : []),
  });
const feeds = (overrides?: Record<string, string | null>) =>
  checkFeeds(builtSite(overrides), {
    origin,
    isIndexable: (path) => path !== '/admin' && path !== '/404',
    feeds: [{ path: '/blog/rss.xml', section: '/blog' }],
  });
const fonts = (overrides?: Record<string, string | null>) => checkFonts(builtSite(overrides), inWebFonts);
const messages = (problems: Array<{ page: string; message: string }>) =>
  problems.map((p) => `${p.page} ${p.message}`);

describe('links gate', () => {
  test('passes when every internal link, fragment and function path resolves', () => {
    expect(links()).toEqual([]);
  });

  test('fails on a link to a page that is not built', () => {
    const problems = links({
      'blog/index.html': page('Blog', '<h1>Blog</h1><a href="/blog/closed-sytems">x</a>'),
    });
    expect(messages(problems)).toEqual([
      '/blog <a href="/blog/closed-sytems">: nothing is built at /blog/closed-sytems',
    ]);
  });

  test('fails on a fragment that no element of the target page carries', () => {
    const problems = links({ 'blog/index.html': page('Blog', '<h1>Blog</h1><a href="/career#faq">FAQ</a>') });
    expect(messages(problems)).toEqual([
      '/blog <a href="/career#faq">: /career has no element with id "faq"',
    ]);
  });

  test('reads the function paths from netlify/functions', () => {
    expect(functionPathsIn('netlify/functions')).toEqual(
      expect.arrayContaining(['/api/newsletter', '/api/newsletter/:id', '/admin/login']),
    );
  });
});

describe('html gate', () => {
  test('passes valid pages, with role="list" and an island style in <body>', async () => {
    expect(await html()).toEqual([]);
  });

  test('fails on a page with invalid markup', async () => {
    const problems = await html({
      'career/index.html': page('Career', '<h1>Career</h1><ul><div>x</div></ul>'),
    });
    expect(problems.map((p) => p.page)).toEqual(['/career']);
    expect(problems[0]!.message).toContain('element-permitted-content');
  });
});

describe('structured-data gate', () => {
  test('passes Organization, Article, BreadcrumbList and FAQPage with their required properties', () => {
    expect(structuredData()).toEqual([]);
  });

  test('fails on JSON-LD that does not parse', () => {
    const problems = structuredData({
      'career/index.html': page(
        'Career',
        '<h1>Career</h1>',
        '<script type="application/ld+json">{"@type": }</script>',
      ),
    });
    expect(messages(problems)).toEqual([expect.stringMatching(/^\/career JSON-LD block 1 does not parse/)]);
  });

  test('fails on an Article without its headline', () => {
    const { headline: _, ...headless } = article;
    const problems = structuredData({
      'blog/closed-systems/index.html': page(
        'Closed systems',
        '<h1>Closed systems</h1>',
        organization + ld(headless),
      ),
    });
    expect(messages(problems)).toEqual([
      '/blog/closed-systems JSON-LD block 2 (Article): headline is missing',
    ]);
  });

  test('fails on breadcrumbs out of order and a question without an answer', () => {
    const [first, second] = breadcrumbs.itemListElement;
    const { acceptedAnswer: _, ...unanswered } = faq.mainEntity[0]!;
    const problems = structuredData({
      'blog/index.html': page(
        'Blog',
        '<h1>Blog</h1>',
        ld({ ...breadcrumbs, itemListElement: [second, first] }) + ld({ ...faq, mainEntity: [unanswered] }),
      ),
    });
    expect(messages(problems)).toEqual([
      '/blog JSON-LD block 1 (BreadcrumbList): itemListElement[0].position is not 1',
      '/blog JSON-LD block 1 (BreadcrumbList): itemListElement[0].item is missing',
      '/blog JSON-LD block 1 (BreadcrumbList): itemListElement[1].position is not 2',
      '/blog JSON-LD block 2 (FAQPage): mainEntity[0].acceptedAnswer is missing an Answer with text',
    ]);
  });

  test('fails when a page lacks the type it must carry', () => {
    const problems = structuredData({
      'blog/closed-systems/index.html': page('Closed systems', '<h1>Closed systems</h1>'),
    });
    expect(messages(problems)).toEqual(['/blog/closed-systems carries no Article JSON-LD']);
  });

  test('checks a case study’s ItemPage in a @graph: name, description and a URL that is built', () => {
    const itemPage = (name: string, url: string) =>
      ld({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'ItemPage', name, description: 'A plant and what came of it.', url },
          { '@type': 'BreadcrumbList', itemListElement: breadcrumbs.itemListElement },
        ],
      });
    const good = page('Career', '<h1>Career</h1>', itemPage('A plant', `${origin}/career`));
    expect(structuredData({ 'career/index.html': good })).toEqual([]);
    const problems = structuredData({
      'career/index.html': page('Career', '<h1>Career</h1>', itemPage('', `${origin}/no-such-plant`)),
    });
    expect(messages(problems)).toEqual([
      '/career JSON-LD block 1 (ItemPage): name is missing',
      '/career JSON-LD block 1 (ItemPage): url points to /no-such-plant, which is not built',
    ]);
  });

  test('expects the publisher on indexable pages and each article kind on its pages', () => {
    expect(expectedStructuredData('/our-references/pharma-qc-laboratory')).toEqual([
      'Organization',
      'ItemPage',
      'BreadcrumbList',
    ]);
    expect(expectedStructuredData('/blog/closed-systems')).toEqual(['Organization', 'Article']);
    expect(expectedStructuredData('/news/achema')).toEqual(['Organization', 'NewsArticle']);
    expect(expectedStructuredData('/career')).toEqual(['Organization', 'FAQPage']);
    expect(expectedStructuredData('/admin')).toEqual([]);
  });
});

describe('feeds gate', () => {
  test('passes when feed items and sitemap URLs match the built pages', () => {
    expect(feeds()).toEqual([]);
  });

  test('fails on a feed item whose page is not built, and on an article missing from its feed', () => {
    const problems = feeds({ 'blog/rss.xml': rss([`${origin}/blog/open-systems`]) });
    expect(messages(problems)).toEqual([
      `/blog/rss.xml ${origin}/blog/open-systems: no page is built at /blog/open-systems`,
      '/blog/rss.xml /blog/closed-systems is built but not an item of the feed',
    ]);
  });

  test('fails on an indexable page missing from the sitemap and a noindex page in it', () => {
    const problems = feeds({
      'sitemap-0.xml': sitemap(['/', '/blog', '/blog/closed-systems', '/admin', '/career']),
    });
    expect(messages(problems)).toEqual([
      '/sitemap-0.xml /admin is listed but not indexable',
      '/sitemap-0.xml /admin is listed but marked noindex',
      '/sitemap-index.xml /oil&gas is indexable but in no sitemap',
    ]);
  });
});

describe('fonts gate', () => {
  test('passes Latin, Serbian names, units with a narrow space, Ω, μ and an emoji', () => {
    expect(
      fonts({
        'career/index.html': page(
          'Career',
          '<h1>Career</h1><p>Dušan Ilić, Đorđe Žarković: 18.2\u202fMΩ·cm, 5\u202fμm, ≤ 30\u202f% → ok 👍</p>' +
            '<script>const cyrillic = "Ђ";</script><style>p::after { content: "Ж"; }</style>',
        ),
      }),
    ).toEqual([]);
  });

  test('fails on a character outside the cut, naming it and the fix', () => {
    const problems = fonts({
      'career/index.html': page('Career', '<h1>Career</h1><p>Београд ≈ Belgrade</p>'),
    });
    // One problem per distinct character: Б, е, о, г, р, а, д (≈ is in the cut).
    expect(problems.map((p) => p.page)).toEqual(Array(7).fill('/career'));
    expect(problems[0]!.message).toMatch(
      /^U\+0411 "Б" \(in "Београд ≈ Belgrade"\) is not in the site's fonts: add its range to WEB_FONT_RANGES/,
    );
  });
});

describe('images gate', () => {
  // The copy of a 300-byte drawing and what the build derived from it: the same SVG, a smaller AVIF and WebP.
  const derived = {
    '_astro/drawing.Cpd-38BO.svg': 'x'.repeat(300),
    '_astro/drawing.Cpd-38BO_Z27W2V1.svg': 'x'.repeat(300),
    '_astro/drawing.Cpd-38BO_ZXMUYb.avif': 'a'.repeat(120),
    '_astro/drawing.Cpd-38BO__Z2d5lFa.webp': 'w'.repeat(250),
  };

  test('passes when no derived image is larger than its source', () => {
    expect(checkImageSizes(builtSite(derived))).toEqual([]);
  });

  test('fails on a derived image larger than its source, naming both sizes', () => {
    const site = builtSite({ ...derived, '_astro/drawing.Cpd-38BO_m9row.webp': 'w'.repeat(610) });
    expect(messages(checkImageSizes(site))).toEqual([
      '/_astro/drawing.Cpd-38BO_m9row.webp 610 bytes, larger than its source /_astro/drawing.Cpd-38BO.svg (300 bytes)',
    ]);
  });

  test('fails on a derived image whose source is not in dist to compare with', () => {
    const site = builtSite({ '_astro/photo.AbCdEf12_1ycERH.webp': 'p' });
    expect(messages(checkImageSizes(site))).toEqual([
      '/_astro/photo.AbCdEf12_1ycERH.webp a derived image without the copy of its source to compare with',
    ]);
  });
});
