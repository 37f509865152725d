/**
 * What both ends of a contact import (issue 36) must read alike, browser-safe: how a file's bytes become text,
 * which separator it uses, its header's cells, and which header names the usual columns. The admin reads the
 * header with these to offer the column mapping; the server reads the whole file with them
 * (src/server/import-file.ts), so the columns the admin is offered are the columns the server finds.
 */

/** The fields a column can be mapped to, as the import's query names them. */
export const IMPORT_FIELDS = ['email', 'name', 'lang', 'topics', 'consentDate', 'consentSource'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Headers recognised for a field the admin did not map, compared lower-case and without spaces. */
const HEADER_ALIASES: Record<ImportField, readonly string[]> = {
  email: ['email', 'e-mail', 'mail', 'emailaddress', 'e-mailaddress', 'e-mail-adresse', 'emailadresse'],
  name: ['name', 'fullname', 'vollständigername'],
  lang: ['lang', 'language', 'sprache'],
  topics: ['topics', 'themen', 'interests'],
  consentDate: ['consentdate', 'consent_date', 'consentedat', 'einwilligungsdatum', 'einwilligung'],
  consentSource: ['consentsource', 'consent_source', 'einwilligungsquelle', 'quelle'],
};

/** The index of the first header that usually names `field`, or -1. */
export function guessColumn(header: readonly string[], field: ImportField): number {
  return header.findIndex((name) => HEADER_ALIASES[field].includes(name.toLowerCase().replace(/\s+/g, '')));
}

/** Bytes no CSV text has: a ZIP (an .xlsx workbook), a UTF-16 byte order mark, or NUL. */
export function isBinary(bytes: Uint8Array): boolean {
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return zip || utf16 || bytes.includes(0);
}

/**
 * Decodes a file: a UTF-8 BOM is dropped, valid UTF-8 is read as such, anything else as Windows-1252 (what Excel
 * on Windows saves as "CSV"). `charset` forces one of the two.
 * @example decodeCsvText(new Uint8Array([0x4d, 0xfc]), undefined) // 'Mü'
 */
export function decodeCsvText(bytes: Uint8Array, charset?: 'utf-8' | 'windows-1252'): string {
  if (charset === 'windows-1252') return new TextDecoder('windows-1252').decode(bytes);
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (error) {
    if (charset === 'utf-8') throw error;
    return new TextDecoder('windows-1252').decode(body);
  }
}

/** `;` when the header line has more semicolons than commas (German Excel), else `,`; quoted text not counted. */
export function separatorOf(text: string): ';' | ',' {
  const header = (/^[^\r\n]*/.exec(text)?.[0] ?? '').replace(/"[^"]*"/g, '');
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** The header line's cells, trimmed, with CSV quotes removed (`"a;b";c` → `a;b`, `c`). */
export function headerOf(text: string): string[] {
  const line = /^[^\r\n]*/.exec(text)?.[0] ?? '';
  const separator = separatorOf(text);
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (c === '"' && quoted && line[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * A pasted list as CSV: addresses one per line (or separated by `,` or `;`) get the header `email`; text whose
 * first line has no `@` is taken as CSV with its own header.
 * @example pastedCsv('ana@firma.example\nben@firma.example') // 'email\nana@firma.example\nben@firma.example\n'
 */
export function pastedCsv(text: string): string {
  const first = /^\s*([^\r\n]*)/.exec(text)?.[1] ?? '';
  if (!first.includes('@')) return text;
  const addresses = text
    .split(/[\r\n,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  return `email\n${addresses.join('\n')}\n`;
}
