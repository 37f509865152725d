/** POST /admin/login and POST /admin/logout. */
import { setTimeout as sleep } from 'node:timers/promises';
import { loginSchema, validate } from '../lib/schemas.ts';
import { requireAdmin } from './auth.ts';
import { database, jwtSecret } from './config.ts';
import { HttpError, json, noContent, readJson, type Handler } from './http.ts';
import { accountDelayMs, clear, hit, LOGIN_PER_ACCOUNT, LOGIN_PER_IP, peek } from './rate-limit.ts';
import { decoyHash, verifyPassword } from './password.ts';
import { findAdminByEmail, revokeTokens } from './repositories/admins.ts';
import { signAdminToken } from './tokens.ts';

/** Room for a 254-character e-mail and a 1,024-character password, JSON-escaped. */
export const LOGIN_BODY_LIMIT = 8 * 1024;

const wrongCredentials = () =>
  new HttpError(401, 'invalid_credentials', 'The e-mail address or password is incorrect.');

export const login: Handler = async (req, context) => {
  const secret = jwtSecret();
  const body = await readJson(req, LOGIN_BODY_LIMIT);
  const parsed = validate(loginSchema, body);
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Enter your e-mail address and password.', {
      fields: parsed.fields,
    });
  }
  const { email, password } = parsed.data;
  const db = database();

  const fromIp = await peek(db, LOGIN_PER_IP, context.ip);
  if (fromIp.count >= LOGIN_PER_IP.max) {
    throw new HttpError(429, 'rate_limited', 'Too many failed sign-ins from your network. Try again later.', {
      headers: { 'retry-after': String(fromIp.retryAfter) },
    });
  }
  const account = email.toLowerCase();
  await sleep(accountDelayMs((await peek(db, LOGIN_PER_ACCOUNT, account)).count));

  const admin = await findAdminByEmail(db, email);
  // An unknown address pays for a full hash check too, so timing does not reveal which addresses exist.
  const matches = await verifyPassword(password, admin?.passwordHash ?? (await decoyHash()));
  if (!admin || !matches) {
    await hit(db, LOGIN_PER_IP, context.ip);
    await hit(db, LOGIN_PER_ACCOUNT, account);
    throw wrongCredentials();
  }
  await clear(db, LOGIN_PER_ACCOUNT, account);
  return json(200, { token: await signAdminToken(admin.id, secret, admin.tokensValidAfter) });
};

export const logout: Handler = async (req) => {
  const db = database();
  const admin = await requireAdmin(req, db);
  // Revoke up to this token's own issue time too, in case it was stamped ahead of this clock.
  await revokeTokens(db, admin.id, new Date(Math.max(Date.now(), admin.tokenIssuedAtMs)));
  return noContent();
};
