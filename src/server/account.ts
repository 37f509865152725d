/**
 * /api/account/*: what each person does for themselves — name, password, second factors, recovery codes and
 * sessions. A session that may only enrol a factor reaches these calls (and nothing else); enrolling the first
 * factor ends it and starts a full session, whose token the reply carries. Every change of a factor or of the
 * recovery codes asks again for the current password or an authenticator code ({@link confirmIdentity}), so a
 * stolen session token alone changes none of them; and a session started by such a change keeps the start
 * and absolute end of the one it replaces, so no change extends a token's life.
 */
import { validate, type FieldErrors } from '../lib/schemas.ts';
import {
  accountNameSchema,
  passkeyRegisterSchema,
  passwordChangeSchema,
  reauthSchema,
  totpConfirmSchema,
} from '../lib/team-schema.ts';
import { requireAccount, startSession, type SignedIn } from './auth.ts';
import { database } from './config.ts';
import type { Db, Queryable } from './db/index.ts';
import {
  decryptSecret,
  encryptSecret,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpStep,
} from './factors.ts';
import { HttpError, json, noContent, readJson, readText, type Handler, type RequestContext } from './http.ts';
import { registrationOptions, verifyRegistration } from './passkeys.ts';
import { DECOY_HASH, hashPassword, verifyPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { rowId } from './query.ts';
import { reserveTry, tryFailed, trySucceeded, type Step } from './lockout.ts';
import { hit, LOGIN_PER_IP, release } from './rate-limit.ts';
import { recordActivity, type ActivityAction } from './repositories/activity.ts';
import { findAdminById, hasFactor, setName, setPassword, type Admin } from './repositories/admins.ts';
import {
  confirmTotp,
  insertPasskey,
  passkeysOf,
  removeFactor,
  replaceRecoveryCodes,
  setPendingTotp,
  totpOf,
  useTotpStep,
} from './repositories/factors.ts';
import {
  IDLE_TIMEOUT_SECONDS,
  liveSessions,
  revokeSession,
  revokeSessions,
  setSessionChallenge,
  takeSessionChallenge,
} from './repositories/sessions.ts';

const BODY_LIMIT = 4 * 1024;
/** A passkey registration carries an attestation object; 'none' attestation keeps it small. */
const PASSKEY_BODY_LIMIT = 64 * 1024;

const invalid = (message: string, fields: FieldErrors) =>
  new HttpError(400, 'validation_failed', message, { fields });
const stepLocked = () =>
  new HttpError(
    423,
    'account_locked',
    'Too many wrong tries in a row: this is locked. The link mailed to your address unlocks it.',
  );
const lastFactor = () =>
  new HttpError(
    409,
    'last_factor',
    'Add another passkey or an authenticator app before you remove this one.',
  );

async function log(
  db: Queryable,
  admin: Pick<Admin, 'id' | 'email'>,
  action: ActivityAction,
  context: RequestContext,
  target?: string,
) {
  await recordActivity(db, { actor: { id: admin.id, email: admin.email }, action, target, ip: context.ip });
}

/** What the person typed to confirm it is them: the current password or a code from their authenticator. */
export interface Proof {
  currentPassword?: string;
  code?: string;
}

/**
 * Checks `proof` for a signed-in account, counted like a sign-in: from the network (the password limit) and on
 * the account's hard cap of the step it proves (src/server/lockout.ts). Throws 400 with the field at fault,
 * 423 when that step is locked, 429 when the network is over its limit.
 */
export async function confirmIdentity(
  db: Db,
  admin: SignedIn,
  proof: Proof,
  context: RequestContext,
): Promise<void> {
  const now = new Date();
  const fromIp = await hit(db, LOGIN_PER_IP, context.ip, now);
  if (fromIp.count > LOGIN_PER_IP.max) {
    throw new HttpError(429, 'rate_limited', 'Too many failed attempts from your network. Try again later.', {
      headers: { 'retry-after': String(fromIp.retryAfter) },
    });
  }
  const step: Step = proof.code === undefined ? 'password' : 'mfa';
  if (!(await reserveTry(db, admin.id, step))) throw stepLocked();
  const right =
    step === 'password'
      ? await verifyPassword(proof.currentPassword ?? '', admin.passwordHash ?? DECOY_HASH)
      : await totpCodeIsRight(db, admin.id, proof.code ?? '');
  if (!right) {
    await tryFailed(db, admin, step, context);
    throw step === 'password'
      ? invalid('Your current password is not right.', {
          currentPassword: 'This is not your current password.',
        })
      : invalid('That code did not work.', { code: 'That code did not work. Try the newest one.' });
  }
  await release(db, LOGIN_PER_IP, context.ip, now);
  await trySucceeded(db, admin.id, step);
}

/** A fresh code of the account's confirmed TOTP secret; each step is accepted once, as at sign-in. */
async function totpCodeIsRight(db: Queryable, adminId: number, code: string): Promise<boolean> {
  const totp = await totpOf(db, adminId);
  const secret = totp?.encryptedSecret ? decryptSecret(totp.encryptedSecret) : undefined;
  const step = secret === undefined ? undefined : totpStep(secret, code.replace(/\s/g, ''));
  return step !== undefined && (await useTotpStep(db, adminId, step));
}

/** Reads the proof that is a call's whole body, then checks it. */
async function proven(req: Request, db: Db, admin: SignedIn, context: RequestContext): Promise<void> {
  const parsed = validate(reauthSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok)
    throw invalid('Confirm it is you with your password or an authenticator code.', parsed.fields);
  await confirmIdentity(db, admin, parsed.data, context);
}

/** GET /api/account: the account as its owner sees it. */
export async function accountView(db: Queryable, admin: SignedIn) {
  const fresh = (await findAdminById(db, admin.id)) ?? admin;
  const passkeys = await passkeysOf(db, admin.id);
  return {
    id: fresh.id,
    email: fresh.email,
    name: fresh.name,
    role: fresh.role,
    status: fresh.status,
    enrol: admin.session.level === 'enrol',
    factors: {
      totp: fresh.totp,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        createdAt: p.createdAt,
        lastUsedAt: p.lastUsedAt,
      })),
      recoveryCodesLeft: fresh.recoveryCodesLeft,
    },
    session: {
      id: admin.session.id,
      createdAt: admin.session.createdAt,
      idleTimeoutSeconds: IDLE_TIMEOUT_SECONDS,
      expiresAt: admin.session.expiresAt,
    },
  };
}

export const getAccount: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  return json(200, await accountView(db, admin));
};

export const updateAccount: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const parsed = validate(accountNameSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok) throw invalid('Check your name and send it again.', parsed.fields);
  await setName(db, admin.id, parsed.data.name);
  return json(200, await accountView(db, admin));
};

/**
 * After a factor was added: the first factor brings ten recovery codes, and the session continues as a full
 * one under a new token (the enrolment session, or the one that added the factor, ends), with the old one's
 * start and absolute end. A factor that replaced another (a new authenticator app for the old one) ends every
 * other session too, as removing one does: a session the old phone opened does not outlast it.
 */
async function afterFactorAdded(
  db: Db,
  admin: SignedIn,
  context: RequestContext,
  factor: string,
  replaced = false,
) {
  const first = !hasFactor(admin);
  let recoveryCodes: string[] = [];
  if (first) {
    recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(db, admin.id, recoveryCodes.map(recoveryCodeHash));
  }
  if (replaced) await revokeSessions(db, admin.id);
  else await revokeSession(db, admin.session.id);
  const { token } = await startSession(db, admin, 'full', context.ip, admin.session);
  await log(db, admin, 'account.factor_added', context, factor);
  return { token, recoveryCodes };
}

/**
 * POST /api/account/totp {currentPassword | code} → {secret, uri}: a new secret to scan or type; it counts once
 * a code confirms it. Only a proven call gets a secret, so only it can confirm one.
 */
export const startTotp: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await proven(req, db, admin, context);
  const { secret, uri } = newTotpSecret(admin.email);
  await setPendingTotp(db, admin.id, encryptSecret(secret));
  return json(200, { secret, uri });
};

/** POST /api/account/totp/confirm {code} → {token, recoveryCodes}. */
export const confirmTotpHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const parsed = validate(totpConfirmSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok) throw invalid('Enter the six digits your app shows.', parsed.fields);
  const totp = await totpOf(db, admin.id);
  if (!totp?.encryptedPending) {
    throw new HttpError(409, 'no_pending_totp', 'Start again: ask for a new secret to scan first.');
  }
  const pending = decryptSecret(totp.encryptedPending);
  if (pending === undefined) {
    throw new HttpError(409, 'no_pending_totp', 'Start again: ask for a new secret to scan first.');
  }
  const step = totpStep(pending, parsed.data.code.replace(/\s/g, ''));
  if (step === undefined || !(await confirmTotp(db, admin.id, step))) {
    throw invalid('That code did not match.', {
      code: 'That code did not match. Check the app’s clock and try the next code.',
    });
  }
  return json(200, await afterFactorAdded(db, admin, context, 'authenticator app', admin.totp));
};

/** DELETE /api/account/totp {currentPassword | code} → 204, or 409 `last_factor`. */
export const removeTotpHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await proven(req, db, admin, context);
  const outcome = await removeFactor(db, admin.id, { kind: 'totp' });
  if (outcome === 'missing')
    throw new HttpError(404, 'not_found', 'There is no authenticator app on this account.');
  if (outcome === 'last') throw lastFactor();
  await revokeSessions(db, admin.id, { exceptId: admin.session.id });
  await log(db, admin, 'account.factor_removed', context, 'authenticator app');
  return noContent();
};

/**
 * POST /api/account/passkeys/options {currentPassword | code} → WebAuthn creation options; the challenge waits
 * in the session, and only a proven call leaves one there for POST /api/account/passkeys to register with.
 */
export const passkeyOptions: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await proven(req, db, admin, context);
  const options = await registrationOptions(req, admin, await passkeysOf(db, admin.id));
  await setSessionChallenge(db, admin.session.id, options.challenge);
  return json(200, options);
};

/** POST /api/account/passkeys {response, name?} → 201 {id, token, recoveryCodes}. */
export const addPasskey: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const parsed = validate(passkeyRegisterSchema, await readJson(req, PASSKEY_BODY_LIMIT));
  if (!parsed.ok) throw invalid('Send the passkey response from the browser.', parsed.fields);
  const challenge = await takeSessionChallenge(db, admin.session.id);
  if (!challenge) throw new HttpError(409, 'no_challenge', 'Start again: ask for passkey options first.');
  const credential = await verifyRegistration(req, parsed.data.response, challenge);
  if (!credential)
    throw new HttpError(400, 'passkey_invalid', 'The passkey could not be verified. Try again.');
  const name = parsed.data.name || `Passkey ${new Date().toISOString().slice(0, 10)}`;
  const id = await insertPasskey(db, admin.id, { ...credential, name });
  if (id === undefined) throw new HttpError(409, 'passkey_taken', 'This passkey is registered already.');
  const result = await afterFactorAdded(db, admin, context, `passkey ${name}`);
  return json(201, { id, ...result });
};

/** DELETE /api/account/passkeys/{id} {currentPassword | code} → 204, or 409 `last_factor`. */
export const removePasskey: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const id = rowId(context.params.id);
  await proven(req, db, admin, context);
  const mine = (await passkeysOf(db, admin.id)).find((p) => p.id === id);
  const outcome = mine && (await removeFactor(db, admin.id, { kind: 'passkey', id }));
  if (!mine || outcome === 'missing')
    throw new HttpError(404, 'not_found', `There is no passkey with id ${id} on your account.`);
  if (outcome === 'last') throw lastFactor();
  await revokeSessions(db, admin.id, { exceptId: admin.session.id });
  await log(db, admin, 'account.factor_removed', context, `passkey ${mine.name}`);
  return noContent();
};

/**
 * POST /api/account/recovery-codes {currentPassword | code} → {recoveryCodes}: ten new codes; the old ones stop
 * working.
 */
export const renewRecoveryCodes: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await proven(req, db, admin, context);
  if (!hasFactor(admin))
    throw new HttpError(409, 'no_factor', 'Set up a passkey or an authenticator app first.');
  const recoveryCodes = newRecoveryCodes();
  await replaceRecoveryCodes(db, admin.id, recoveryCodes.map(recoveryCodeHash));
  await log(db, admin, 'account.recovery_codes', context);
  return json(200, { recoveryCodes });
};

/**
 * POST /api/account/password {currentPassword, password} → {token}: every other session ends; this one goes on
 * under the new token, with its start and absolute end. A wrong current password counts like a failed
 * sign-in, on the network and on the account's cap.
 */
export const changePassword: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const parsed = validate(passwordChangeSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok) throw invalid('Check the passwords and send them again.', parsed.fields);
  await confirmIdentity(db, admin, { currentPassword: parsed.data.currentPassword }, context);
  const problem = passwordProblem(parsed.data.password, admin.email);
  if (problem) throw invalid(problem, { password: problem });
  await setPassword(db, admin.id, await hashPassword(parsed.data.password));
  await revokeSessions(db, admin.id);
  const fresh = (await findAdminById(db, admin.id))!;
  const { token } = await startSession(db, fresh, admin.session.level, context.ip, admin.session);
  await log(db, admin, 'auth.password_changed', context);
  return json(200, { token });
};

/** GET /api/account/sessions: the account's live sessions, this one marked. */
export const listSessions: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  const sessions = await liveSessions(db, admin.id);
  return json(
    200,
    sessions.map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
      current: s.id === admin.session.id,
      client: s.client,
    })),
  );
};

/** POST /api/account/sessions/revoke-all → 204: "sign out everywhere", this session included. */
export const revokeAllSessions: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAccount(req, db, context);
  await readText(req, 1024);
  await revokeSessions(db, admin.id);
  await log(db, admin, 'auth.sessions_revoked', context);
  return noContent();
};
