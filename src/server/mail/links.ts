/**
 * Signed, single-purpose tokens for the links in mail: confirm a newsletter sign-up (valid 7 days),
 * unsubscribe and open the preference page (each valid as long as the subscription), and cancel or move a meeting (valid until it starts, for
 * the version of the meeting the mail described). They are the one documented exception to "no tokens in
 * the query string": a mail link can carry nothing else, and each token can do exactly one thing to one row.
 * The key is derived from JWT_SECRET with HKDF, so an admin token never passes as a link token or back.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { localePath, type Lang } from '../../i18n/lang.ts';
import { jwtSecret } from '../config.ts';
import { emailHash } from './hash.ts';

/** `preferences`: the reader's own preference page (topics, language, pause), linked from every newsletter mail. */
export type LinkPurpose = 'confirm' | 'unsubscribe' | 'preferences';

/** How long a confirmation link works: the same 7 days after which an unconfirmed sign-up is deleted. */
export const CONFIRM_LINK_DAYS = 7;

const ISSUER = 'korvel';
const TYPE = 'korvel-link+jwt';

/** The first 16 hex characters of the address's hash: binds a token to the address it was sent to. */
export const addressTag = (email: string) => emailHash(email).slice(0, 16);

const cached = new Map<string, { secret: string; key: Uint8Array }>();

/** A key of its own for each use, derived from JWT_SECRET (HKDF), so no signature passes for another use. */
function derivedKey(info: string): Uint8Array {
  const secret = jwtSecret();
  const text = new TextDecoder().decode(secret);
  const hit = cached.get(info);
  if (hit?.secret === text) return hit.key;
  const key = new Uint8Array(hkdfSync('sha256', secret, '', info, 32));
  cached.set(info, { secret: text, key });
  return key;
}

const linkKey = () => derivedKey('korvel mail links');

export interface LinkClaims {
  subscriberId: number;
  /** {@link addressTag} of the subscriber's address. */
  tag: string;
  /** The newsletter issue an unsubscribe (or preference) link was sent in, so unsubscribes are counted per issue. */
  campaignId?: number;
}

export async function signLinkToken(
  purpose: LinkPurpose,
  claims: LinkClaims,
  now: Date = new Date(),
): Promise<string> {
  const jwt = new SignJWT({
    at: claims.tag,
    ...(claims.campaignId !== undefined && { ci: claims.campaignId }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: TYPE })
    .setIssuer(ISSUER)
    .setAudience(`korvel-${purpose}`)
    .setSubject(String(claims.subscriberId))
    .setIssuedAt(Math.floor(now.getTime() / 1000));
  if (purpose === 'confirm')
    jwt.setExpirationTime(Math.floor(now.getTime() / 1000) + CONFIRM_LINK_DAYS * 86_400);
  return jwt.sign(linkKey());
}

export type LinkCheck = { ok: true; claims: LinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** Verifies signature, algorithm, type, purpose and (for confirmations) expiry. */
export async function verifyLinkToken(
  purpose: LinkPurpose,
  token: string,
  now: Date = new Date(),
): Promise<LinkCheck> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token) || token.length > 1024) {
    return { ok: false, reason: 'invalid' };
  }
  try {
    const { payload } = await jwtVerify(token, linkKey(), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: `korvel-${purpose}`,
      typ: TYPE,
      currentDate: now,
      requiredClaims: purpose === 'confirm' ? ['sub', 'exp', 'iat'] : ['sub', 'iat'],
    });
    const subscriberId = Number(payload.sub);
    if (!/^[1-9][0-9]{0,9}$/.test(payload.sub ?? '') || typeof payload.at !== 'string') {
      return { ok: false, reason: 'invalid' };
    }
    const campaignId =
      Number.isSafeInteger(payload.ci) && Number(payload.ci) > 0 ? Number(payload.ci) : undefined;
    return { ok: true, claims: { subscriberId, tag: payload.at, ...(campaignId && { campaignId }) } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof errors.JOSEError || error instanceof TypeError)
      return { ok: false, reason: 'invalid' };
    throw error;
  }
}

/** The token of a mail link's request, from `?token=` and nothing else (any other parameter voids it). */
export function linkTokenOf(req: Request): string | undefined {
  const params = new URL(req.url).searchParams;
  const names = [...params.keys()];
  if (names.length !== 1 || names[0] !== 'token') return undefined;
  return params.get('token') ?? undefined;
}

/**
 * The absolute link a mail carries, e.g. `https://www.korvel.example/newsletter/confirm?token=…`; a German
 * reader's opens the German page, `…/de/newsletter/confirm?token=…`.
 */
export const linkUrl = (siteUrl: string, purpose: LinkPurpose, token: string, lang: Lang = 'en') =>
  `${siteUrl}${localePath(lang, `/newsletter/${purpose}`)}?token=${token}`;

/**
 * The signature in a newsletter issue's "view in browser" link: an HMAC of the campaign id alone (128 bits,
 * base64url), so the link names no recipient and every copy of an issue carries the same one.
 */
export function campaignViewSignature(campaignId: number): string {
  return createHmac('sha256', derivedKey('korvel campaign view'))
    .update(`campaign:${campaignId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

export function verifyCampaignView(campaignId: number, signature: string): boolean {
  if (!/^[A-Za-z0-9_-]{22}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(campaignViewSignature(campaignId)), Buffer.from(signature));
}

/** `https://www.korvel.example/newsletter/issue/12?sig=…`: the issue as a web page, no sign-in needed. */
export const campaignViewUrl = (siteUrl: string, campaignId: number) =>
  `${siteUrl}/newsletter/issue/${campaignId}?sig=${campaignViewSignature(campaignId)}`;

// --- Meeting links: "Cancel this meeting" and "Choose another time" in the visitor's mail -----------------

export type MeetingLinkPurpose = 'cancel' | 'reschedule';

export interface MeetingLinkClaims {
  inquiryId: number;
  /** {@link addressTag} of the visitor's address. */
  tag: string;
  /** The meeting's move count when the mail was made: once it is moved again, the link is used up. */
  moves: number;
}

const meetingAudience = (purpose: MeetingLinkPurpose) => `korvel-meeting-${purpose}`;

/** A link token that works until `expires` (the meeting's start) for one meeting and one purpose. */
export async function signMeetingLinkToken(
  purpose: MeetingLinkPurpose,
  claims: MeetingLinkClaims,
  expires: Date,
  now: Date = new Date(),
): Promise<string> {
  return new SignJWT({ at: claims.tag, mv: claims.moves })
    .setProtectedHeader({ alg: 'HS256', typ: TYPE })
    .setIssuer(ISSUER)
    .setAudience(meetingAudience(purpose))
    .setSubject(String(claims.inquiryId))
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .sign(linkKey());
}

export type MeetingLinkCheck =
  { ok: true; claims: MeetingLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** Verifies signature, algorithm, type, purpose and expiry of a meeting link token. */
export async function verifyMeetingLinkToken(
  purpose: MeetingLinkPurpose,
  token: string,
  now: Date = new Date(),
): Promise<MeetingLinkCheck> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token) || token.length > 1024) {
    return { ok: false, reason: 'invalid' };
  }
  try {
    const { payload } = await jwtVerify(token, linkKey(), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: meetingAudience(purpose),
      typ: TYPE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const { at, mv } = payload;
    if (
      !/^[1-9][0-9]{0,9}$/.test(payload.sub ?? '') ||
      typeof at !== 'string' ||
      typeof mv !== 'number' ||
      !Number.isInteger(mv) ||
      mv < 0
    ) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { inquiryId: Number(payload.sub), tag: at, moves: mv } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof errors.JOSEError || error instanceof TypeError)
      return { ok: false, reason: 'invalid' };
    throw error;
  }
}

/**
 * `https://www.korvel.example/meeting/cancel?token=…` or `…/meeting/reschedule?token=…`; for a German visitor
 * `…/de/meeting/cancel?token=…`.
 */
export const meetingLinkUrl = (
  siteUrl: string,
  purpose: MeetingLinkPurpose,
  token: string,
  lang: Lang = 'en',
) => `${siteUrl}${localePath(lang, `/meeting/${purpose}`)}?token=${token}`;

/**
 * The signature of a tracked link in a newsletter issue: an HMAC of the issue id and the target address
 * (128 bits, base64url). The same in every copy of the issue, so a click says which issue and which link,
 * never which reader; a changed target no longer matches.
 */
export function campaignClickSignature(campaignId: number, url: string): string {
  return createHmac('sha256', derivedKey('korvel campaign click'))
    .update(`campaign:${campaignId}\n${url}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

export function verifyCampaignClick(campaignId: number, url: string, signature: string): boolean {
  if (!/^[A-Za-z0-9_-]{22}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(campaignClickSignature(campaignId, url)), Buffer.from(signature));
}

/**
 * `https://www.korvel.example/newsletter/click/12?url=…&sig=…`: counts one click on `url` for issue 12, then
 * forwards there at once (GET /newsletter/click/{id}).
 */
export const campaignClickUrl = (siteUrl: string, campaignId: number, url: string) =>
  `${siteUrl}/newsletter/click/${campaignId}?url=${encodeURIComponent(url)}&sig=${campaignClickSignature(campaignId, url)}`;

// --- VERP: a return path of each mail's own, so a bounce that comes back by mail names its outbox row -----

/**
 * The token in a mail's return path (`bounces+<token>@…`): the outbox row's id in base 36 and an HMAC of it
 * (80 bits, lower-case hex, since some mail systems lower-case the local part). It names a row of ours and
 * nothing personal; a forged or altered token matches no row.
 */
export function verpToken(outboxId: number): string {
  const id = outboxId.toString(36);
  const tag = createHmac('sha256', derivedKey('korvel verp')).update(`outbox:${id}`).digest('hex');
  return `${id}-${tag.slice(0, 20)}`;
}

/** The outbox id a VERP token names, or undefined when it is malformed or its signature does not match. */
export function verifyVerpToken(token: string): number | undefined {
  const match = /^([0-9a-z]{1,8})-[0-9a-f]{20}$/.exec(token.toLowerCase());
  if (!match) return undefined;
  const id = parseInt(match[1]!, 36);
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  const expected = Buffer.from(verpToken(id));
  const given = Buffer.from(token.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
}

/** `bounces@korvel.example` + row 12 → `bounces+c-…@korvel.example`: the envelope sender of that mail. */
export function verpAddress(bounceAddress: string, outboxId: number): string {
  const at = bounceAddress.lastIndexOf('@');
  return `${bounceAddress.slice(0, at)}+${verpToken(outboxId)}${bounceAddress.slice(at)}`;
}

/** The token of a VERP address (`bounces+<token>@…`, in any letter case), or undefined when it carries none. */
export function verpTokenOf(address: string): string | undefined {
  return /^[^\s@+<>]+\+([0-9a-z]{1,8}-[0-9a-f]{20})@[^\s@<>]+$/i.exec(
    address.trim().replace(/^<|>$/g, ''),
  )?.[1];
}
