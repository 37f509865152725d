/**
 * The public forms' message ids (src/lib/schemas.ts) and their words in the locale files (issue 39): every id a
 * wrong or empty form can produce has words in English and German, and none comes back as a bare id.
 */
import { describe, expect, test } from 'vitest';
import de from '../../src/i18n/locales/de/forms.json' with { type: 'json' };
import en from '../../src/i18n/locales/en/forms.json' with { type: 'json' };
import { checkEmail } from '../../src/lib/email.ts';
import {
  contactSchema,
  meetingRequestSchema,
  newsletterSignupSchema,
  validate,
  type FormWords,
} from '../../src/lib/schemas.ts';

const words: Record<'en' | 'de', FormWords> = {
  en: { locale: 'en-GB', messages: en.errors },
  de: { locale: 'de-DE', messages: de.errors },
};

/** Bodies that trip every check of the public schemas at least once. */
const wrong: [string, Parameters<typeof validate>[0], unknown][] = [
  [
    'an empty contact form',
    contactSchema,
    { kind: 'contact', fullName: '', email: '', subject: '', message: '' },
  ],
  ['a contact form without fields', contactSchema, { kind: 'contact' }],
  [
    'a contact form with wrong values',
    contactSchema,
    {
      kind: 'contact',
      fullName: 'A\nB',
      company: 'x'.repeat(161),
      email: 'a b@plant.example',
      position: 7,
      phone: 'call me',
      subject: 'x'.repeat(201),
      message: 'a\u0000b',
      privacy: 'yes',
      extra: 1,
    },
  ],
  ['an empty meeting request', meetingRequestSchema, { kind: 'meeting', slot: '', timeZone: 'Mars/Olympus' }],
  ['an empty sign-up', newsletterSignupSchema, { email: '', consent: false, source: '/de' }],
  ['a sign-up with a wrong address', newsletterSignupSchema, { email: 'jörg@plant.example', source: '/de' }],
];

describe('validate with the words of a language', () => {
  for (const lang of ['en', 'de'] as const)
    test.each(wrong)(`${lang}: %s gets words for every field, never a bare id`, (_, schema, body) => {
      const result = validate(schema, body, words[lang]);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const visible = Object.entries(result.fields).filter(
        ([field]) => !['', 'lang', 'source'].includes(field),
      );
      expect(visible.length).toBeGreaterThan(0);
      for (const [field, text] of visible) expect(text, field).toMatch(/^\p{Lu}.*[.!]$/u);
    });

  test('writes a limit in the digits of the language', () => {
    const body = { kind: 'contact', message: 'x'.repeat(5001) };
    const check = (lang: 'en' | 'de') => {
      const result = validate(contactSchema, body, words[lang]);
      return result.ok ? '' : result.fields.message;
    };
    expect(check('en')).toBe('Use at most 5,000 characters here.');
    expect(check('de')).toBe('Hier sind höchstens 5.000 Zeichen möglich.');
  });

  test('without words, the admin’s English sentences pass through unchanged', () => {
    const result = validate(contactSchema, { kind: 'contact', nope: 1 });
    expect(result.ok ? {} : result.fields.nope).toBe('This field is not accepted.');
  });
});

test('every reason checkEmail gives has words in both languages', () => {
  const problems = [
    '\n',
    '',
    `${'a'.repeat(250)}@x.example`,
    'plant.example',
    'jörg@x.example',
    'a b@x.example',
    'a@x',
  ];
  for (const input of problems) {
    const result = checkEmail(input);
    expect(result.ok).toBe(false);
    if (result.ok) continue;
    expect(en.errors.email[result.problem], input).toMatch(/\S/);
    expect(de.errors.email[result.problem], input).toMatch(/\S/);
  }
});
