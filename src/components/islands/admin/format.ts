/** Small formatting helpers for the admin islands (they receive copy as plain templates, not i18next). */

import { fill } from '../../../lib/fill.ts';
import { FIRM_TIME_ZONE } from '../../../lib/firm-time.ts';

export { fill };

const plurals = new Intl.PluralRules('en');

/** Picks the `_one` or `_other` template for `count` and fills it. */
export const plural = (
  templates: { one: string; other: string },
  count: number,
  values: Record<string, string | number> = {},
) => fill(plurals.select(count) === 'one' ? templates.one : templates.other, { count, ...values });

let dateTime: Intl.DateTimeFormat | undefined;

/**
 * A date-time as the site writes dates (day, month, year; 24-hour clock), in the reader's own time zone:
 * "12 Mar 2026, 09:40" whatever language the browser is set to. Created on first use, in the browser.
 */
export function localDateTime(iso: string): string {
  dateTime ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return dateTime.format(new Date(iso));
}

const calendar = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A publication day as the site writes it: calendarDate('2024-05-14') → '14 May 2024'. */
export const calendarDate = (day: string) => calendar.format(new Date(`${day}T00:00:00Z`));

const belgrade = new Intl.DateTimeFormat('en-GB', {
  timeZone: FIRM_TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const belgradeTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: FIRM_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant in Belgrade time, where the firm works: "Tue, 1 Dec 2026, 10:00". */
export const belgradeMoment = (iso: string) => belgrade.format(new Date(iso));

const MOMENT = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
} as const;
let ownClock: { plain: Intl.DateTimeFormat; zoned: Intl.DateTimeFormat } | undefined;

/**
 * The same instant on the reader's own clock, with its zone ("Tue, 1 Dec 2026, 09:00 GMT"), or null when the
 * reader's clock shows what Belgrade's does.
 */
export function ownMomentIfOther(iso: string): string | null {
  ownClock ??= {
    plain: new Intl.DateTimeFormat('en-GB', MOMENT),
    zoned: new Intl.DateTimeFormat('en-GB', { ...MOMENT, timeZoneName: 'short' }),
  };
  const date = new Date(iso);
  return ownClock.plain.format(date) === belgrade.format(date) ? null : ownClock.zoned.format(date);
}

/** A 30-minute meeting slot in Belgrade time, where the meetings take place: "Tue, 1 Dec 2026, 10:00" and "10:30". */
export function belgradeSlot(iso: string, minutes = 30): { start: string; end: string } {
  const start = new Date(iso);
  return {
    start: belgrade.format(start),
    end: belgradeTime.format(new Date(start.getTime() + minutes * 60_000)),
  };
}

let clock: Intl.DateTimeFormat | undefined;

/** A time of day on the admin's 24-hour clock, in the reader's time zone: localTime(ms) → '14:05'. */
export function localTime(epochMs: number): string {
  clock ??= new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });
  return clock.format(new Date(epochMs));
}

/**
 * A share as a percentage in the page's language, to two decimals at most: percent(0.0045) → '0.45%' on an
 * English page, '0,45 %' on a German one; '–' for a rate with nothing to count yet (null).
 */
export function percent(share: number | null): string {
  if (share === null) return '–';
  const lang = typeof document === 'undefined' ? 'en-GB' : document.documentElement.lang || 'en-GB';
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(share);
}
