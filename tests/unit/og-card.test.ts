/**
 * Social cards drawn in layers (src/server/og/card.ts): the words over a base shared by every card of the same
 * drawing give the very pixels of laying out and rasterising the card whole, so no card changes its look for
 * being drawn faster, including one whose German title runs into the drawing's frame.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, test } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, drawCard, type CardInput } from '../../src/server/og/card.ts';

const asset = (path: string) => join(process.cwd(), 'src/assets', path);

const cards: Record<string, CardInput> = {
  'a division with its drawing': {
    path: '/pharma',
    title: 'Pharmaceutical and life sciences plants',
    section: 'Pharma & life sciences',
    drawing: asset('sectors/pharma.svg'),
  },
  'a German case study on the same drawing': {
    path: '/de/our-references/pharma-qc-laboratory',
    title: 'Qualitätskontrolllabor für Chemie und Mikrobiologie',
    section: 'Referenzen · Pharma & Life Sciences',
    drawing: asset('sectors/pharma.svg'),
  },
  'a page with the P&ID motif': { path: '/cookie-policy', title: 'Cookie policy', section: 'Legal' },
  'a German title whose last word runs under the frame': {
    path: '/de/initiatives/assure',
    title: 'Assure: Qualifizierung und Inspektionsbereitschaft',
    section: 'Qualifizierung & Validierung',
    drawing: asset('initiatives/assure.svg'),
  },
};

describe('social cards drawn in layers', () => {
  test.each(Object.entries(cards))('%s looks as it does drawn whole', async (_name, card) => {
    const drawing = card.drawing ? readFileSync(card.drawing, 'utf8') : undefined;
    const layered = PNG.sync.read(await drawCard(card, drawing));
    const whole = PNG.sync.read(await drawCard(card, drawing, true));
    expect([layered.width, layered.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect(layered.data.equals(whole.data)).toBe(true);
  });

  test('cards of one drawing differ in their words', async () => {
    const [a, b] = ['a division with its drawing', 'a German case study on the same drawing'].map((name) => {
      const card = cards[name]!;
      return drawCard(card, readFileSync(card.drawing!, 'utf8'));
    });
    expect((await a)!.equals((await b)!)).toBe(false);
  });
});
