/**
 * The 1200×630 social card of every indexable page in each language (docs/decisions.md, "Social cards"):
 * `/og/blog/gmp.png` for /blog/gmp, `/og/de/blog/gmp.png` for /de/blog/gmp.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { languages } from '../../i18n/lang.ts';
import { ogSlug } from '../../lib/og.ts';
import { recordCard, renderCard, type CardInput } from '../../server/og/card.ts';
import { socialCards } from '../_cards.ts';

export const getStaticPaths = (async () =>
  (await Promise.all(languages.map((lang) => socialCards(lang)))).flat().map((card) => ({
    params: { slug: ogSlug(card.path) },
    props: { card },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { png, cached } = await renderCard(props.card as CardInput);
  await recordCard(cached);
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
