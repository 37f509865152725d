/**
 * What a new password must be (ASVS 5.0 6.2.1, 6.2.4, 6.2.11): at least 12 characters, not one of the 49,000
 * most common passwords (the kept list of `@zxcvbn-ts/language-common`), and not built on the firm's name or
 * the person's e-mail address. Nothing else is demanded: no composition rules, no forced rotation.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../lib/schemas.ts';

const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
/** Words a guesser tries first against this site. */
const CONTEXT_WORDS = ['korvel'];

const fold = (value: string) => value.normalize('NFKC').toLowerCase();

/** Why `password` cannot be used by the owner of `email`, or undefined when it can. */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  const folded = fold(password);
  if (COMMON.has(folded) || COMMON.has(folded.replace(/[\s\d!?.]+$/, '')))
    return 'This password is among the most common ones. Choose another.';
  if (CONTEXT_WORDS.some((word) => folded.includes(word)))
    return 'The password must not contain the firm’s name.';
  const address = fold(email);
  const local = address.split('@')[0] ?? '';
  if (folded.includes(address) || (local.length >= 3 && folded.includes(local)))
    return 'The password must not contain your e-mail address.';
  return undefined;
}
