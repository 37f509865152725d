/**
 * The link pages' calls, without a bearer token: an invitation is inspected and accepted, a password reset is
 * asked for and confirmed. A reset request answers 202 with the same body and the same work before the reply
 * whether or not the address has an account (the account is looked up after it); a reset ends every session
 * and sign-in ticket of the account, never skips the second factor, and unlocks the account
 * (src/server/lockout.ts): the unlock link mailed at a lock is a reset link that lives a day.
 */
import { validate } from '../lib/schemas.ts';
import {
  acceptInvitationSchema,
  linkTokenSchema,
  resetConfirmSchema,
  resetRequestSchema,
} from '../lib/team-schema.ts';
import { createAccountLink, openLink } from './account-links.ts';
import { startSession } from './auth.ts';
import { database, jwtSecret } from './config.ts';
import { HttpError, json, readJson, type Handler } from './http.ts';
import { unlockAccount } from './lockout.ts';
import { afterReply } from './mail/kick.ts';
import { hashPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { hit, type Limit } from './rate-limit.ts';
import { useLink } from './repositories/admin-links.ts';
import { recordActivity, tallyRefusal } from './repositories/activity.ts';
import { findAdminByEmail, findAdminById, setName, setPassword } from './repositories/admins.ts';
import { enqueueMail } from './repositories/outbox.ts';
import { revokeSessions } from './repositories/sessions.ts';

const BODY_LIMIT = 4 * 1024;

/** Reset requests: five per network in 15 minutes, so the form cannot be used to flood an inbox. */
export const RESET_PER_IP: Limit = { scope: 'reset-ip', max: 5, windowSeconds: 15 * 60 };

/** What every reset request hears, whether or not the address has an account. */
export const RESET_REQUESTED = {
  message:
    'If this address belongs to an account, a link to choose a new password is on its way. It works for 30 minutes.',
};

const linkGone = () =>
  new HttpError(410, 'link_expired', 'This link has expired or has been used. Ask for a new one.');

function checked<T>(
  result: { ok: true; data: T } | { ok: false; fields: Record<string, string> },
  message: string,
): T {
  if (!result.ok) throw new HttpError(400, 'validation_failed', message, { fields: result.fields });
  return result.data;
}

/** POST /admin/invite/inspect {token} → 200 {email, role}, or 410 for a link that no longer works. */
export const inspectInvitation: Handler = async (req) => {
  jwtSecret();
  const { token } = checked(
    validate(linkTokenSchema, await readJson(req, BODY_LIMIT)),
    'Send the link’s token.',
  );
  const db = database();
  const link = await openLink(db, 'invite', token);
  const admin = link && (await findAdminById(db, link.adminId));
  if (!admin || admin.status !== 'invited') throw linkGone();
  return json(200, { email: admin.email, role: admin.role });
};

/** POST /admin/invite/accept {token, password, name?} → 200 {token, enrol: true}: next, a second factor. */
export const acceptInvitation: Handler = async (req, context) => {
  jwtSecret();
  const input = checked(
    validate(acceptInvitationSchema, await readJson(req, BODY_LIMIT)),
    'Check your name and password.',
  );
  const db = database();
  const link = await openLink(db, 'invite', input.token);
  const invited = link && (await findAdminById(db, link.adminId));
  if (!link || !invited || invited.status !== 'invited') throw linkGone();
  const problem = passwordProblem(input.password, invited.email);
  if (problem) throw new HttpError(400, 'validation_failed', problem, { fields: { password: problem } });
  const passwordHash = await hashPassword(input.password);
  // The link is spent in the same statement that checks it, so two tabs cannot both accept.
  if (!(await useLink(db, link.id))) throw linkGone();
  await setPassword(db, invited.id, passwordHash);
  if (input.name) await setName(db, invited.id, input.name);
  const admin = (await findAdminById(db, invited.id))!;
  await recordActivity(db, {
    actor: admin,
    action: 'team.invite_accepted',
    target: admin.role,
    ip: context.ip,
  });
  const { token } = await startSession(db, admin, 'enrol', context.ip);
  return json(200, { token, enrol: true });
};

/** POST /admin/password-reset {email} → 202, the same reply for every address. */
export const requestReset: Handler = async (req, context) => {
  jwtSecret();
  const { email } = checked(
    validate(resetRequestSchema, await readJson(req, BODY_LIMIT)),
    'Enter your e-mail address.',
  );
  const db = database();
  const fromIp = await hit(db, RESET_PER_IP, context.ip);
  if (fromIp.count > RESET_PER_IP.max) {
    await tallyRefusal(db, { action: 'http.429', target: 'POST /admin/password-reset', ip: context.ip });
    throw new HttpError(429, 'rate_limited', 'Too many requests from your network. Try again later.', {
      headers: { 'retry-after': String(fromIp.retryAfter) },
    });
  }
  // Whether the address has an account is found out after the reply: before, a real account's link and
  // mail made its reply measurably slower than an unknown address's.
  await afterReply(context, db, async () => {
    const admin = await findAdminByEmail(db, email);
    if (admin?.status !== 'active') return [];
    const mailIds = await db.transaction(async (tx) => {
      const link = await createAccountLink(tx, admin.id, 'reset');
      return enqueueMail(tx, [
        {
          key: `password-reset:${link.id}`,
          template: 'password-reset',
          to: admin.email,
          params: { linkId: link.id },
        },
      ]);
    });
    await recordActivity(db, { actor: admin, action: 'auth.password_reset_requested', ip: context.ip });
    return mailIds;
  });
  return json(202, RESET_REQUESTED);
};

/** POST /admin/password-reset/confirm {token, password} → 200 {}: every session ends; sign in again. */
export const confirmReset: Handler = async (req, context) => {
  jwtSecret();
  const input = checked(
    validate(resetConfirmSchema, await readJson(req, BODY_LIMIT)),
    'Check the new password.',
  );
  const db = database();
  const link = (await openLink(db, 'reset', input.token)) ?? (await openLink(db, 'unlock', input.token));
  const admin = link && (await findAdminById(db, link.adminId));
  if (!link || !admin || admin.status !== 'active') throw linkGone();
  const problem = passwordProblem(input.password, admin.email);
  if (problem) throw new HttpError(400, 'validation_failed', problem, { fields: { password: problem } });
  const passwordHash = await hashPassword(input.password);
  if (!(await useLink(db, link.id))) throw linkGone();
  await setPassword(db, admin.id, passwordHash);
  await revokeSessions(db, admin.id);
  await unlockAccount(db, admin.id);
  await recordActivity(db, { actor: admin, action: 'auth.password_reset', ip: context.ip });
  return json(200, {});
};
