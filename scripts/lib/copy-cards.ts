/**
 * The last step of a build for the social cards: src/pages/og/cards.json.ts wrote the list of cards with the
 * cached PNG of each; this copies every PNG to its address under dist/ and removes the list, which is not
 * part of the site. Run by the korvel integration when `astro build` is done (astro.config.mjs).
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BuiltCard } from '../../src/pages/og/cards.json.ts';

/** Copies the cards listed in `<dist>/og/cards.json` into place; answers how many were drawn in this build. */
export async function copyCards(dist: string): Promise<{ drawn: number; cached: number }> {
  const list = join(dist, 'og', 'cards.json');
  const cards = JSON.parse(await readFile(list, 'utf8')) as BuiltCard[];
  const targets = cards.map((card) => ({ ...card, to: join(dist, card.path) }));
  for (const folder of new Set(targets.map(({ to }) => dirname(to))))
    await mkdir(folder, { recursive: true });
  // A few copies in flight at a time: the kernel copies, the thread only waits.
  const queue = [...targets];
  const copyNext = async (): Promise<void> => {
    for (let card = queue.pop(); card; card = queue.pop()) await copyFile(card.file, card.to);
  };
  await Promise.all(Array.from({ length: 8 }, copyNext));
  await rm(list);
  const drawn = cards.filter((card) => !card.cached).length;
  return { drawn, cached: cards.length - drawn };
}
