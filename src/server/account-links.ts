/**
 * Invitation (72 hours), password-reset (30 minutes) and unlock (24 hours) links. A link's token is an HMAC of its row id under a
 * key derived from JWT_SECRET: the table keeps only the token's SHA-256 and the outbox only the row id, so
 * neither a copy of the database nor of the mail queue holds a usable link; the mail is composed with the
 * token at send time. Links carry the token in the fragment (`#token=`), which never reaches a server log or
 * a Referer header.
 */
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { jwtSecret } from './config.ts';
import type { Queryable } from './db/index.ts';
import {
  findLinkByHash,
  insertLink,
  isOpen,
  setLinkHash,
  type AdminLink,
  type LinkPurpose,
} from './repositories/admin-links.ts';

export const INVITATION_HOURS = 72;
export const RESET_MINUTES = 30;
/** The unlock link mailed at a lock: a lock may be noticed the next morning. */
export const UNLOCK_HOURS = 24;

const LIFETIME_SECONDS: Record<LinkPurpose, number> = {
  invite: INVITATION_HOURS * 3600,
  reset: RESET_MINUTES * 60,
  unlock: UNLOCK_HOURS * 3600,
};
// An unlock link sets a new password on the reset page: whoever reached the lock may know the old one.
const PAGE: Record<LinkPurpose, string> = {
  invite: '/admin/invite',
  reset: '/admin/reset-password',
  unlock: '/admin/reset-password',
};

const linkKey = () => Buffer.from(hkdfSync('sha256', jwtSecret(), '', 'korvel account links', 32));

/** The token of link `id`: 43 base64url characters. */
export const linkToken = (purpose: LinkPurpose, id: number) =>
  createHmac('sha256', linkKey()).update(`${purpose}\0${id}`).digest('base64url');

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export const accountLinkUrl = (siteUrl: string, purpose: LinkPurpose, token: string) =>
  `${siteUrl}${PAGE[purpose]}#token=${token}`;

/** A new link for the account; its older open links of the same purpose stop working. */
export async function createAccountLink(
  db: Queryable,
  adminId: number,
  purpose: LinkPurpose,
): Promise<AdminLink> {
  const link = await insertLink(db, {
    adminId,
    purpose,
    lifetimeSeconds: LIFETIME_SECONDS[purpose],
    placeholderHash: randomBytes(32).toString('hex'),
  });
  await setLinkHash(db, link.id, tokenHash(linkToken(purpose, link.id)));
  return link;
}

/** The open link a token names, or undefined for an unknown, used, revoked or expired one. */
export async function openLink(
  db: Queryable,
  purpose: LinkPurpose,
  token: string,
): Promise<AdminLink | undefined> {
  const link = await findLinkByHash(db, tokenHash(token));
  return link && link.purpose === purpose && isOpen(link) ? link : undefined;
}
