/**
 * Social cards per language: a German page has its own 1200×630 card under /og/de/, drawn from its German
 * title (src/pages/_cards.ts), never the English page's card.
 */
import { readdirSync } from 'node:fs';
import { pngSize } from '../../scripts/lib/dist-checks/social-cards.ts';
import { ogImagePath } from '../../src/lib/og.ts';
import { expect, test } from './fixtures.ts';

const articles = readdirSync('src/content/de/blog')
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => file.slice(0, -'.mdx'.length));

test('each German article and the German fixed pages have their own card', async ({ request }) => {
  expect(articles.length, 'German articles').toBeGreaterThan(0);
  for (const path of [...articles.map((id) => `/blog/${id}`), '/', '/our-services', '/career']) {
    const english = await request.get(ogImagePath(path));
    const german = await request.get(ogImagePath(path === '/' ? '/de' : `/de${path}`));
    expect(german.status(), `/de${path}`).toBe(200);
    expect(german.headers()['content-type']).toBe('image/png');
    const bytes = await german.body();
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    expect(bytes.equals(await english.body()), `/de${path} draws its own card`).toBe(false);
  }
});
