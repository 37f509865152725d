/**
 * Who may call the admin functions. A call needs a valid bearer token whose session (`admin_sessions`) is live
 * — used within the last 30 minutes, begun within 8 hours, not revoked — of an active account, issued after
 * the account's last global revocation; then the account's role, read from the database on every call, must be
 * one the handler allows. Every 401 and 403 this guard answers reaches the activity log: a refusal of a live
 * session (a role or an enrolment that does not allow the call) as a row naming its account; one without a
 * valid token or live session, which anyone can send, counted in its network's tally for the hour.
 */
import { jwtSecret } from './config.ts';
import type { Db, Queryable } from './db/index.ts';
import { HttpError, refuseForeignOrigin, type RequestContext } from './http.ts';
import { loggable } from './redact.ts';
import { recordActivity, tallyRefusal } from './repositories/activity.ts';
import { findAdminById, hasFactor, type Admin, type Role } from './repositories/admins.ts';
import { truncatedAddress } from './client-address.ts';
import {
  createSession,
  findSession,
  isLive,
  touchSession,
  type Session,
  type SessionLevel,
} from './repositories/sessions.ts';
import { signAdminToken, verifyAdminToken } from './tokens.ts';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const QUERY_TOKEN_NAMES = ['token', 'access_token', 'jwt', 'auth'];

const BEARER = { headers: { 'www-authenticate': 'Bearer' } };
const unauthorized = () => new HttpError(401, 'unauthorized', 'Sign in again to continue.', BEARER);
const sessionExpired = () =>
  new HttpError(401, 'session_expired', 'Your session has ended. Sign in again to continue.', BEARER);
const enrolmentRequired = () =>
  new HttpError(
    403,
    'mfa_enrolment_required',
    'Set up a passkey or an authenticator app on your account page before you continue.',
  );
const forbidden = () => new HttpError(403, 'forbidden', 'Your role does not allow this.');

/**
 * The bearer token of the request. Tokens in the query string are refused outright: URLs end up in logs,
 * history and Referer headers.
 */
export function bearerToken(req: Request): string {
  const params = new URL(req.url).searchParams;
  if (QUERY_TOKEN_NAMES.some((name) => params.has(name))) {
    throw new HttpError(
      400,
      'token_in_query',
      'Send the token in the Authorization header, never in the address.',
    );
  }
  const match = /^Bearer +(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!match?.[1] || !JWT_SHAPE.test(match[1])) throw unauthorized();
  return match[1];
}

/** A signed-in account with the session its token names. */
export type SignedIn = Admin & { session: Session; tokenIssuedAtMs: number };

interface GuardOptions {
  /** Roles allowed; omitted: any fully signed-in account. */
  roles?: readonly Role[];
  /** Whether a session that may only enrol a factor is enough (the account pages and logout). */
  enrolment?: boolean;
}

async function authenticate(
  req: Request,
  db: Queryable,
  options: GuardOptions,
  seen: { admin?: Admin; live?: boolean },
): Promise<SignedIn> {
  const secret = jwtSecret();
  refuseForeignOrigin(req);
  const token = bearerToken(req);
  const claims = await verifyAdminToken(token, secret);
  if (!claims) throw unauthorized();
  const admin = await findAdminById(db, claims.adminId);
  if (!admin || claims.issuedAtMs <= admin.tokensValidAfter.getTime()) throw unauthorized();
  seen.admin = admin;
  if (admin.status !== 'active') throw unauthorized();
  const session = await findSession(db, claims.sessionId);
  if (!session || session.adminId !== admin.id) throw unauthorized();
  const now = new Date();
  // An enrolment session ends once the account has a factor: from then on only the second step signs in.
  if (!isLive(session, now) || (session.level === 'enrol' && hasFactor(admin))) throw sessionExpired();
  seen.live = true;
  if (session.level === 'enrol' && !options.enrolment) throw enrolmentRequired();
  if (options.roles && !options.roles.includes(admin.role)) throw forbidden();
  await touchSession(db, session, now);
  return { ...admin, session, tokenIssuedAtMs: claims.issuedAtMs };
}

/**
 * Writes a refused call to the activity log: a row when a live session was refused, else a count in the
 * network's tally. The log entry failing never hides the refusal itself.
 */
async function recordRefusal(
  db: Db,
  req: Request,
  context: Pick<RequestContext, 'ip'> | undefined,
  status: number,
  seen: { admin?: Admin; live?: boolean },
): Promise<void> {
  const entry = {
    action: status === 401 ? ('http.401' as const) : ('http.403' as const),
    target: `${req.method} ${new URL(req.url).pathname}`,
    ip: context?.ip,
  };
  const actor = seen.live && seen.admin ? { id: seen.admin.id, email: seen.admin.email } : undefined;
  await (actor ? recordActivity(db, { ...entry, actor }) : tallyRefusal(db, entry)).catch((error: unknown) =>
    console.error('[auth] the activity log refused an entry:', loggable(error)),
  );
}

async function guard(
  req: Request,
  db: Db,
  context: Pick<RequestContext, 'ip'> | undefined,
  options: GuardOptions,
): Promise<SignedIn> {
  const seen: { admin?: Admin; live?: boolean } = {};
  try {
    return await authenticate(req, db, options, seen);
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403))
      await recordRefusal(db, req, context, error.status, seen);
    throw error;
  }
}

/**
 * Guard for admin handlers: resolves to the signed-in account, or throws 403 `foreign_origin` for a state
 * change from a foreign `Origin`, 401 for a missing, bad or revoked token or a disabled account, 401
 * `session_expired` for an ended session, 403 `mfa_enrolment_required` for a session without a second factor
 * and 403 `forbidden` for a role outside `roles`.
 * @example const admin = await requireAdmin(req, db, ['owner', 'editor'], context);
 */
export function requireAdmin(
  req: Request,
  db: Db,
  roles?: readonly Role[],
  context?: Pick<RequestContext, 'ip'>,
): Promise<SignedIn> {
  return guard(req, db, context, { roles });
}

/** Guard for the account pages and logout: a session that may only enrol a factor is enough. */
export function requireAccount(
  req: Request,
  db: Db,
  context?: Pick<RequestContext, 'ip'>,
): Promise<SignedIn> {
  return guard(req, db, context, { enrolment: true });
}

/** Who may do what (issue 23): the owner everything, the editor the list and the issues, sales the inquiries. */
export const ROLES_FOR = {
  subscribers: ['owner', 'editor'],
  campaigns: ['owner', 'editor'],
  inquiries: ['owner', 'sales'],
  team: ['owner'],
  activity: ['owner'],
  insights: ['owner', 'editor'],
  suppressions: ['owner', 'editor'],
  /** Lifting a bounce suppression lets mail reach an address again: the owner's call alone. */
  liftSuppression: ['owner'],
} as const satisfies Record<string, readonly Role[]>;

/**
 * Starts a session for `admin` and returns its bearer token. A session that `continues` another (after a
 * factor or password change) keeps its start and absolute end: a change never extends a token's life.
 */
export async function startSession(
  db: Queryable,
  admin: Pick<Admin, 'id' | 'tokensValidAfter'>,
  level: SessionLevel,
  ip: string | undefined,
  continues?: Pick<Session, 'createdAt' | 'expiresAt'>,
): Promise<{ token: string; session: Session }> {
  const session = await createSession(db, {
    adminId: admin.id,
    level,
    client: truncatedAddress(ip),
    span: continues && { createdAt: continues.createdAt, expiresAt: continues.expiresAt },
  });
  const token = await signAdminToken(admin.id, session.id, jwtSecret(), admin.tokensValidAfter);
  return { token, session };
}
