import { describe, expect, test } from 'vitest';
import { checkEmail } from '../../src/lib/email.ts';

describe('checkEmail', () => {
  test('trims and lower-cases the domain, keeping the local part as typed', () => {
    expect(checkEmail('  Jelena.Markovic@Korvel.Example ')).toEqual({
      ok: true,
      email: 'Jelena.Markovic@korvel.example',
    });
  });

  test('stores an internationalised domain in punycode', () => {
    expect(checkEmail('info@bücher.example')).toEqual({ ok: true, email: 'info@xn--bcher-kva.example' });
  });

  test('accepts an apostrophe and a plus tag', () => {
    expect(checkEmail("o'brien+news@plant.example").ok).toBe(true);
  });

  test.each([
    ['', 'empty'],
    ['no-at-sign.example', 'no @'],
    ['two@@plant.example', 'two @'],
    ['a@b', 'single-label domain'],
    ['a@-plant.example', 'label starting with a hyphen'],
    ['a@plant.e1', 'numeric top-level domain'],
    ['.dot@plant.example', 'leading dot'],
    ['dot..dot@plant.example', 'double dot'],
    ['"quoted"@plant.example', 'quotes'],
    ['a b@plant.example', 'space'],
    ['<a>@plant.example', 'angle brackets'],
    ['ćevap@plant.example', 'non-ASCII local part'],
    ['a@plant.example\n', 'trailing line feed'],
    ['a\r\n@plant.example', 'CR/LF'],
    ['a\u0000@plant.example', 'NUL'],
    [`${'a'.repeat(65)}@plant.example`, 'local part over 64'],
    [`a@${'b'.repeat(250)}.example`, 'over 254 characters'],
  ])('rejects %j (%s)', (input) => {
    expect(checkEmail(input).ok).toBe(false);
  });
});
