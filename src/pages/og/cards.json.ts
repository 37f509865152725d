/**
 * What a build copies into dist/og: each social card's address and the PNG in the cache that holds it, drawn
 * first when the cache has none (src/server/og/card.ts). The korvel integration copies the files and removes
 * this list when the build is done (astro.config.mjs), so it is never deployed; in dev the cards come from
 * ./[...slug].png.ts and this address does not exist.
 */
import type { APIRoute } from 'astro';
import { ogImagePath } from '../../lib/og.ts';
import { cachedCard } from '../../server/og/card.ts';
import { everySocialCard } from '../_cards.ts';

/** One card of the list: served at `path` (e.g. `/og/blog/gmp.png`), held in the cache at `file`. */
export interface BuiltCard {
  path: string;
  file: string;
  cached: boolean;
}

export const GET: APIRoute = async () => {
  if (import.meta.env.DEV) return new Response(null, { status: 404 });
  const cards: BuiltCard[] = [];
  // One after another: a card not yet in the cache is drawn on this thread either way.
  for (const card of await everySocialCard())
    cards.push({ path: ogImagePath(card.path), ...(await cachedCard(card)) });
  return Response.json(cards);
};
