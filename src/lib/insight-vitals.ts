/**
 * Core Web Vitals kept as fixed histograms: each sample adds one to the bucket of its metric that holds it, so
 * the 75th percentile per page and day (Google's assessment point) is read from counters, never from raw
 * samples. Every band threshold is a bucket bound, so the band of a p75 read here is exact.
 */

export const VITALS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type Vital = (typeof VITALS)[number];

/** Google's thresholds: at or below `good` is good, above `poor` is poor, between needs improvement. */
export const VITAL_BANDS: Record<Vital, { good: number; poor: number; unit: 'ms' | '' }> = {
  LCP: { good: 2500, poor: 4000, unit: 'ms' },
  INP: { good: 200, poor: 500, unit: 'ms' },
  CLS: { good: 0.1, poor: 0.25, unit: '' },
  FCP: { good: 1800, poor: 3000, unit: 'ms' },
  TTFB: { good: 800, poor: 1800, unit: 'ms' },
};

/** The largest value accepted per metric; a beacon beyond it is refused (a CLS of 1,000 is no measurement). */
export const VITAL_MAX: Record<Vital, number> = {
  LCP: 120_000,
  INP: 60_000,
  CLS: 10,
  FCP: 120_000,
  TTFB: 120_000,
};

const MS_PAINT = [
  100, 200, 300, 400, 500, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2250, 2500, 2750, 3000, 3500, 4000,
  5000, 6000, 8000, 10000, 15000, 20000, 30000, 60000, 120000,
];

/**
 * Upper bounds of each metric's buckets (bucket i holds values in (bound[i-1], bound[i]]; bucket 0 from 0).
 * At most 64 per metric (the table's check).
 */
export const VITAL_BUCKETS: Record<Vital, readonly number[]> = {
  LCP: MS_PAINT,
  FCP: MS_PAINT,
  TTFB: [
    50, 100, 150, 200, 300, 400, 500, 600, 700, 800, 1000, 1200, 1400, 1600, 1800, 2200, 2600, 3000, 4000,
    6000, 10000, 20000, 60000, 120000,
  ],
  INP: [
    16, 24, 32, 40, 50, 64, 80, 100, 125, 150, 175, 200, 250, 300, 350, 400, 450, 500, 600, 800, 1000, 1500,
    2000, 5000, 10000, 60000,
  ],
  CLS: [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 2, 5, 10,
  ],
};

/**
 * The bucket a sample falls into.
 * @example vitalBucket('LCP', 2500) // 14, the bucket whose upper bound is 2500
 */
export function vitalBucket(metric: Vital, value: number): number {
  const bounds = VITAL_BUCKETS[metric];
  const index = bounds.findIndex((bound) => value <= bound);
  return index === -1 ? bounds.length - 1 : index;
}

/**
 * The 75th percentile of a histogram (`counts[i]` samples in bucket i), interpolated linearly inside the
 * bucket that holds it; `undefined` without samples. Never beyond the bucket's upper bound, so its band is
 * the band of the bucket.
 * @example percentile75('LCP', new Map([[14, 4]])) // 2438, three quarters into (2250, 2500]
 */
export function percentile75(metric: Vital, counts: ReadonlyMap<number, number>): number | undefined {
  const bounds = VITAL_BUCKETS[metric];
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return undefined;
  const target = total * 0.75;
  let below = 0;
  for (let i = 0; i < bounds.length; i++) {
    const inBucket = counts.get(i) ?? 0;
    if (inBucket > 0 && below + inBucket >= target) {
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      const value = lower + ((target - below) / inBucket) * (bounds[i]! - lower);
      return metric === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value);
    }
    below += inBucket;
  }
  return bounds[bounds.length - 1];
}

export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** @example vitalRating('INP', 240) // 'needs-improvement' */
export function vitalRating(metric: Vital, value: number): VitalRating {
  const band = VITAL_BANDS[metric];
  if (value <= band.good) return 'good';
  return value <= band.poor ? 'needs-improvement' : 'poor';
}
