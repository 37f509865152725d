/** POST /admin/login and POST /admin/logout. */
import { setTimeout as sleep } from 'node:timers/promises';
import { loginSchema, validate } from '../lib/schemas.ts';
import { requireAdmin } from './auth.ts';
import { database, jwtSecret } from './config.ts';
import { HttpError, json, noContent, readJson, type Handler } from './http.ts';
import { accountDelayMs, clear, hit, LOGIN_PER_ACCOUNT, LOGIN_PER_IP, release } from './rate-limit.ts';
import { DECOY_HASH, verifyPassword } from './password.ts';
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

  // Every attempt is counted before its password is checked, so parallel guesses cannot all pass a count
  // read before any of them was recorded; a success takes its count back.
  const now = new Date();
  const fromIp = await hit(db, LOGIN_PER_IP, context.ip, now);
  if (fromIp.count > LOGIN_PER_IP.max) {
    throw new HttpError(429, 'rate_limited', 'Too many failed sign-ins from your network. Try again later.', {
      headers: { 'retry-after': String(fromIp.retryAfter) },
    });
  }
  const account = email.toLowerCase();
  const earlierFailures = (await hit(db, LOGIN_PER_ACCOUNT, account, now)).count - 1;
  await sleep(accountDelayMs(earlierFailures));

  const admin = await findAdminByEmail(db, email);
  // An unknown address pays for one full hash check too, so timing does not reveal which addresses exist.
  const matches = await verifyPassword(password, admin?.passwordHash ?? DECOY_HASH);
  if (!admin || !matches) throw wrongCredentials();
  await release(db, LOGIN_PER_IP, context.ip, now);
  await clear(db, LOGIN_PER_ACCOUNT, account, now);
  return json(200, { token: await signAdminToken(admin.id, secret, admin.tokensValidAfter) });
};

export const logout: Handler = async (req) => {
  const db = database();
  const admin = await requireAdmin(req, db);
  // Revoke up to this token's own issue time too, in case it was stamped ahead of this clock.
  await revokeTokens(db, admin.id, new Date(Math.max(Date.now(), admin.tokenIssuedAtMs)));
  return noContent();
};
