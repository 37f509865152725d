/** The admin's date helpers write dates the way the site does, whatever language the browser is set to. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { calendarDate, localDateTime } from '../../src/components/islands/admin/format.ts';

describe('admin dates', () => {
  const zone = process.env.TZ;
  // Node re-reads TZ when it is assigned; the formatter is created on first use, after this.
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  test('a date-time is day, month, year and a 24-hour clock, in the reader’s time zone', () => {
    expect(localDateTime('2026-03-12T18:40:00Z')).toBe('12 Mar 2026, 14:40');
  });

  test('a publication day is written in full, as on the site', () => {
    expect(calendarDate('2024-05-14')).toBe('14 May 2024');
  });
});
