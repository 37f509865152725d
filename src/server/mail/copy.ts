/**
 * The mail copy (src/i18n/locales/<lang>/mail.json) and the small formatters mail shares: placeholders,
 * header-safe text and meeting times in Belgrade. Mail to subscribers and visitors is written in their stored
 * language ({@link mailCopy}); the firm's own notifications and the admin's mail use {@link copy}, English.
 */
import copy from '../../i18n/locales/en/mail.json' with { type: 'json' };
import german from '../../i18n/locales/de/mail.json' with { type: 'json' };
import { intlLocale, type Lang } from '../../i18n/lang.ts';
import { MEETING_TIME_ZONE, meetingEnd } from '../../lib/meeting-slots.ts';
import { readsDifferently, zonedSlot, zoneLabel, type ZonedSlot } from '../../lib/time-zone.ts';

export { copy };

/** Every language's mail copy has the English file's shape: a missing or renamed key fails the type check. */
export type MailCopy = typeof copy;
const byLang: Record<Lang, MailCopy> = { en: copy, de: german satisfies MailCopy };

/** The mail copy of a language. */
export const mailCopy = (lang: Lang): MailCopy => byLang[lang];

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

/**
 * A meeting slot as the firm's calendar reads it: "Tuesday 1 December 2026", "10:00", "10:30", "CET"; in German
 * "Dienstag, 1. Dezember 2026", "MEZ".
 */
export const belgradeSlot = (start: Date, lang: Lang = 'en'): ZonedSlot =>
  zonedSlot(start, meetingEnd(start), MEETING_TIME_ZONE, intlLocale[lang]);

/** "Tuesday 1 December 2026, 10:00–10:30 Belgrade time (CET)" */
export const belgradeSlotText = (start: Date, lang: Lang = 'en') =>
  fill(mailCopy(lang).slot.value, belgradeSlot(start, lang));

/**
 * The slot in the visitor's own zone, e.g. "Tuesday 1 December 2026, 09:00–09:30 your time (Europe/London,
 * GMT)", or undefined when they booked from a zone whose clocks read like Belgrade's (or did not say).
 * `whose` picks the wording: the visitor's mail says "your time", the firm's "the visitor's time".
 */
export function visitorSlotText(
  start: Date,
  timeZone: string | null,
  whose: 'visitor' | 'firm',
  lang: Lang = 'en',
): string | undefined {
  if (!timeZone || !readsDifferently(start, MEETING_TIME_ZONE, timeZone)) return undefined;
  const { slot } = mailCopy(lang);
  return fill(whose === 'visitor' ? slot.visitor : slot.visitor_firm, {
    ...zonedSlot(start, meetingEnd(start), timeZone, intlLocale[lang]),
    name: zoneLabel(timeZone),
  });
}

/** "14 May 2024, 09:40 (CEST)": when something reached us, in Belgrade time. */
export function belgradeDateTime(at: Date, lang: Lang = 'en'): string {
  const slot = belgradeSlot(at, lang);
  return `${slot.date.replace(/^\S+ /, '')}, ${slot.start} (${slot.zone})`;
}
