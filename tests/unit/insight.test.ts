import { describe, expect, test } from 'vitest';
import { deviceClass, normaliseSearchQuery, normaliseTag } from '../../src/lib/insight.ts';
import {
  percentile75,
  VITAL_BANDS,
  VITAL_BUCKETS,
  VITAL_MAX,
  VITALS,
  vitalBucket,
  vitalRating,
} from '../../src/lib/insight-vitals.ts';
import { isBot, referrerHost, sitePage } from '../../src/server/insight/beacon.ts';

describe('normaliseSearchQuery', () => {
  test('trims, lower-cases and collapses whitespace', () => {
    expect(normaliseSearchQuery('  Annex   1 ')).toBe('annex 1');
  });
  test.each([
    ['an e-mail address', 'ana@plant.example'],
    ['a phone number', '+381 11 404 5120'],
    ['an order number', 'order 20261126'],
    ['a street address', '12 Baker Street'],
    ['a Belgrade address', 'Bulevar kralja Aleksandra 73'],
    ['nothing but spaces', '   '],
  ])('drops %s', (_, query) => {
    expect(normaliseSearchQuery(query)).toBeUndefined();
  });
  test('keeps standard numbers', () => {
    expect(normaliseSearchQuery('ISO 14644-1')).toBe('iso 14644-1');
    expect(normaliseSearchQuery('J-STD-033D')).toBe('j-std-033d');
  });
  test('cuts a long query at a word boundary within 80 characters', () => {
    const cut = normaliseSearchQuery('cleanroom '.repeat(20))!;
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut.endsWith('cleanroom')).toBe(true);
  });
});

test('normaliseTag keeps plain campaign words and drops identifiers', () => {
  expect(normaliseTag(' LinkedIn ')).toBe('linkedin');
  expect(normaliseTag('ana@plant.example')).toBeUndefined();
  expect(normaliseTag('id-1234567')).toBeUndefined();
  expect(normaliseTag(undefined)).toBeUndefined();
});

test('deviceClass splits at the 768 px breakpoint and at 1,200 px', () => {
  expect([375, 768, 769, 1199, 1200, 1440].map(deviceClass)).toEqual([
    'phone',
    'phone',
    'tablet',
    'tablet',
    'desktop',
    'desktop',
  ]);
});

describe('vitals histograms', () => {
  test('every band threshold is a bucket bound, so the band of a p75 is exact', () => {
    for (const metric of VITALS) {
      expect(VITAL_BUCKETS[metric]).toContain(VITAL_BANDS[metric].good);
      expect(VITAL_BUCKETS[metric]).toContain(VITAL_BANDS[metric].poor);
      expect(VITAL_BUCKETS[metric].at(-1)).toBe(VITAL_MAX[metric]);
      expect(VITAL_BUCKETS[metric].length).toBeLessThanOrEqual(64);
    }
  });
  test('a value on a bound falls in the bucket it closes', () => {
    expect(VITAL_BUCKETS.LCP[vitalBucket('LCP', 2500)]).toBe(2500);
    expect(VITAL_BUCKETS.LCP[vitalBucket('LCP', 2501)]).toBe(2750);
    expect(vitalBucket('CLS', 0)).toBe(0);
  });
  test('p75 of a histogram stays within a bucket width of the exact p75', () => {
    const samples = Array.from({ length: 200 }, (_, i) => 300 + i * 23);
    const counts = new Map<number, number>();
    for (const value of samples)
      counts.set(vitalBucket('LCP', value), (counts.get(vitalBucket('LCP', value)) ?? 0) + 1);
    const exact = [...samples].sort((a, b) => a - b)[149]!;
    const bucket = vitalBucket('LCP', exact);
    const p75 = percentile75('LCP', counts)!;
    expect(p75).toBeGreaterThan(VITAL_BUCKETS.LCP[bucket - 1]!);
    expect(p75).toBeLessThanOrEqual(VITAL_BUCKETS.LCP[bucket]!);
    expect(vitalRating('LCP', p75)).toBe(vitalRating('LCP', exact));
  });
  test('rates with Google’s thresholds', () => {
    expect(vitalRating('INP', 200)).toBe('good');
    expect(vitalRating('INP', 240)).toBe('needs-improvement');
    expect(vitalRating('CLS', 0.26)).toBe('poor');
  });
});

describe('the beacon’s page and referrer', () => {
  test('names only pages of the site, filter views by their list', () => {
    expect(sitePage('/blog/gmp/')).toBe('/blog/gmp');
    expect(sitePage('/oil%26gas')).toBe('/oil&gas');
    expect(sitePage('/blog/division/pharma')).toBe('/blog');
    expect(sitePage('/our-references/filter/pharma')).toBe('/our-references');
    expect(sitePage('/admin')).toBeUndefined();
    expect(sitePage('/nowhere')).toBeUndefined();
    // German pages count under their own paths (the soak found every /de beacon refused with 400).
    expect(sitePage('/de')).toBe('/de');
    expect(sitePage('/de/blog/gmp/')).toBe('/de/blog/gmp');
    expect(sitePage('/de/blog/topic/gmp')).toBe('/de/blog');
    expect(sitePage('/de/our-references/filter/pharma')).toBe('/de/our-references');
    expect(sitePage('/de/admin')).toBeUndefined();
    expect(sitePage('/de/nowhere')).toBeUndefined();
    expect(sitePage('/fr/blog/gmp')).toBeUndefined();
  });
  test('keeps a host name without www and refuses anything else', () => {
    expect(referrerHost('WWW.Google.com')).toBe('google.com');
    expect(referrerHost('https://google.com/search?q=x')).toBeUndefined();
  });
  test('knows bots and headless browsers by their user-agent', () => {
    expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0.0.0')).toBe(true);
    expect(isBot(null)).toBe(true);
    expect(
      isBot(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe(false);
  });
});
