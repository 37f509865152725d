/** How the site writes a calendar date. */

const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * A date as the house style writes it: day, month name, year. Dates from content are UTC midnights.
 * @example formatDate(new Date('2024-05-14')) // '14 May 2024'
 */
export function formatDate(date: Date): string {
  return longDate.format(date);
}

/** The `datetime` value of a `<time>` element for the same date. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
