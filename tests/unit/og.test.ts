import { describe, expect, test } from 'vitest';
import { ogImagePath, ogSlug } from '../../src/lib/og.ts';

describe('social card addresses', () => {
  test('an English page keeps its card where it was', () => {
    expect(ogImagePath('/')).toBe('/og/home.png');
    expect(ogImagePath('/oil&gas')).toBe('/og/oil-and-gas.png');
    expect(ogImagePath('/blog/gmp')).toBe('/og/blog/gmp.png');
  });

  test('a German page has its own card under /og/de, never the English one', () => {
    expect(ogImagePath('/de')).toBe('/og/de/home.png');
    expect(ogImagePath('/de/oil&gas')).toBe('/og/de/oil-and-gas.png');
    expect(ogSlug('/de/blog/gmp')).toBe('de/blog/gmp');
    expect(ogSlug('/de/our-references/pharma-qc-laboratory')).toBe('de/our-references/pharma-qc-laboratory');
  });
});
