/**
 * One schema per payload, shared by the form islands and the functions. zod/mini keeps the client cost small.
 * Objects are strict: an unexpected field (`id`, `__proto__`, …) is refused, not ignored.
 *
 * The public forms (contact, meeting, newsletter) appear in English and German, so their schemas carry message
 * ids (`missing.fullName`, `email.format`, …) instead of sentences; {@link validate} turns an id into the words of
 * `forms:errors` in the page's language (src/i18n/locales/<lang>/forms.json), in the browser and in the function
 * alike. The admin's schemas, English only, keep their sentences.
 */
import * as z from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import { NEWSLETTER_TOPICS } from '../content/constants.ts';
import { isLang, langOf, languages, splitLocale, type Lang } from '../i18n/lang.ts';
import { checkEmail, EMAIL_MAX_LENGTH } from './email.ts';
import { isTimeZone } from './time-zone.ts';

/** Version of the consent wording shown beside the newsletter form; stored with each sign-up. */
export const NEWSLETTER_CONSENT_VERSION = 'newsletter-2026-11';

/** Bounds that no honest request comes near; they keep hashing and storage cheap. */
export const PASSWORD_MAX_LENGTH = 1024;
export const PASSWORD_MIN_LENGTH = 12;

/** An e-mail address, trimmed and checked by {@link checkEmail}. */
export const email = z.pipe(
  z.string('Enter your e-mail address.'),
  z.transform((value: string, ctx) => {
    const result = checkEmail(value);
    if (result.ok) return result.email;
    ctx.issues.push({ code: 'custom', message: result.message, input: value });
    return z.NEVER;
  }),
);

/** The public forms' e-mail field: as {@link email}, with message ids (`email.missing`, `email.format`, …). */
const formEmail = z.pipe(
  z.string('email.missing'),
  z.transform((value: string, ctx) => {
    const result = checkEmail(value);
    if (result.ok) return result.email;
    ctx.issues.push({
      code: 'custom',
      message: `email.${result.problem}`,
      input: value,
      params: { max: EMAIL_MAX_LENGTH },
    });
    return z.NEVER;
  }),
);

export const loginSchema = z.strictObject(
  {
    email,
    password: z
      .string('Enter your password.')
      .check(
        z.minLength(1, 'Enter your password.'),
        z.maxLength(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters.`),
      ),
  },
  'Send a JSON object with email and password.',
);
export type LoginInput = z.infer<typeof loginSchema>;

/** A path on this site, e.g. `/blog/gmp`: where the visitor signed up. */
const sourcePage = z.string('Say which page the form was on.').check(
  z.maxLength(200, 'The source page is too long.'),
  // `//host` is a path to a browser's eyes only until it is a Location header: refuse it.
  z.regex(/^\/(?!\/)[A-Za-z0-9\-._~/&]*$/, 'The source page must be a path on this site.'),
);

/**
 * The language of the page a public form is on (its `<html lang>`): the mail to the sender is written in it.
 * Optional, English when absent; anything but a site language is refused.
 */
export const langField = z.optional(
  z.enum(languages, `The language is one of ${languages.map((l) => `"${l}"`).join(', ')}.`),
);

/** The language a public form's island sends: its page's `<html lang>` (English where that is not a site language). */
export const documentLang = (): Lang =>
  langOf(typeof document === 'undefined' ? undefined : document.documentElement.lang);

/**
 * The language a public form's sender is written to in: the one it sent, else that of the page it names as its
 * source (`/de/contact` → German, so a plain form post without JavaScript from a German page counts as German),
 * else English.
 */
export const senderLang = (data: { lang?: Lang; source?: string }): Lang =>
  data.lang ?? (data.source ? splitLocale(data.source).lang : 'en');

/**
 * {@link senderLang} of a body that may not pass its schema: its valid `lang` or source page, else English. The
 * functions answer a public form in it, errors included.
 */
export function langOfBody(body: unknown): Lang {
  const { lang, source } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return senderLang({
    lang: isLang(lang) ? lang : undefined,
    source: typeof source === 'string' ? source : undefined,
  });
}

export const newsletterSignupSchema = z.strictObject(
  {
    email: formEmail,
    consent: z.literal(true, 'consent'),
    source: sourcePage,
    lang: langField,
    /** The topics ticked (see NEWSLETTER_TOPICS); absent or empty means every topic, the form's default. */
    topics: z.optional(
      z
        .array(z.enum(NEWSLETTER_TOPICS, 'unknown_field'))
        .check(z.maxLength(NEWSLETTER_TOPICS.length, 'unknown_field')),
    ),
    /** Honeypot: hidden from people, filled in by bots. Any value means "store nothing". */
    website: z.optional(z.string().check(z.maxLength(200))),
  },
  'Send a JSON object with email, consent and source.',
);
export type NewsletterSignup = z.infer<typeof newsletterSignupSchema>;

/** Version of the privacy policy the contact and booking forms link to; stored with each inquiry. */
export const PRIVACY_POLICY_VERSION = 'privacy-2026-11-28';

/** Limits shared by the form fields (`maxLength`), the schemas and the `inquiries` table. */
export const CONTACT_LIMITS = {
  fullName: 120,
  company: 160,
  position: 120,
  phone: 40,
  subject: 200,
  message: 5000,
} as const;

/** A one-line text: trimmed, no control characters (a CR/LF in a name or subject is never honest). */
export function line(label: string, max: number) {
  return z
    .pipe(
      z.string({
        error: (issue) =>
          issue.input === undefined ? `Enter ${label.toLowerCase()}.` : `${label} must be text.`,
      }),
      z.transform((value: string) => value.trim()),
    )
    .check(
      z.maxLength(max, `${label} has at most ${max.toLocaleString('en-GB')} characters.`),
      z.regex(/^\P{Cc}*$/u, `${label} must be on one line.`),
    );
}

/** A public form's one-line text, as {@link line} with message ids; `field` names its `missing.<field>` words. */
function formLine(field: string, max: number) {
  return z
    .pipe(
      z.string({ error: (issue) => (issue.input === undefined ? `missing.${field}` : 'not_text') }),
      z.transform((value: string) => value.trim()),
    )
    .check(z.maxLength(max, 'too_long'), z.regex(/^\P{Cc}*$/u, 'one_line'));
}

/** A required one-line text: blank after trimming counts as missing. */
const requiredLine = (field: string, max: number) =>
  formLine(field, max).check(z.minLength(1, `missing.${field}`));

const optionalLine = (field: string, max: number) => z.optional(formLine(field, max));

const messageText = z
  .pipe(
    z.string({ error: (issue) => (issue.input === undefined ? 'missing.message' : 'not_text') }),
    z.transform((value: string) => value.replace(/\r\n?/g, '\n').trim()),
  )
  .check(
    z.minLength(1, 'missing.message'),
    z.maxLength(CONTACT_LIMITS.message, 'too_long'),
    z.regex(/^(?:[\t\n]|\P{Cc})*$/u, 'message_characters'),
  );

const phone = z.optional(
  z
    .pipe(
      z.string('not_text'),
      z.transform((value: string) => value.trim()),
    )
    .check(
      z.maxLength(CONTACT_LIMITS.phone, 'too_long'),
      z.regex(/^$|^\+?[0-9][0-9 ()./-]{4,}$/, 'phone_format'),
    ),
);

const privacy = z.literal(true, 'privacy');

/** Bot traps every public form carries: a hidden field people leave empty, and how long the form was open. */
const traps = {
  website: z.optional(z.string().check(z.maxLength(200))),
  /** Milliseconds between the form appearing and being sent, measured by the form itself. */
  fillMs: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(86_400_000))),
  source: z.optional(sourcePage),
  lang: langField,
};

export const contactSchema = z.strictObject(
  {
    kind: z.optional(z.literal('contact')),
    fullName: requiredLine('fullName', CONTACT_LIMITS.fullName),
    company: optionalLine('company', CONTACT_LIMITS.company),
    email: formEmail,
    position: optionalLine('position', CONTACT_LIMITS.position),
    phone,
    subject: requiredLine('subject', CONTACT_LIMITS.subject),
    message: messageText,
    privacy,
    ...traps,
  },
  'Send a JSON object with the contact form fields.',
);
export type ContactInput = z.infer<typeof contactSchema>;

export const meetingRequestSchema = z.strictObject(
  {
    kind: z.literal('meeting'),
    fullName: requiredLine('fullName', CONTACT_LIMITS.fullName),
    company: optionalLine('company', CONTACT_LIMITS.company),
    email: formEmail,
    subject: requiredLine('topic', CONTACT_LIMITS.subject),
    /** The slot's start as an ISO instant, one of those GET /api/meeting-slots offers. */
    slot: z.string('missing.slot').check(z.minLength(1, 'missing.slot'), z.maxLength(40, 'missing.slot')),
    /** The IANA time zone of the visitor's browser, so mail can show their own time beside Belgrade's. */
    timeZone: z.optional(z.string('not_text').check(z.refine(isTimeZone, 'time_zone'))),
    privacy,
    ...traps,
  },
  'Send a JSON object with the meeting request fields.',
);
export type MeetingRequestInput = z.infer<typeof meetingRequestSchema>;

export type FieldErrors = Record<string, string>;

/**
 * The words of a public form's message ids in one language: `forms:errors` of the locale files, and the BCP 47
 * tag its numbers are written in (`{{max}}`: 5,000 in English, 5.000 in German).
 */
export interface FormWords {
  locale: string;
  /** `forms:errors` as the locale file nests it: `missing.fullName` is `messages.missing.fullName`. */
  messages: FormMessages;
}
export interface FormMessages {
  readonly [id: string]: string | FormMessages;
}

/** The words of a message id, `{{max}}` filled in; a sentence that is no id (the admin's) comes back as it is. */
function wordsOf(issue: z.core.$ZodIssue, id: string, words: FormWords | undefined): string {
  let template: string | FormMessages | undefined = words?.messages;
  for (const part of id.split('.')) template = typeof template === 'object' ? template[part] : undefined;
  if (typeof template !== 'string') return id;
  const max =
    issue.code === 'too_big'
      ? Number(issue.maximum)
      : issue.code === 'custom'
        ? issue.params?.max
        : undefined;
  return template.replace('{{max}}', typeof max === 'number' ? max.toLocaleString(words!.locale) : '');
}

/**
 * Parses `input`; on failure returns the first message per field ("" for the object itself). With `words`, a
 * public form's message ids become the words of the page's language.
 */
export function validate<S extends $ZodType>(
  schema: S,
  input: unknown,
  words?: FormWords,
): { ok: true; data: output<S> } | { ok: false; fields: FieldErrors } {
  const result = z.safeParse(schema, input);
  if (result.success) return { ok: true, data: result.data };
  // A Map, then fromEntries: a field named "__proto__" must become a key, not a prototype.
  const fields = new Map<string, string>();
  for (const issue of result.error.issues) {
    const keys = (
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path]
    ).map((path) => path.map(String).join('.'));
    for (const key of keys) {
      if (!fields.has(key)) {
        const unknown = issue.code === 'unrecognized_keys';
        fields.set(
          key,
          unknown && !words
            ? 'This field is not accepted.'
            : wordsOf(issue, unknown ? 'unknown_field' : issue.message, words),
        );
      }
    }
  }
  return { ok: false, fields: Object.fromEntries(fields) };
}

/** PATCH /api/inquiries/{id}: mark an inquiry as handled, or open it again. */
export const inquiryUpdateSchema = z.strictObject(
  {
    handled: z.boolean('Send "handled" as true or false.'),
  },
  'Send a JSON object with handled set to true or false.',
);
export type InquiryUpdate = z.infer<typeof inquiryUpdateSchema>;

/** Limits of the admin's meeting decision; they match the `inquiries` columns. */
export const MEETING_DECISION_LIMITS = { callLink: 500, note: 1000 } as const;

/** POST /api/inquiries/{id}/meeting: confirm with the video-call link, or decline with a short note. */
export const meetingDecisionSchema = z.discriminatedUnion(
  'decision',
  [
    z.strictObject({
      decision: z.literal('confirm'),
      callLink: z.pipe(
        z.string('Give the video-call link.').check(
          z.maxLength(MEETING_DECISION_LIMITS.callLink, 'The link has at most 500 characters.'),
          // No space, quote, angle bracket or control character (NEL is not in \s): it goes into mail and an .ics.
          z.regex(/^https:\/\/[^\s<>"\p{Cc}]+$/u, 'Give the video-call link as one https:// address.'),
        ),
        z.transform((value: string) => value.trim()),
      ),
    }),
    z.strictObject({
      decision: z.literal('decline'),
      note: z
        .pipe(
          z.string('Write a short note for the visitor.'),
          z.transform((value: string) => value.replace(/\r\n?/g, '\n').trim()),
        )
        .check(
          z.minLength(1, 'Write a short note for the visitor.'),
          z.maxLength(MEETING_DECISION_LIMITS.note, 'The note has at most 1,000 characters.'),
          z.regex(/^(?:[\t\n]|\P{Cc})*$/u, 'The note contains characters we cannot send.'),
        ),
    }),
  ],
  'Send {"decision": "confirm", "callLink": …} or {"decision": "decline", "note": …}.',
);
export type MeetingDecisionInput = z.infer<typeof meetingDecisionSchema>;
