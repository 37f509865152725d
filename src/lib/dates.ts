/** How the site writes a calendar date, in each language. */
import { defaultLang, intlLocale, type Lang } from '../i18n/lang.ts';

const longDates = new Map<Lang, Intl.DateTimeFormat>();

/**
 * A date as the house style writes it: day, month name, year, in the page's language. Dates from content are
 * UTC midnights.
 * @example formatDate(new Date('2024-05-14')) // '14 May 2024'; with 'de': '14. Mai 2024'
 */
export function formatDate(date: Date, lang: Lang = defaultLang): string {
  let format = longDates.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale[lang], {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    longDates.set(lang, format);
  }
  return format.format(date);
}

/** The `datetime` value of a `<time>` element for the same date. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
