import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of the lower-cased address: all that stays of an address after it unsubscribes, and the
 * seed of the tag that binds a link token to the address it was sent to.
 */
export const emailHash = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('hex');
