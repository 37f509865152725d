import { describe, expect, test } from 'vitest';
import { capacityFor } from '../../scripts/lib/test-capacity.ts';

const quietTwoCores = { cores: 2, busyCores: 0.1, freeGiB: 20, headlessShell: true };

describe('capacityFor', () => {
  test('a quiet two-core machine runs three stages, four browsers and two API files at a time', () => {
    expect(capacityFor(quietTwoCores)).toEqual({ stages: 3, e2eWorkers: 4, apiWorkers: 2 });
  });

  test('a core kept busy by another program halves the browsers and API files', () => {
    expect(capacityFor({ ...quietTwoCores, busyCores: 1 })).toEqual({
      stages: 2,
      e2eWorkers: 2,
      apiWorkers: 1,
    });
  });

  test('a machine with every core busy still runs one of each, plus one stage waiting on it', () => {
    expect(capacityFor({ ...quietTwoCores, busyCores: 2 })).toEqual({
      stages: 2,
      e2eWorkers: 2,
      apiWorkers: 1,
    });
  });

  test('the full Chromium gets one worker per free core', () => {
    expect(capacityFor({ ...quietTwoCores, headlessShell: false }).e2eWorkers).toBe(2);
  });

  test('little free memory bounds stages and browsers', () => {
    expect(capacityFor({ ...quietTwoCores, freeGiB: 2 })).toEqual({
      stages: 1,
      e2eWorkers: 2,
      apiWorkers: 2,
    });
  });

  test('many cores stop at eight browsers', () => {
    expect(capacityFor({ ...quietTwoCores, cores: 16 }).e2eWorkers).toBe(8);
  });
});
