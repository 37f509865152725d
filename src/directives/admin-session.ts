/**
 * What the admin pages' directives (`client:signin`, `client:session`) read before any island code loads: only
 * whether the browser holds something to act on. The islands decide what it is worth (src/lib/admin-token.ts).
 */
import { SIGNED_OUT_KEY, TOKEN_KEY } from '../lib/admin-token.ts';

function stored(kind: 'localStorage' | 'sessionStorage', key: string): boolean {
  try {
    return window[kind].getItem(key) !== null;
  } catch {
    return false; // storage blocked by the browser's privacy settings: as if nothing were stored
  }
}

/** Whether a session token is stored (usable or not: the island reads its expiry and asks the server). */
export const holdsToken = (): boolean => stored('localStorage', TOKEN_KEY);

/** Whether the sign-in page has a note to show on why the last session ended. */
export const holdsSignOutNote = (): boolean => stored('sessionStorage', SIGNED_OUT_KEY);
