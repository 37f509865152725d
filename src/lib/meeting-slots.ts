/**
 * The 30-minute meeting slots a visitor may request: the next ten working days in Belgrade after today,
 * 09:00–16:30 Belgrade time (the last slot starts at 16:00). Weekends and Serbian public holidays are not
 * working days. Shared by the booking island (what to show) and the contact function (what to accept).
 */

import { FIRM_TIME_ZONE } from './firm-time.ts';

export const MEETING_TIME_ZONE = FIRM_TIME_ZONE;
export const MEETING_MINUTES = 30;
export const BOOKING_WORKING_DAYS = 10;
/** First slot start and the end of the last slot, in minutes after local midnight. */
export const DAY_START = 9 * 60;
export const DAY_END = 16 * 60 + 30;

const MINUTE = 60_000;

export interface MeetingDay {
  /** The calendar date in Belgrade, `YYYY-MM-DD`. */
  date: string;
  /** Slot starts as ISO instants (UTC), in order. */
  slots: string[];
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: MEETING_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Belgrade's offset from UTC at `instant`, in milliseconds (3 600 000 in winter, 7 200 000 in summer). */
function offsetAt(instant: number): number {
  const p = Object.fromEntries(parts.formatToParts(instant).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which Belgrade's clocks show `minutes` after midnight on `date`. */
export function belgradeInstant(date: LocalDate, minutes: number): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * MINUTE;
  // Two passes settle the offset across a daylight-saving change; slots never fall in the 02:00–03:00 gap.
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return new Date(instant);
}

function belgradeDate(instant: Date): LocalDate {
  const p = Object.fromEntries(parts.formatToParts(instant).map((x) => [x.type, x.value]));
  return { year: +p.year!, month: +p.month!, day: +p.day! };
}

const key = (d: LocalDate) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

const addDays = (d: LocalDate, days: number): LocalDate => {
  const next = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
};

const weekday = (d: LocalDate) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();

/** Orthodox Easter Sunday (Julian computus, shifted to the Gregorian calendar; valid 1900–2099). */
export function orthodoxEaster(year: number): LocalDate {
  const a = year % 4;
  const b = year % 7;
  const c = year % 19;
  const d = (19 * c + 15) % 30;
  const e = (2 * a + 4 * b - d + 34) % 7;
  const month = Math.floor((d + e + 114) / 31);
  const day = ((d + e + 114) % 31) + 1;
  return addDays({ year, month, day }, 13);
}

/**
 * Serbia's non-working public holidays in `year` (Law on State and Other Holidays): New Year 1–2 Jan,
 * Orthodox Christmas 7 Jan, Statehood Day 15–16 Feb, Labour Day 1–2 May, Armistice Day 11 Nov, and Orthodox
 * Good Friday to Easter Monday. A state holiday falling on a Sunday moves its day off to Monday.
 */
export function serbianHolidays(year: number): Set<string> {
  // Christmas and the Easter days are never moved, but a moved state holiday skips past them (2 May 2027).
  const days = new Set<string>([key({ year, month: 1, day: 7 })]);
  const easter = orthodoxEaster(year);
  for (const shift of [-2, -1, 0, 1]) days.add(key(addDays(easter, shift)));
  const state: LocalDate[] = [
    { year, month: 1, day: 1 },
    { year, month: 1, day: 2 },
    { year, month: 2, day: 15 },
    { year, month: 2, day: 16 },
    { year, month: 5, day: 1 },
    { year, month: 5, day: 2 },
    { year, month: 11, day: 11 },
  ];
  for (const date of state) {
    days.add(key(date));
    if (weekday(date) === 0) {
      // Sunday: Monday is off; for a two-day holiday whose second day is Monday, Tuesday is.
      let monday = addDays(date, 1);
      while (days.has(key(monday)) || state.some((s) => key(s) === key(monday))) monday = addDays(monday, 1);
      days.add(key(monday));
    }
  }
  return days;
}

function isWorkingDay(date: LocalDate): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && !serbianHolidays(date.year).has(key(date));
}

/** The bookable days after `now`'s Belgrade date, each with every 30-minute slot from 09:00 to 16:00. */
export function meetingDays(now: Date = new Date()): MeetingDay[] {
  const days: MeetingDay[] = [];
  let date = belgradeDate(now);
  while (days.length < BOOKING_WORKING_DAYS) {
    date = addDays(date, 1);
    if (!isWorkingDay(date)) continue;
    const slots: string[] = [];
    for (let minutes = DAY_START; minutes + MEETING_MINUTES <= DAY_END; minutes += MEETING_MINUTES) {
      slots.push(belgradeInstant(date, minutes).toISOString());
    }
    days.push({ date: key(date), slots });
  }
  return days;
}

/** Whether `start` (an ISO instant) is one of the slots offered at `now`. */
export function isOfferedSlot(start: string, now: Date = new Date()): boolean {
  const instant = Date.parse(start);
  if (Number.isNaN(instant)) return false;
  const normalized = new Date(instant).toISOString();
  return meetingDays(now).some((day) => day.slots.includes(normalized));
}

/** The end of a meeting that starts at `start`. */
export const meetingEnd = (start: Date) => new Date(start.getTime() + MEETING_MINUTES * MINUTE);
