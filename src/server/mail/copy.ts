/**
 * The mail copy (src/i18n/locales/en/mail.json) and the small formatters mail shares: placeholders,
 * header-safe text and meeting times in Belgrade.
 */
import copy from '../../i18n/locales/en/mail.json' with { type: 'json' };
import { MEETING_MINUTES, MEETING_TIME_ZONE } from '../../lib/meeting-slots.ts';

export { copy };

/** Fills `{{name}}` placeholders, as i18next does for the pages. */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));

/**
 * Text that may go into a header: control characters (CR/LF first of all) become spaces, runs of space
 * collapse, and anything past `max` characters is cut with an ellipsis.
 */
export function headerText(value: string, max = 120): string {
  const flat = value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

const part = (date: Date, options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: MEETING_TIME_ZONE, ...options })
    .formatToParts(date)
    .find((p) => p.type === type)?.value ?? '';

const clock = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: MEETING_TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);

/** A meeting slot as the firm's calendar reads it: "Tuesday 1 December 2026", "10:00", "10:30", "CET". */
export function belgradeSlot(start: Date): { date: string; start: string; end: string; zone: string } {
  const weekday = part(start, { weekday: 'long' }, 'weekday');
  const day = part(start, { day: 'numeric' }, 'day');
  const month = part(start, { month: 'long' }, 'month');
  const year = part(start, { year: 'numeric' }, 'year');
  return {
    date: `${weekday} ${day} ${month} ${year}`,
    start: clock(start),
    end: clock(new Date(start.getTime() + MEETING_MINUTES * 60_000)),
    zone: part(start, { timeZoneName: 'short' }, 'timeZoneName'),
  };
}

/** "14 May 2024, 09:40 (CEST)": when something reached us, in Belgrade time. */
export function belgradeDateTime(at: Date): string {
  const slot = belgradeSlot(at);
  return `${slot.date.replace(/^\S+ /, '')}, ${slot.start} (${slot.zone})`;
}
