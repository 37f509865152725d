import { describe, expect, test } from 'vitest';
import { meetingIcs } from '../../src/lib/ics.ts';
import {
  belgradeInstant,
  isOfferedSlot,
  meetingDays,
  orthodoxEaster,
  serbianHolidays,
} from '../../src/lib/meeting-slots.ts';

describe('meeting slots', () => {
  const friday = new Date('2026-11-06T10:00:00Z');

  test('offer the next ten working days after today, skipping weekends and Armistice Day', () => {
    expect(meetingDays(friday).map((d) => d.date)).toEqual([
      '2026-11-09',
      '2026-11-10',
      '2026-11-12',
      '2026-11-13',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-23',
    ]);
  });

  test('run from 09:00 to 16:30 Belgrade time in winter and in summer', () => {
    const [winter] = meetingDays(friday);
    expect(winter!.slots).toHaveLength(15);
    expect(winter!.slots[0]).toBe('2026-11-09T08:00:00.000Z');
    expect(winter!.slots.at(-1)).toBe('2026-11-09T15:00:00.000Z');
    const [summer] = meetingDays(new Date('2026-07-01T12:00:00Z'));
    expect(summer!.slots[0]).toBe('2026-07-02T07:00:00.000Z');
    expect(summer!.slots.at(-1)).toBe('2026-07-02T14:00:00.000Z');
  });

  test('follow the clocks across the spring change', () => {
    expect(belgradeInstant({ year: 2026, month: 3, day: 27 }, 9 * 60).toISOString()).toBe(
      '2026-03-27T08:00:00.000Z',
    );
    expect(belgradeInstant({ year: 2026, month: 3, day: 30 }, 9 * 60).toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
  });

  test('know Orthodox Easter and the Serbian public holidays, with Sunday holidays moved to Monday', () => {
    expect(orthodoxEaster(2025)).toEqual({ year: 2025, month: 4, day: 20 });
    expect(orthodoxEaster(2026)).toEqual({ year: 2026, month: 4, day: 12 });
    expect(orthodoxEaster(2027)).toEqual({ year: 2027, month: 5, day: 2 });
    const days = serbianHolidays(2026);
    for (const day of ['2026-01-07', '2026-04-10', '2026-04-13', '2026-05-01', '2026-11-11'])
      expect(days.has(day)).toBe(true);
    // 15 February 2026 is a Sunday, so Tuesday the 17th is off too.
    expect(days.has('2026-02-17')).toBe(true);
    expect(days.has('2026-03-02')).toBe(false);
  });

  test('move a Sunday state holiday past Easter Monday to Tuesday', () => {
    // Labour Day's 2 May is Orthodox Easter Sunday in 2021, 2027 and 2032; 3 May is Easter Monday.
    for (const year of [2021, 2027, 2032]) expect(serbianHolidays(year).has(`${year}-05-04`)).toBe(true);
    const lateApril = new Date('2027-04-28T10:00:00Z');
    expect(meetingDays(lateApril).map((d) => d.date)).not.toContain('2027-05-04');
    expect(isOfferedSlot('2027-05-04T07:00:00.000Z', lateApril)).toBe(false);
  });

  test('accept only offered starts', () => {
    const [first] = meetingDays(friday);
    expect(isOfferedSlot(first!.slots[4]!, friday)).toBe(true);
    expect(isOfferedSlot('2026-11-09T08:15:00.000Z', friday)).toBe(false);
    expect(isOfferedSlot('2026-11-06T12:00:00.000Z', friday)).toBe(false);
    expect(isOfferedSlot('2026-11-11T08:00:00.000Z', friday)).toBe(false);
    expect(isOfferedSlot('not a date', friday)).toBe(false);
  });
});

describe('meeting .ics', () => {
  const ics = meetingIcs({
    start: new Date('2026-11-24T08:00:00Z'),
    uid: 'meeting-1@korvel.example',
    status: 'tentative',
    method: 'PUBLISH',
    summary: 'Korvel Engineering: 30-minute meeting; tentative, until confirmed',
    description: `Line one\nLine two, with a comma and a long tail ${'x'.repeat(120)}`,
    organizer: { name: 'Korvel Engineering', email: 'info@korvel.example' },
    stamp: new Date('2026-11-20T10:00:00Z'),
  });
  const unfolded = ics.replace(/\r\n /g, '');

  test('has a 30-minute event in UTC with CRLF line ends', () => {
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.split('\r\n').every((l) => !l.includes('\n'))).toBe(true);
    expect(unfolded).toContain('DTSTART:20261124T080000Z\r\n');
    expect(unfolded).toContain('DTEND:20261124T083000Z\r\n');
    expect(unfolded).toContain('DTSTAMP:20261120T100000Z\r\n');
  });

  test('escapes text and folds lines at 75 octets', () => {
    expect(unfolded).toContain(
      'SUMMARY:Korvel Engineering: 30-minute meeting\\; tentative\\, until confirmed',
    );
    expect(unfolded).toContain('DESCRIPTION:Line one\\nLine two\\, with a comma');
    for (const line of ics.split('\r\n'))
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });
});
