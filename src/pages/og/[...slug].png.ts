/** The 1200×630 social card of every indexable page (docs/decisions.md, "Social cards"). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { ogSlug } from '../../lib/og.ts';
import { recordCard, renderCard, type CardInput } from '../../server/og/card.ts';
import { socialCards } from '../_cards.ts';

export const getStaticPaths = (async () =>
  (await socialCards()).map((card) => ({
    params: { slug: ogSlug(card.path) },
    props: { card },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { png, cached } = await renderCard(props.card as CardInput);
  await recordCard(cached);
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
