/**
 * E-mail policy shared by the forms and the functions (docs/decisions.md, "E-mail addresses").
 * - at most 254 characters in total and 64 before the @ (RFC 5321);
 * - no control characters anywhere (CR/LF/NUL would smuggle headers), no quotes, spaces or angle brackets;
 * - internationalised domains are accepted and stored in their ASCII (punycode) form;
 * - the part before the @ must be ASCII: our mail provider and most recipients' servers lack SMTPUTF8.
 */
export const EMAIL_MAX_LENGTH = 254;

/** Why an address was refused: the id of its words in `forms:errors.email` (src/i18n/locales/<lang>/forms.json). */
export type EmailProblem =
  'control' | 'missing' | 'too_long' | 'format' | 'local_ascii' | 'local_chars' | 'domain';

/** `message` is the English sentence the admin shows; the public forms show the words of `problem`. */
export type EmailCheck = { ok: true; email: string } | { ok: false; problem: EmailProblem; message: string };

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** ASCII form of a domain, using the URL parser's IDNA mapping (the same in browsers and Node). */
function domainToAscii(domain: string): string | undefined {
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Checks an address against the policy and returns it normalised: trimmed, domain lower-case ASCII.
 * @example checkEmail(' Ana@Bücher.example ') // { ok: true, email: 'Ana@xn--bcher-kva.example' }
 */
export function checkEmail(input: string): EmailCheck {
  if (CONTROL.test(input))
    return {
      ok: false,
      problem: 'control',
      message: 'The e-mail address contains a line break or control character.',
    };
  const value = input.trim();
  if (value === '') return { ok: false, problem: 'missing', message: 'Enter your e-mail address.' };
  if (value.length > EMAIL_MAX_LENGTH) {
    return {
      ok: false,
      problem: 'too_long',
      message: `An e-mail address has at most ${EMAIL_MAX_LENGTH} characters.`,
    };
  }
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (at < 1 || domain === '' || local.includes('@')) {
    return { ok: false, problem: 'format', message: 'Enter an e-mail address in the form name@company.com.' };
  }
  if (/[^\x20-\x7e]/.test(local)) {
    return {
      ok: false,
      problem: 'local_ascii',
      message: 'Use only Latin letters, digits and . _ - + before the @.',
    };
  }
  if (local.length > 64 || !LOCAL_PART.test(local)) {
    return {
      ok: false,
      problem: 'local_chars',
      message: 'The part before the @ may not contain spaces, quotes or angle brackets.',
    };
  }
  const ascii = /[^\x20-\x7e]/.test(domain) ? domainToAscii(domain) : domain.toLowerCase();
  const labels = ascii?.split('.') ?? [];
  if (
    !ascii ||
    labels.length < 2 ||
    !labels.every((l) => DOMAIN_LABEL.test(l)) ||
    !TOP_LEVEL.test(labels.at(-1)!)
  ) {
    return { ok: false, problem: 'domain', message: 'The part after the @ is not a valid domain.' };
  }
  const email = `${local}@${ascii}`;
  if (email.length > EMAIL_MAX_LENGTH) {
    return {
      ok: false,
      problem: 'too_long',
      message: `An e-mail address has at most ${EMAIL_MAX_LENGTH} characters.`,
    };
  }
  return { ok: true, email };
}
