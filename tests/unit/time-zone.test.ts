import { describe, expect, test } from 'vitest';
import { isTimeZone, readsDifferently, zonedSlot, zoneLabel } from '../../src/lib/time-zone.ts';

describe('isTimeZone', () => {
  test.each(['Europe/Belgrade', 'America/Argentina/Salta', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata'])(
    'accepts the IANA name %s',
    (name) => expect(isTimeZone(name)).toBe(true),
  );
  test.each([
    'Mars/Olympus_Mons',
    '+01:00',
    'Europe/../etc',
    '',
    'Europe/',
    'A'.repeat(65),
    'Europe/Bel grade',
  ])('refuses %j', (name) => expect(isTimeZone(name)).toBe(false));
});

describe('zonedSlot', () => {
  test('writes a winter slot on Belgrade and New York clocks', () => {
    const start = new Date('2026-12-01T09:00:00Z');
    const end = new Date('2026-12-01T09:30:00Z');
    expect(zonedSlot(start, end, 'Europe/Belgrade')).toEqual({
      date: 'Tuesday 1 December 2026',
      start: '10:00',
      end: '10:30',
      zone: 'CET',
    });
    expect(zonedSlot(start, end, 'America/New_York')).toMatchObject({ start: '04:00', end: '04:30' });
  });

  test('writes the slot in German for de-DE: weekday, day with a point, month, and MEZ/MESZ', () => {
    const winter = new Date('2026-12-01T09:00:00Z');
    expect(zonedSlot(winter, new Date('2026-12-01T09:30:00Z'), 'Europe/Belgrade', 'de-DE')).toEqual({
      date: 'Dienstag, 1. Dezember 2026',
      start: '10:00',
      end: '10:30',
      zone: 'MEZ',
    });
    const summer = new Date('2027-03-29T07:00:00Z');
    expect(zonedSlot(summer, new Date('2027-03-29T07:30:00Z'), 'Europe/Belgrade', 'de-DE')).toMatchObject({
      date: 'Montag, 29. März 2027',
      start: '09:00',
      zone: 'MESZ',
    });
  });

  test('takes the date of the zone, not of UTC', () => {
    const start = new Date('2026-12-01T08:00:00Z');
    expect(zonedSlot(start, new Date('2026-12-01T08:30:00Z'), 'Pacific/Auckland').date).toBe(
      'Tuesday 1 December 2026',
    );
    expect(zonedSlot(start, new Date('2026-12-01T08:30:00Z'), 'Pacific/Honolulu').date).toBe(
      'Monday 30 November 2026',
    );
  });
});

describe('readsDifferently', () => {
  const at = new Date('2026-12-01T09:00:00Z');
  test('is false for zones whose clocks agree at that instant', () => {
    expect(readsDifferently(at, 'Europe/Belgrade', 'Europe/Budapest')).toBe(false);
  });
  test('is true across an offset, and across a daylight-saving difference', () => {
    expect(readsDifferently(at, 'Europe/Belgrade', 'Europe/London')).toBe(true);
    // 30 March 2026: Belgrade has moved to CEST, Cairo (no DST) stays at UTC+2 — the same clocks.
    expect(readsDifferently(new Date('2026-03-30T09:00:00Z'), 'Europe/Belgrade', 'Africa/Cairo')).toBe(false);
    expect(readsDifferently(at, 'Europe/Belgrade', 'Africa/Cairo')).toBe(true);
  });
});

test('zoneLabel reads underscores as spaces', () => {
  expect(zoneLabel('America/New_York')).toBe('America/New York');
});
