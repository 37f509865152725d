import { describe, expect, test } from 'vitest';
import { tokenExpiresAt, tokenLooksUsable } from '../../src/lib/admin-token.ts';
import { csvField, csvFileName, subscribersCsv } from '../../src/lib/subscribers-csv.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.signature`;

describe('tokenExpiresAt', () => {
  test('reads exp in milliseconds', () => {
    expect(tokenExpiresAt(jwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
  });
  test('reads a payload whose base64url needs padding and uses - and _', () => {
    const token = jwt({ exp: 1_900_000_000, sub: '>>>???' });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(tokenExpiresAt(token)).toBe(1_900_000_000_000);
  });
  test('is null for a token without exp, with two parts, or with a payload that is not JSON', () => {
    expect(tokenExpiresAt(jwt({ sub: '1' }))).toBeNull();
    expect(tokenExpiresAt('a.b')).toBeNull();
    expect(tokenExpiresAt('a.%%%.c')).toBeNull();
    expect(tokenExpiresAt(`x.${Buffer.from('not json').toString('base64url')}.y`)).toBeNull();
  });
});

describe('tokenLooksUsable', () => {
  const now = 1_800_000_000_000;
  test('accepts a token that expires later', () => {
    expect(tokenLooksUsable(jwt({ exp: now / 1000 + 60 }), now)).toBe(true);
  });
  test('refuses an expired token, a missing one and garbage', () => {
    expect(tokenLooksUsable(jwt({ exp: now / 1000 - 1 }), now)).toBe(false);
    expect(tokenLooksUsable(null, now)).toBe(false);
    expect(tokenLooksUsable('not-a-token', now)).toBe(false);
  });
});

describe('subscribersCsv', () => {
  test('writes a header, one CRLF line per subscriber with its status, and an empty field for a missing date', () => {
    expect(
      subscribersCsv([
        { id: 1, email: 'ana@plant.example', created_temp: '2026-03-01T08:00:00.000Z', status: 'confirmed' },
        { id: 2, email: 'legacy@old.example', created_temp: null, status: 'bounced' },
      ]),
    ).toBe(
      'id,email,subscribed_at,status\r\n1,ana@plant.example,2026-03-01T08:00:00.000Z,confirmed\r\n2,legacy@old.example,,bounced\r\n',
    );
  });
  test('writes only the header for an empty list', () => {
    expect(subscribersCsv([])).toBe('id,email,subscribed_at,status\r\n');
  });
  test('defuses an address a spreadsheet would run as a formula', () => {
    expect(subscribersCsv([{ id: 3, email: '=cmd@x.example', created_temp: null, status: 'pending' }])).toBe(
      "id,email,subscribed_at,status\r\n3,'=cmd@x.example,,pending\r\n",
    );
  });
});

describe('csvField', () => {
  test('leaves an ordinary address alone', () => {
    expect(csvField("o'brien+news@plant.example")).toBe("o'brien+news@plant.example");
  });
  test('quotes commas and doubles quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
  });
  test('defuses a value a spreadsheet would run as a formula', () => {
    for (const lead of ['=', '+', '-', '@'])
      expect(csvField(`${lead}cmd@x.example`)).toBe(`'${lead}cmd@x.example`);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });
  test('defuses a leading tab or carriage return and quotes a lone line break', () => {
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe('"\'\rcmd"');
    expect(csvField('a\nb')).toBe('"a\nb"');
  });
});

describe('csvFileName', () => {
  test('names the file after the local day', () => {
    expect(csvFileName(new Date(2026, 0, 5, 23, 30))).toBe('korvel-subscribers-2026-01-05.csv');
  });
});
