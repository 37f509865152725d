import { describe, expect, test } from 'vitest';
import {
  decodeCsvText,
  guessColumn,
  headerOf,
  isBinary,
  pastedCsv,
  separatorOf,
} from '../../src/lib/csv-text.ts';
import { consentDate, looksLikeFormula } from '../../src/server/import-file.ts';

describe('decodeCsvText', () => {
  test('drops a UTF-8 byte order mark', () => {
    expect(decodeCsvText(new Uint8Array([0xef, 0xbb, 0xbf, 0x4d, 0xc3, 0xbc]))).toBe('Mü');
  });

  test('reads bytes that are not UTF-8 as Windows-1252', () => {
    expect(decodeCsvText(new Uint8Array([0x4d, 0xfc, 0xdf, 0x80]))).toBe('Müß€');
  });
});

describe('isBinary', () => {
  test('knows a workbook, UTF-16 and NUL bytes from text', () => {
    expect(isBinary(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(isBinary(new Uint8Array([0xff, 0xfe, 0x65, 0x00]))).toBe(true);
    expect(isBinary(new Uint8Array([0x61, 0x00, 0x62]))).toBe(true);
    expect(isBinary(new TextEncoder().encode('email\na@b.example\n'))).toBe(false);
  });
});

describe('separatorOf', () => {
  test('takes ; when the header has more semicolons than commas, quoted text aside', () => {
    expect(separatorOf('E-Mail;Name;"Firma, GmbH"\n')).toBe(';');
    expect(separatorOf('email,name\n')).toBe(',');
    expect(separatorOf('email\n')).toBe(',');
  });
});

describe('headerOf', () => {
  test('splits the first line at its separator and removes quotes', () => {
    expect(headerOf('"E-Mail";"Name; voll";Sprache\r\nx;y;z')).toEqual(['E-Mail', 'Name; voll', 'Sprache']);
  });
});

describe('guessColumn', () => {
  test('finds usual English and German headers whatever their case and spaces', () => {
    const header = ['Firma', 'E-Mail', 'Vollständiger Name', 'Sprache', 'Einwilligungsdatum'];
    expect(guessColumn(header, 'email')).toBe(1);
    expect(guessColumn(header, 'name')).toBe(2);
    expect(guessColumn(header, 'lang')).toBe(3);
    expect(guessColumn(header, 'consentDate')).toBe(4);
    expect(guessColumn(header, 'topics')).toBe(-1);
  });
});

describe('pastedCsv', () => {
  test('gives a bare list of addresses the header email', () => {
    expect(pastedCsv(' ana@firma.example\nben@firma.example; cem@firma.example\n')).toBe(
      'email\nana@firma.example\nben@firma.example\ncem@firma.example\n',
    );
  });

  test('leaves CSV with a header as it is', () => {
    expect(pastedCsv('email;name\nana@firma.example;Ana')).toBe('email;name\nana@firma.example;Ana');
  });
});

describe('looksLikeFormula', () => {
  test('refuses what a spreadsheet would run and lets numbers through', () => {
    for (const cell of ['=1+1', '@SUM(A1)', '+cmd', '-2+3*A1', '\tx'])
      expect(looksLikeFormula(cell)).toBe(true);
    for (const cell of ['+49 89 1234-56', '-12.5', 'ana@firma.example', 'Müller'])
      expect(looksLikeFormula(cell)).toBe(false);
  });
});

describe('consentDate', () => {
  test('reads ISO and German dates and refuses impossible ones', () => {
    expect(consentDate('2026-03-17')?.toISOString()).toBe('2026-03-17T00:00:00.000Z');
    expect(consentDate('7.3.2026')?.toISOString()).toBe('2026-03-07T00:00:00.000Z');
    expect(consentDate('2026-02-30')).toBeUndefined();
    expect(consentDate('March 2026')).toBeUndefined();
  });
});
