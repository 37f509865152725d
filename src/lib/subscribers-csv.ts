/** The subscriber export: RFC 4180 CSV that spreadsheets open without running anything in it. */

export interface CsvSubscriber {
  id: number;
  email: string;
  created_temp: string | null;
}

export const CSV_HEADER = ['id', 'email', 'subscribed_at'] as const;

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a leading `=`, `+`, `-`, `@`, tab or
 * carriage return is prefixed with `'` so a spreadsheet shows it as text instead of running it as a formula.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Every subscriber as a CSV document with a header row and CRLF line ends; a missing date is an empty field.
 * @example subscribersCsv([{ id: 1, email: 'a@b.example', created_temp: null }]) // 'id,email,subscribed_at\r\n1,a@b.example,\r\n'
 */
export function subscribersCsv(rows: readonly CsvSubscriber[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const row of rows) lines.push([String(row.id), csvField(row.email), row.created_temp ?? ''].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `korvel-subscribers-2026-11-21.csv` for the given day (local calendar). */
export function csvFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `korvel-subscribers-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
