/**
 * Signing in and out. POST /admin/login checks the password (SPEC: the form and its 401 as before); an account
 * with a second factor gets a ticket for POST /admin/login/mfa (TOTP or a recovery code) or
 * POST /admin/login/passkey, an account without one a session that may only enrol a factor. Both steps count
 * failures per network (src/server/rate-limit.ts) and, per account, lock after ten failures in a row
 * (src/server/lockout.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { loginSchema, validate } from '../lib/schemas.ts';
import { mfaSchema, passkeyLoginSchema, ticketSchema } from '../lib/team-schema.ts';
import { requireAccount, startSession } from './auth.ts';
import { database, jwtSecret } from './config.ts';
import type { Db } from './db/index.ts';
import { decryptSecret, recoveryCodeHash, totpStep } from './factors.ts';
import { HttpError, json, noContent, readJson, type Handler, type RequestContext } from './http.ts';
import { reserveTry, tryFailed, trySucceeded } from './lockout.ts';
import { authenticationOptions, verifyAuthentication } from './passkeys.ts';
import { hit, LOGIN_PER_IP, release, type Limit } from './rate-limit.ts';
import { DECOY_HASH, verifyPassword } from './password.ts';
import { recordActivity, tallyRefusal } from './repositories/activity.ts';
import {
  findAdminByEmail,
  findAdminById,
  hasFactor,
  markSignedIn,
  type Admin,
} from './repositories/admins.ts';
import { passkeysOf, totpOf, usePasskey, useRecoveryCode, useTotpStep } from './repositories/factors.ts';
import { insertTicket, liveTicket, setChallenge, spendTry, useTicket } from './repositories/mfa-tickets.ts';
import { revokeSession } from './repositories/sessions.ts';

/** Room for a 254-character e-mail and a 1,024-character password, JSON-escaped. */
export const LOGIN_BODY_LIMIT = 8 * 1024;
/** A passkey assertion with its authenticator data and signature stays far below this. */
export const MFA_BODY_LIMIT = 16 * 1024;

/** Second step: ten failed codes per network in 15 minutes, as for passwords. */
export const MFA_PER_IP: Limit = { scope: 'mfa-ip', max: 10, windowSeconds: 15 * 60 };

const wrongCredentials = () =>
  new HttpError(401, 'invalid_credentials', 'The e-mail address or password is incorrect.');
const ticketEnded = () =>
  new HttpError(401, 'ticket_expired', 'This sign-in has expired or had too many tries. Sign in again.');
const wrongCode = () => new HttpError(401, 'invalid_code', 'That code did not work. Check it and try again.');
const stepLocked = () =>
  new HttpError(
    423,
    'account_locked',
    'Too many wrong codes in a row: the second step is locked. The link mailed to the account unlocks it.',
  );

const actor = (admin: Pick<Admin, 'id' | 'email'> | undefined) =>
  admin ? { id: admin.id, email: admin.email } : null;
const ticketHash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** Counts an attempt from the caller's network first; over the limit it is logged and answered 429. */
async function countFromNetwork(db: Db, limit: Limit, req: Request, context: RequestContext, now: Date) {
  const fromIp = await hit(db, limit, context.ip, now);
  if (fromIp.count <= limit.max) return;
  await tallyRefusal(db, { action: 'http.429', target: `POST ${new URL(req.url).pathname}`, ip: context.ip });
  throw new HttpError(429, 'rate_limited', 'Too many failed sign-ins from your network. Try again later.', {
    headers: { 'retry-after': String(fromIp.retryAfter) },
  });
}

export const login: Handler = async (req, context) => {
  jwtSecret(); // fail closed (503) before anything is counted or checked
  const body = await readJson(req, LOGIN_BODY_LIMIT);
  const parsed = validate(loginSchema, body);
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Enter your e-mail address and password.', {
      fields: parsed.fields,
    });
  }
  const { email, password } = parsed.data;
  const db = database();

  // Every attempt is counted before its password is checked, from the network and on the account, so
  // parallel guesses cannot all pass a count read before any of them was recorded; a success takes its
  // network count back and sets the account's to 0.
  const now = new Date();
  await countFromNetwork(db, LOGIN_PER_IP, req, context, now);
  const found = await findAdminByEmail(db, email);
  const admin = found?.status === 'active' ? found : undefined;
  const open = admin ? await reserveTry(db, admin.id, 'password') : false;
  // An unknown address pays for one full hash check against the decoy and a locked account for one against
  // its own hash, whose outcome is ignored: neither the reply nor its time tells them from a wrong password,
  // and a locked account never confirms a guess.
  const matches = (await verifyPassword(password, admin?.passwordHash ?? DECOY_HASH)) && open;
  if (!admin || !open || !matches) {
    if (admin && open) await tryFailed(db, admin, 'password', context);
    // An unknown address is not written down: people type passwords into the e-mail field. Tries anyone can
    // repeat without end (an unknown address, a locked account) are tallied, not written one row each.
    if (found && (!admin || open)) {
      await recordActivity(db, {
        actor: actor(found),
        action: 'auth.sign_in_failed',
        target: 'password',
        ip: context.ip,
      });
    } else {
      const target = found ? 'locked account' : 'unknown address';
      await tallyRefusal(db, { action: 'auth.sign_in_failed', target, ip: context.ip });
    }
    throw wrongCredentials();
  }
  await release(db, LOGIN_PER_IP, context.ip, now);
  await trySucceeded(db, admin.id, 'password');
  await recordActivity(db, {
    actor: actor(admin),
    action: 'auth.sign_in',
    target: 'password',
    ip: context.ip,
  });

  if (!hasFactor(admin)) {
    const { token } = await startSession(db, admin, 'enrol', context.ip);
    await markSignedIn(db, admin.id);
    return json(200, { token, enrol: true });
  }
  const ticket = randomBytes(32).toString('base64url');
  await insertTicket(db, admin.id, ticketHash(ticket), now);
  const methods = [
    ...((await totpUsable(db, admin.id)) ? ['totp'] : []),
    ...(admin.passkeys > 0 ? ['passkey'] : []),
    'recovery',
  ];
  return json(200, { mfa: { ticket, methods } });
};

/** Whether the account has a TOTP secret the server can still open (see decryptSecret). */
async function totpUsable(db: Db, adminId: number): Promise<boolean> {
  const totp = await totpOf(db, adminId);
  return !!totp?.encryptedSecret && decryptSecret(totp.encryptedSecret) !== undefined;
}

type Proof = (admin: Admin) => Promise<string | undefined>;

/**
 * The second step: spends one of the ticket's tries, checks the factor with `prove` (which names the method
 * on success), and on success ends the ticket and starts a full session.
 */
async function secondStep(
  req: Request,
  context: RequestContext,
  ticket: string,
  prove: Proof,
  spend: (db: Db, hash: string, now: Date) => ReturnType<typeof spendTry> = spendTry,
): Promise<Response> {
  const db = database();
  const now = new Date();
  await countFromNetwork(db, MFA_PER_IP, req, context, now);
  const hash = ticketHash(ticket);
  const spent = await spend(db, hash, now);
  const admin = spent && (await findAdminById(db, spent.adminId));
  if (!spent || !admin || admin.status !== 'active') {
    // An unknown or spent ticket is anyone's to send again and again: tallied.
    await tallyRefusal(db, { action: 'auth.mfa_failed', target: 'ticket', ip: context.ip });
    throw ticketEnded();
  }
  if (!(await reserveTry(db, admin.id, 'mfa'))) {
    await tallyRefusal(db, { action: 'auth.mfa_failed', target: 'locked account', ip: context.ip });
    throw stepLocked();
  }
  const method = await prove(admin);
  if (!method || !(await useTicket(db, hash))) {
    await tryFailed(db, admin, 'mfa', context);
    await recordActivity(db, {
      actor: actor(admin),
      action: 'auth.mfa_failed',
      target: method ?? 'code',
      ip: context.ip,
    });
    throw wrongCode();
  }
  await release(db, MFA_PER_IP, context.ip, now);
  await trySucceeded(db, admin.id, 'mfa');
  const { token } = await startSession(db, admin, 'full', context.ip);
  await markSignedIn(db, admin.id);
  await recordActivity(db, { actor: actor(admin), action: 'auth.mfa', target: method, ip: context.ip });
  return json(200, { token });
}

/** POST /admin/login/mfa {ticket, method: "totp" | "recovery", code} → 200 {token}. */
export const loginMfa: Handler = async (req, context) => {
  jwtSecret();
  const parsed = validate(mfaSchema, await readJson(req, MFA_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Enter the code from your app or a recovery code.', {
      fields: parsed.fields,
    });
  }
  const { ticket, method, code } = parsed.data;
  const db = database();
  return secondStep(req, context, ticket, async (admin) => {
    if (method === 'recovery') {
      return (await useRecoveryCode(db, admin.id, recoveryCodeHash(code))) ? 'recovery code' : undefined;
    }
    const totp = await totpOf(db, admin.id);
    // A secret no configured key opens (JWT_SECRET rotated without FACTOR_KEY) is a factor that cannot pass.
    const secret = totp?.encryptedSecret ? decryptSecret(totp.encryptedSecret) : undefined;
    if (secret === undefined) return undefined;
    const step = totpStep(secret, code.replace(/\s/g, ''));
    // A code is good for one sign-in: its step, or an earlier one, is refused from then on.
    return step !== undefined && (await useTotpStep(db, admin.id, step)) ? 'authenticator app' : undefined;
  });
};

/** POST /admin/login/passkey/options {ticket} → 200 WebAuthn request options for the account's passkeys. */
export const passkeyLoginOptions: Handler = async (req) => {
  const parsed = validate(ticketSchema, await readJson(req, MFA_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Send the sign-in ticket.', { fields: parsed.fields });
  }
  const db = database();
  const hash = ticketHash(parsed.data.ticket);
  const ticket = await liveTicket(db, hash);
  if (!ticket) throw ticketEnded();
  const passkeys = await passkeysOf(db, ticket.adminId);
  if (passkeys.length === 0) throw new HttpError(409, 'no_passkey', 'This account has no passkey.');
  const options = await authenticationOptions(req, passkeys);
  await setChallenge(db, hash, options.challenge);
  return json(200, options);
};

/** POST /admin/login/passkey {ticket, response} → 200 {token}. */
export const passkeyLogin: Handler = async (req, context) => {
  const parsed = validate(passkeyLoginSchema, await readJson(req, MFA_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Send the ticket and the passkey response.', {
      fields: parsed.fields,
    });
  }
  const db = database();
  let challenge: string | null = null;
  return secondStep(
    req,
    context,
    parsed.data.ticket,
    async (admin) => {
      if (!challenge) return undefined;
      const verified = await verifyAuthentication(
        req,
        parsed.data.response,
        challenge,
        await passkeysOf(db, admin.id),
      );
      return verified && (await usePasskey(db, verified.passkey.id, verified.counter))
        ? 'passkey'
        : undefined;
    },
    async (db, hash, now) => {
      const spent = await spendTry(db, hash, now);
      challenge = spent?.challenge ?? null;
      return spent;
    },
  );
};

/** POST /admin/logout: ends this session. "Sign out everywhere" is POST /api/account/sessions/revoke-all. */
export const logout: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await revokeSession(db, admin.session.id);
  await recordActivity(db, { actor: actor(admin), action: 'auth.sign_out', ip: context.ip });
  return noContent();
};
