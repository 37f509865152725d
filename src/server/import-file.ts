/**
 * Reads an uploaded contact list (issue 36) into rows ready to import: decodes it (UTF-8 with or without BOM,
 * else Windows-1252) and finds the separator (`;` or `,`) as the admin does (src/lib/csv-text.ts), parses it
 * with csv-parse, maps the columns the admin
 * chose and checks every row. Whatever makes the whole file unusable — not CSV, no e-mail column, too many rows,
 * a cell that a spreadsheet would run as a formula — throws an {@link HttpError} before anything is stored; a
 * bad or repeated row only gets its outcome, so the report can name its line.
 */
import { parse } from 'csv-parse/sync';
import { NEWSLETTER_TOPICS, type NewsletterTopic } from '../content/constants.ts';
import { isLang, type Lang } from '../i18n/lang.ts';
import {
  decodeCsvText,
  guessColumn,
  IMPORT_FIELDS,
  isBinary,
  separatorOf,
  type ImportField,
} from '../lib/csv-text.ts';
import { checkEmail } from '../lib/email.ts';
import { HttpError } from './http.ts';

export { IMPORT_FIELDS, type ImportField };

/** The largest file an import takes. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The most data rows (lines after the header) an import takes. */
export const IMPORT_MAX_ROWS = 50_000;
/** Longest name and consent source kept, in characters. */
export const IMPORT_NAME_MAX = 200;
export const IMPORT_SOURCE_MAX = 300;

/**
 * What a spreadsheet would run as a formula (OWASP "CSV injection"): a cell starting with `=` or `@`, a tab or
 * carriage return, or `+`/`-` followed by anything other than a number (a phone number such as `+49 89 1234`
 * is data).
 */
export function looksLikeFormula(cell: string): boolean {
  if (/^[=@\t\r]/.test(cell)) return true;
  return /^[+-]/.test(cell) && !/^[+-][\d\s()./-]*$/.test(cell);
}

/** The language names a list may use for `en` and `de`. */
const LANG_NAMES: Record<string, Lang> = {
  english: 'en',
  englisch: 'en',
  german: 'de',
  deutsch: 'de',
};

/** One data row as mapped and checked; `outcome` is set only for a row that is refused or repeated already. */
export interface ImportRow {
  /** The line of the file the row ends on (1 is the header). */
  line: number;
  /** Normalised (see `checkEmail`); as written when it was refused. */
  email: string | null;
  name: string | null;
  lang: Lang;
  topics: NewsletterTopic[];
  consentedAt: Date | null;
  consentSource: string | null;
  outcome?: 'skipped' | 'rejected';
  reason?: string;
}

export interface ImportOptions {
  /** Header names the admin chose per field; an absent field is looked up among the usual names. */
  mapping: Partial<Record<ImportField, string>>;
  /** The language of rows without one. */
  defaultLang: Lang;
  /** The consent date of rows without one; null when none was given. */
  defaultConsentDate: Date | null;
  /** Whether each row needs a consent date (consent on record) or none (the import asks for consent). */
  needsConsentDate: boolean;
  /** The end of today, for refusing consent dates in the future. */
  now: Date;
}

const badFile = (code: string, message: string) => new HttpError(400, code, message);

/**
 * Decodes the upload (see `decodeCsvText`); a declared charset is honoured. Bytes no text file has (a workbook,
 * UTF-16, NUL) are refused.
 */
export function decodeCsv(bytes: Uint8Array, charset: string | undefined): string {
  if (isBinary(bytes))
    throw badFile(
      'not_csv',
      'This is not a CSV text file (a spreadsheet workbook, or UTF-16 text?). Save it as CSV (UTF-8 or Windows-1252) and upload that.',
    );
  const declared = charset === undefined ? undefined : charset === 'utf-8' ? 'utf-8' : 'windows-1252';
  try {
    return decodeCsvText(bytes, declared);
  } catch {
    throw badFile('not_utf8', 'The file is declared UTF-8 but is not valid UTF-8.');
  }
}

/** Parses CSV text into records with the line each ends on; a malformed file is a 400 naming the line. */
function records(text: string): Array<{ cells: string[]; line: number }> {
  try {
    // `info: true` makes each record `{record, info}`; csv-parse's types do not follow the option.
    const parsed = parse(text, {
      delimiter: separatorOf(text),
      info: true,
      relax_column_count: true,
      // A quote inside an unquoted cell is kept as text (`=HYPERLINK("…")` is then refused as a formula).
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return parsed.map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badFile(
      'invalid_csv',
      `The file could not be read as CSV${line ? ` (line ${line})` : ''}: ${(error as Error).message.slice(0, 200)}`,
    );
  }
}

/** The column index of each field: the admin's choice (which must exist), else a usual header name. */
function columnsOf(
  header: string[],
  mapping: ImportOptions['mapping'],
): Partial<Record<ImportField, number>> {
  const columns: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    const chosen = mapping[field];
    if (chosen !== undefined) {
      const index = header.findIndex((name) => name === chosen.trim());
      if (index < 0)
        throw badFile(
          'unknown_column',
          `The file has no column "${chosen.slice(0, 60)}" for ${field}. Its columns are: ${header.join(', ').slice(0, 300)}.`,
        );
      columns[field] = index;
    } else {
      const index = guessColumn(header, field);
      if (index >= 0) columns[field] = index;
    }
  }
  if (columns.email === undefined)
    throw badFile(
      'no_email_column',
      'The file has no e-mail column. Name the column that holds the addresses (email=…), or give it the header "email".',
    );
  return columns;
}

/**
 * The earliest consent date taken: no consent to an e-mail list predates the commercial internet, so an earlier
 * one is a typo or a placeholder such as `0000-01-01` (a year PostgreSQL does not even have).
 */
const EARLIEST_CONSENT_TIME = Date.UTC(1990, 0, 1);

/** `2026-03-17`, `2026-03-17T10:00:00Z` or `17.03.2026` from 1990 on; undefined for anything else. */
export function consentDate(value: string): Date | undefined {
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  const iso = german
    ? `${german[3]}-${german[2]!.padStart(2, '0')}-${german[1]!.padStart(2, '0')}`
    : /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
      ? value
      : undefined;
  if (!iso) return undefined;
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  // `2026-02-30` parses to March: refuse what does not round-trip.
  if (Number.isNaN(date.getTime()) || (iso.length === 10 && date.toISOString().slice(0, 10) !== iso))
    return undefined;
  if (date.getTime() < EARLIEST_CONSENT_TIME) return undefined;
  return date;
}

/** The topics of a cell (`pharma|food`, `Oil & Gas; Company news`), or the first unknown one. */
function topicsOf(cell: string): { topics: NewsletterTopic[] } | { unknown: string } {
  const topics = new Set<NewsletterTopic>();
  for (const part of cell.split(/[|,;]/)) {
    const id = part
      .toLowerCase()
      .replace(/[^a-z]+/g, '-')
      .replace(/^-|-$/g, '');
    if (id === '') continue;
    if (!(NEWSLETTER_TOPICS as readonly string[]).includes(id)) return { unknown: part.trim() };
    topics.add(id as NewsletterTopic);
  }
  return { topics: [...topics] };
}

/** Checks one record into a row; a refused row keeps what it said and gets its reason. */
function rowOf(
  cells: string[],
  line: number,
  columns: Partial<Record<ImportField, number>>,
  options: ImportOptions,
): ImportRow {
  const cell = (field: ImportField) => (columns[field] === undefined ? '' : (cells[columns[field]] ?? ''));
  const raw = cell('email')
    .replace(/^mailto:/i, '')
    .replace(/^<(.*)>$/, '$1');
  const row: ImportRow = {
    line,
    email: raw.slice(0, 320) || null,
    name: cell('name') || null,
    lang: options.defaultLang,
    topics: [],
    consentedAt: options.defaultConsentDate,
    consentSource: cell('consentSource') || null,
  };
  const reject = (reason: string): ImportRow => ({ ...row, outcome: 'rejected', reason });
  const checked = checkEmail(raw);
  if (!checked.ok) return reject(raw ? `invalid e-mail address: ${checked.message}` : 'no e-mail address');
  row.email = checked.email;
  if (row.name && row.name.length > IMPORT_NAME_MAX)
    return reject(`the name is longer than ${IMPORT_NAME_MAX} characters`);
  if (row.consentSource && row.consentSource.length > IMPORT_SOURCE_MAX)
    return reject(`the consent source is longer than ${IMPORT_SOURCE_MAX} characters`);
  const lang = cell('lang').toLowerCase();
  if (lang) {
    const known = isLang(lang) ? lang : LANG_NAMES[lang];
    if (!known) return reject(`unknown language "${cell('lang').slice(0, 40)}" (use en or de)`);
    row.lang = known;
  }
  const topics = topicsOf(cell('topics'));
  if ('unknown' in topics)
    return reject(
      `unknown topic "${topics.unknown.slice(0, 40)}" (use ${NEWSLETTER_TOPICS.join(', ')}, separated by |)`,
    );
  row.topics = topics.topics;
  if (options.needsConsentDate) {
    const given = cell('consentDate');
    const date = given ? consentDate(given) : options.defaultConsentDate;
    if (given && !date)
      return reject(`unreadable consent date "${given.slice(0, 40)}" (use 2026-03-17 or 17.03.2026)`);
    if (!date) return reject('no consent date');
    if (date > options.now) return reject('the consent date is in the future');
    row.consentedAt = date;
  } else row.consentedAt = null;
  return row;
}

/**
 * Reads a decoded file into checked rows: repeated addresses after the first are skipped with the line of the
 * first. Throws for a file that must change nothing.
 * @example readImport('email;Name\nana@firma.example;Ana\n', options).rows[0].email // 'ana@firma.example'
 */
export function readImport(text: string, options: ImportOptions): { rows: ImportRow[] } {
  const all = records(text);
  const [head, ...data] = all;
  if (!head || data.length === 0) throw badFile('empty_file', 'The file has no rows below its header line.');
  if (data.length > IMPORT_MAX_ROWS)
    throw badFile(
      'too_many_rows',
      `The file has ${data.length.toLocaleString('en-GB')} rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en-GB')}. Split it and upload the parts one after the other.`,
    );
  const formulas = all.filter(({ cells }) => cells.some(looksLikeFormula)).map(({ line }) => line);
  if (formulas.length > 0)
    throw badFile(
      'formula_cells',
      `Cells that start like a spreadsheet formula (=, +, -, @) are not imported, so the report can be opened safely. Lines: ${formulas.slice(0, 10).join(', ')}${formulas.length > 10 ? ` and ${formulas.length - 10} more` : ''}.`,
    );
  const columns = columnsOf(head.cells, options.mapping);
  if (options.needsConsentDate && columns.consentDate === undefined && !options.defaultConsentDate)
    throw badFile(
      'no_consent_date',
      'With consent on record, say when these people consented: map a consent date column, or give the date of all of them (consentedOn=2026-03-17).',
    );
  const firstLine = new Map<string, number>();
  const rows = data.map(({ cells, line }) => {
    const row = rowOf(cells, line, columns, options);
    if (row.outcome || !row.email) return row;
    const key = row.email.toLowerCase();
    const first = firstLine.get(key);
    if (first !== undefined) return { ...row, outcome: 'skipped' as const, reason: `repeats line ${first}` };
    firstLine.set(key, line);
    return row;
  });
  return { rows };
}
