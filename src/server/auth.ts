/** Who may call the admin functions: a valid bearer token of an existing admin, issued after its last logout. */
import { jwtSecret } from './config.ts';
import type { Queryable } from './db/index.ts';
import { HttpError, refuseForeignOrigin } from './http.ts';
import { findAdminById, type Admin } from './repositories/admins.ts';
import { verifyAdminToken } from './tokens.ts';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const QUERY_TOKEN_NAMES = ['token', 'access_token', 'jwt', 'auth'];

const unauthorized = () =>
  new HttpError(401, 'unauthorized', 'Sign in again to continue.', {
    headers: { 'www-authenticate': 'Bearer' },
  });

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

/**
 * Guard for admin handlers: resolves to the admin, or throws a 403 problem for a state change from a foreign
 * `Origin` and a 401 problem for a missing, bad or revoked token.
 * @example const admin = await requireAdmin(req, db);
 */
export async function requireAdmin(
  req: Request,
  db: Queryable,
): Promise<Admin & { tokenIssuedAtMs: number }> {
  const secret = jwtSecret();
  refuseForeignOrigin(req);
  const token = bearerToken(req);
  const claims = await verifyAdminToken(token, secret);
  if (!claims) throw unauthorized();
  const admin = await findAdminById(db, claims.adminId);
  if (!admin || claims.issuedAtMs <= admin.tokensValidAfter.getTime()) throw unauthorized();
  return { ...admin, tokenIssuedAtMs: claims.issuedAtMs };
}
