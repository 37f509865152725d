/**
 * The 1200×630 social card of every indexable page in each language (docs/decisions.md, "Social cards"):
 * `/og/blog/gmp.png` for /blog/gmp, `/og/de/blog/gmp.png` for /de/blog/gmp.
 *
 * This route serves them in dev, drawn when first asked for. A build lists no paths here: it copies the cards
 * from the cache into dist/og by the list of ./cards.json.ts, as routing 2,000 PNGs through Astro's renderer
 * took 6 ms each (README, "Build at scale").
 */
import { readFile } from 'node:fs/promises';
import type { APIRoute, GetStaticPaths } from 'astro';
import { ogSlug } from '../../lib/og.ts';
import { cachedCard, type CardInput } from '../../server/og/card.ts';
import { everySocialCard } from '../_cards.ts';

export const getStaticPaths = (async () =>
  import.meta.env.DEV
    ? (await everySocialCard()).map((card) => ({ params: { slug: ogSlug(card.path) }, props: { card } }))
    : []) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { file } = await cachedCard(props.card as CardInput);
  return new Response(new Uint8Array(await readFile(file)), { headers: { 'content-type': 'image/png' } });
};
