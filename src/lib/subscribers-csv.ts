/**
 * The subscriber export: RFC 4180 CSV, written by csv-stringify, that spreadsheets open without running
 * anything in it. The admin island imports this module only when an export starts (it adds ~10 KB gzip).
 */
import { stringify, type Options } from 'csv-stringify/browser/esm/sync';

export interface CsvSubscriber {
  id: number;
  email: string;
  created_temp: string | null;
  /** `pending`, `confirmed`, `bounced` or `complained`. */
  status: string;
}

export const CSV_HEADER = ['id', 'email', 'subscribed_at', 'status'] as const;

const OPTIONS: Options = {
  record_delimiter: 'windows',
  // Quote a field holding CR or LF on its own too, not only one holding CRLF (off once record_delimiter is set).
  quote_record_delimiter: true,
  // A leading =, +, -, @, tab or CR (and their full-width forms) gets a `'`, so a spreadsheet shows text.
  escape_formulas: true,
};

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a leading `=`, `+`, `-`, `@`, tab or
 * carriage return is prefixed with `'` so a spreadsheet shows it as text instead of running it as a formula.
 * @example csvField('=1+2') // "'=1+2"
 */
export function csvField(value: string): string {
  return stringify([[value]], { ...OPTIONS, eof: false });
}

/**
 * Every subscriber as a CSV document with a header row and CRLF line ends; a missing date is an empty field.
 * @example subscribersCsv([{ id: 1, email: 'a@b.example', created_temp: null, status: 'confirmed' }]) // 'id,email,subscribed_at,status\r\n1,a@b.example,,confirmed\r\n'
 */
export function subscribersCsv(rows: readonly CsvSubscriber[]): string {
  return stringify(
    rows.map((row) => [row.id, row.email, row.created_temp, row.status]),
    { ...OPTIONS, header: true, columns: [...CSV_HEADER] },
  );
}

/**
 * Any table as a CSV document: a header row, then one record per row, with the same quoting and formula
 * escaping as the subscriber export (the admin Overview exports each of its tables with it).
 * @example tableCsv(['page', 'views'], [['/pharma', 40]]) // 'page,views\r\n/pharma,40\r\n'
 */
export function tableCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  return stringify(
    rows.map((row) => [...row]),
    { ...OPTIONS, header: true, columns: [...header] },
  );
}

/** `korvel-subscribers-2026-11-21.csv` (or another `list`'s) for the given day (local calendar). */
export function csvFileName(now = new Date(), list = 'subscribers'): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `korvel-${list}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
