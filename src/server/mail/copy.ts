/**
 * The mail copy (src/i18n/locales/en/mail.json) and the small formatters mail shares: placeholders,
 * header-safe text and meeting times in Belgrade.
 */
import copy from '../../i18n/locales/en/mail.json' with { type: 'json' };
import { MEETING_TIME_ZONE, meetingEnd } from '../../lib/meeting-slots.ts';
import { readsDifferently, zonedSlot, zoneLabel, type ZonedSlot } from '../../lib/time-zone.ts';

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

/** A meeting slot as the firm's calendar reads it: "Tuesday 1 December 2026", "10:00", "10:30", "CET". */
export const belgradeSlot = (start: Date): ZonedSlot =>
  zonedSlot(start, meetingEnd(start), MEETING_TIME_ZONE);

/** "Tuesday 1 December 2026, 10:00–10:30 Belgrade time (CET)" */
export const belgradeSlotText = (start: Date) => fill(copy.slot.value, belgradeSlot(start));

/**
 * The slot in the visitor's own zone, e.g. "Tuesday 1 December 2026, 09:00–09:30 your time (Europe/London,
 * GMT)", or undefined when they booked from a zone whose clocks read like Belgrade's (or did not say).
 * `whose` picks the wording: the visitor's mail says "your time", the firm's "the visitor's time".
 */
export function visitorSlotText(
  start: Date,
  timeZone: string | null,
  whose: 'visitor' | 'firm',
): string | undefined {
  if (!timeZone || !readsDifferently(start, MEETING_TIME_ZONE, timeZone)) return undefined;
  return fill(whose === 'visitor' ? copy.slot.visitor : copy.slot.visitor_firm, {
    ...zonedSlot(start, meetingEnd(start), timeZone),
    name: zoneLabel(timeZone),
  });
}

/** "14 May 2024, 09:40 (CEST)": when something reached us, in Belgrade time. */
export function belgradeDateTime(at: Date): string {
  const slot = belgradeSlot(at);
  return `${slot.date.replace(/^\S+ /, '')}, ${slot.start} (${slot.zone})`;
}
