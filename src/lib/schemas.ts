/**
 * One schema per payload, shared by the form islands and the functions. zod/mini keeps the client cost small.
 * Objects are strict: an unexpected field (`id`, `__proto__`, …) is refused, not ignored.
 */
import * as z from 'zod/mini';
import { checkEmail } from './email.ts';

/** Version of the consent wording shown beside the newsletter form; stored with each sign-up. */
export const NEWSLETTER_CONSENT_VERSION = 'newsletter-2026-11';

/** Bounds that no honest request comes near; they keep hashing and storage cheap. */
export const PASSWORD_MAX_LENGTH = 1024;
export const PASSWORD_MIN_LENGTH = 12;

const email = z.pipe(
  z.string('Enter your e-mail address.'),
  z.transform((value: string, ctx) => {
    const result = checkEmail(value);
    if (result.ok) return result.email;
    ctx.issues.push({ code: 'custom', message: result.message, input: value });
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
const sourcePage = z
  .string('Say which page the form was on.')
  .check(
    z.maxLength(200, 'The source page is too long.'),
    z.regex(/^\/[A-Za-z0-9\-._~/&]*$/, 'The source page must be a path on this site.'),
  );

export const newsletterSignupSchema = z.strictObject(
  {
    email,
    consent: z.literal(true, 'Tick the box to agree to receive the newsletter.'),
    source: sourcePage,
    /** Honeypot: hidden from people, filled in by bots. Any value means "store nothing". */
    website: z.optional(z.string().check(z.maxLength(200))),
  },
  'Send a JSON object with email, consent and source.',
);
export type NewsletterSignup = z.infer<typeof newsletterSignupSchema>;

export type FieldErrors = Record<string, string>;

/** Parses `input`; on failure returns the first message per field ("" for the object itself). */
export function validate<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; fields: FieldErrors } {
  const result = z.safeParse(schema, input);
  if (result.success) return { ok: true, data: result.data };
  // A Map, then fromEntries: a field named "__proto__" must become a key, not a prototype.
  const fields = new Map<string, string>();
  for (const issue of result.error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.map(String).join('.')];
    for (const key of keys) {
      if (!fields.has(key)) {
        fields.set(key, issue.code === 'unrecognized_keys' ? 'This field is not accepted.' : issue.message);
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
