import type { PasswordCopy } from './copy.ts';

/**
 * What the browser checks of a new password before sending it: the length and that both fields agree. The
 * server checks the rest (common passwords, the firm's name, the e-mail address) and says why it refuses.
 */
export const MIN_PASSWORD_LENGTH = 12;

export type PasswordProblem = 'too_short' | 'mismatch';

/**
 * @example passwordProblem('short', 'short') // 'too_short'
 * @example passwordProblem('twelve chars ok', 'twelve chars OK') // 'mismatch'
 */
export function passwordProblem(password: string, repeat: string): PasswordProblem | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'too_short';
  if (password !== repeat) return 'mismatch';
  return null;
}

/** The message for a refused new password: the browser's check, or the server's reason when it gave one. */
export function passwordMessage(
  copy: Pick<PasswordCopy, PasswordProblem | 'rejected'>,
  problem: PasswordProblem | null,
  serverReason?: string,
): string | null {
  if (problem) return copy[problem];
  if (serverReason !== undefined) return serverReason || copy.rejected;
  return null;
}
