/**
 * /api/team (owner only): the accounts, invitations by mail, role and status changes, deletion and factor
 * resets. The last active owner can be neither demoted, disabled nor deleted (409 `last_owner`). Every change
 * is written to the activity log with the owner who made it.
 */
import { validate } from '../lib/schemas.ts';
import { inviteSchema, teamPatchSchema } from '../lib/team-schema.ts';
import { createAccountLink } from './account-links.ts';
import { requireAdmin, ROLES_FOR, type SignedIn } from './auth.ts';
import { database } from './config.ts';
import type { Queryable } from './db/index.ts';
import { HttpError, json, noContent, readJson, readText, type Handler, type RequestContext } from './http.ts';
import { sendSoon } from './mail/kick.ts';
import { rowId } from './query.ts';
import { openInvitations } from './repositories/admin-links.ts';
import { recordActivity, type ActivityAction } from './repositories/activity.ts';
import {
  changeRole,
  deleteAdmin,
  findAdminById,
  insertInvitedAdmin,
  LastOwnerError,
  listAdmins,
  setDisabled,
  type Admin,
} from './repositories/admins.ts';
import { unlockAccount } from './lockout.ts';
import { removeAllFactors } from './repositories/factors.ts';
import { enqueueMail } from './repositories/outbox.ts';
import { revokeSessions } from './repositories/sessions.ts';

const BODY_LIMIT = 4 * 1024;

const lastOwner = () =>
  new HttpError(409, 'last_owner', 'The team needs an active owner: make someone else owner first.');
const notFound = (id: number) => new HttpError(404, 'not_found', `There is no account with id ${id}.`);

/** An account as the team list shows it. */
function teamView(admin: Admin, invitationExpiresAt: Date | undefined) {
  return {
    id: admin.id,
    email: admin.email,
    name: admin.name,
    role: admin.role,
    status: admin.status,
    lastSignInAt: admin.lastSignInAt,
    createdAt: admin.createdAt,
    invitationExpiresAt: admin.status === 'invited' ? (invitationExpiresAt ?? null) : null,
    factors: { totp: admin.totp, passkeys: admin.passkeys },
  };
}

async function viewOf(db: Queryable, id: number) {
  const admin = await findAdminById(db, id);
  if (!admin) throw notFound(id);
  return teamView(admin, (await openInvitations(db)).get(id));
}

const log = (
  db: Queryable,
  owner: SignedIn,
  action: ActivityAction,
  target: string,
  context: RequestContext,
) => recordActivity(db, { actor: owner, action, target, ip: context.ip });

/** Queues the invitation mail for a fresh link (the account's older invitation links stop working). */
async function inviteByMail(db: Queryable, owner: SignedIn, invited: { id: number; email: string }) {
  const link = await createAccountLink(db, invited.id, 'invite');
  return enqueueMail(db, [
    {
      key: `team-invite:${link.id}`,
      template: 'team-invite',
      to: invited.email,
      params: { linkId: link.id, inviter: owner.name || owner.email },
    },
  ]);
}

export const listTeam: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.team, context);
  const invitations = await openInvitations(db);
  return json(
    200,
    (await listAdmins(db)).map((admin) => teamView(admin, invitations.get(admin.id))),
  );
};

/** POST /api/team {email, role, name?} → 201 the invited account, and the invitation mail. */
export const inviteMember: Handler = async (req, context) => {
  const db = database();
  const owner = await requireAdmin(req, db, ROLES_FOR.team, context);
  const parsed = validate(inviteSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Check the address and the role.', {
      fields: parsed.fields,
    });
  }
  const { email, role, name = '' } = parsed.data;
  const result = await db.transaction(async (tx) => {
    const id = await insertInvitedAdmin(tx, { email, role, name });
    if (id === undefined) return undefined;
    return { id, mailIds: await inviteByMail(tx, owner, { id, email }) };
  });
  if (!result)
    throw new HttpError(409, 'email_taken', 'This address already has an account or an invitation.');
  await log(db, owner, 'team.invite', `${email} as ${role}`, context);
  await sendSoon(context, db, result.mailIds);
  return json(201, await viewOf(db, result.id), { location: `/api/team/${result.id}` });
};

/** PATCH /api/team/{id} {role?, disabled?} → 200 the account. Disabling ends its sessions at once. */
export const updateMember: Handler = async (req, context) => {
  const db = database();
  const owner = await requireAdmin(req, db, ROLES_FOR.team, context);
  const id = rowId(context.params.id);
  const parsed = validate(teamPatchSchema, await readJson(req, BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Send a role, disabled, or both.', {
      fields: parsed.fields,
    });
  }
  const member = await findAdminById(db, id);
  if (!member) throw notFound(id);
  const { role, disabled } = parsed.data;
  try {
    if (role !== undefined && role !== member.role) {
      await changeRole(db, id, role);
      await log(db, owner, 'team.role', `${member.email}: ${member.role} → ${role}`, context);
    }
    if (disabled !== undefined && disabled !== (member.status === 'disabled')) {
      await setDisabled(db, id, disabled);
      if (disabled) await revokeSessions(db, id);
      await log(db, owner, 'team.status', `${member.email}: ${disabled ? 'disabled' : 'enabled'}`, context);
    }
  } catch (error) {
    if (error instanceof LastOwnerError) throw lastOwner();
    throw error;
  }
  return json(200, await viewOf(db, id));
};

/** DELETE /api/team/{id} → 204: the account goes (an invitation is revoked with it). */
export const removeMember: Handler = async (req, context) => {
  const db = database();
  const owner = await requireAdmin(req, db, ROLES_FOR.team, context);
  const id = rowId(context.params.id);
  const member = await findAdminById(db, id);
  if (!member) throw notFound(id);
  try {
    await deleteAdmin(db, id);
  } catch (error) {
    if (error instanceof LastOwnerError) throw lastOwner();
    throw error;
  }
  await log(db, owner, 'team.delete', `${member.email} (${member.status} ${member.role})`, context);
  return noContent();
};

/** POST /api/team/{id}/resend → 202: a fresh invitation link by mail; the old one stops working. */
export const resendInvitation: Handler = async (req, context) => {
  const db = database();
  const owner = await requireAdmin(req, db, ROLES_FOR.team, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const member = await findAdminById(db, id);
  if (!member) throw notFound(id);
  if (member.status !== 'invited') {
    throw new HttpError(409, 'not_invited', 'This person has accepted the invitation already.');
  }
  const mailIds = await db.transaction((tx) => inviteByMail(tx, owner, member));
  await log(db, owner, 'team.invite_resent', member.email, context);
  await sendSoon(context, db, mailIds);
  return json(202, { id });
};

/**
 * POST /api/team/{id}/reset-factors → 204: factors and recovery codes go, sessions end, a locked account opens;
 * enrolment next time.
 */
export const resetFactors: Handler = async (req, context) => {
  const db = database();
  const owner = await requireAdmin(req, db, ROLES_FOR.team, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const member = await findAdminById(db, id);
  if (!member) throw notFound(id);
  await db.transaction(async (tx) => {
    await removeAllFactors(tx, id);
    await revokeSessions(tx, id);
    // A locked account opens again: the person signs in with their password and enrols a factor anew.
    await unlockAccount(tx, id);
  });
  await log(db, owner, 'team.reset_factors', member.email, context);
  return noContent();
};
