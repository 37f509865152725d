/**
 * Time zones of the visitors who book meetings: checking the name the browser reports and writing a meeting
 * slot in any zone. Browser-safe; the booking island, the contact function and the mail share it.
 */

/**
 * Whether `name` is an IANA time-zone name this runtime knows ("Europe/London", "America/Argentina/Salta",
 * "UTC"). Offsets such as "+01:00", which newer runtimes also accept, are refused: a browser never reports one.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export type ZonedSlot = {
  /** "Friday 27 November 2026" */
  date: string;
  /** "09:00" */
  start: string;
  /** "09:30" */
  end: string;
  /** The zone's short name where it has one ("CET", "GMT"), otherwise its offset ("GMT+9"). */
  zone: string;
};

const formatter = (timeZone: string, options: Intl.DateTimeFormatOptions, locale = 'en-GB') =>
  new Intl.DateTimeFormat(locale, { timeZone, ...options });

const clock = (at: Date, timeZone: string, locale?: string) =>
  formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, locale).format(at);

/**
 * The slot from `start` to `end` as clocks in `timeZone` show it, written for `locale` (a BCP 47 tag:
 * `en-GB` "Tuesday 1 December 2026", `de-DE` "Dienstag, 1. Dezember 2026" and "MEZ").
 */
export function zonedSlot(start: Date, end: Date, timeZone: string, locale = 'en-GB'): ZonedSlot {
  const part = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
    formatter(timeZone, options, locale)
      .formatToParts(start)
      .find((p) => p.type === type)?.value ?? '';
  // British English reads without the comma some ICU versions put after the weekday; other languages take
  // their own full date as Intl writes it.
  const date =
    locale === 'en-GB'
      ? `${part({ weekday: 'long' }, 'weekday')} ${part({ day: 'numeric' }, 'day')} ${part({ month: 'long' }, 'month')} ${part({ year: 'numeric' }, 'year')}`
      : formatter(
          timeZone,
          { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
          locale,
        ).format(start);
  return {
    date,
    start: clock(start, timeZone, locale),
    end: clock(end, timeZone, locale),
    zone: part({ timeZoneName: 'short' }, 'timeZoneName'),
  };
}

/** "America/New_York" → "America/New York": the zone's name as people read it. */
export const zoneLabel = (timeZone: string) => timeZone.replaceAll('_', ' ');

/**
 * Whether clocks in `other` show `at` differently from clocks in `home` (date or time). Two zones with the
 * same offset at that instant read the same, so nothing needs to be said twice.
 */
export function readsDifferently(at: Date, home: string, other: string): boolean {
  const text = (zone: string) =>
    formatter(zone, { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' }).format(at);
  return text(home) !== text(other);
}
