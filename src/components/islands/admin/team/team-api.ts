/** The owner's calls: the team's accounts and invitations, and the activity log. */
import { call, page, type Page } from '../api.ts';
import type { Role } from '../auth-api.ts';

export interface Member {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: 'invited' | 'active' | 'disabled';
  lastSignInAt: string | null;
  createdAt: string;
  invitationExpiresAt: string | null;
  factors: { totp: boolean; passkeys: number };
}

export interface ActivityEntry {
  id: number;
  at: string;
  actor: { id: number; email: string } | null;
  action: string;
  target: string | null;
  client: string | null;
  /** Refusals anyone can send are tallied: how many this entry stands for (1 for a single event). */
  count: number;
}

export async function fetchTeam(token: string, signal?: AbortSignal): Promise<Member[]> {
  return (await call('/api/team', { token, signal })).json() as Promise<Member[]>;
}

/** Invites a person; 409 `email_taken` when the address already has an account. */
export async function invite(token: string, email: string, role: Role): Promise<Member> {
  return (
    await call('/api/team', { method: 'POST', token, json: { email, role } })
  ).json() as Promise<Member>;
}

/** Changes a role or the disabled flag; 409 `last_owner` when the team would be left without an active owner. */
export async function updateMember(
  token: string,
  id: number,
  change: { role?: Role; disabled?: boolean },
): Promise<Member> {
  return (await call(`/api/team/${id}`, { method: 'PATCH', token, json: change })).json() as Promise<Member>;
}

/** Deletes an account or revokes an invitation; 409 `last_owner` for the last active owner. */
export async function removeMember(token: string, id: number): Promise<void> {
  await call(`/api/team/${id}`, { method: 'DELETE', token });
}

export async function resendInvitation(token: string, id: number): Promise<void> {
  await call(`/api/team/${id}/resend`, { method: 'POST', token });
}

export async function resetFactors(token: string, id: number): Promise<void> {
  await call(`/api/team/${id}/reset-factors`, { method: 'POST', token });
}

export interface ActivityQuery {
  page: number;
  pageSize: number;
  /** Empty: every action. */
  action: string;
  /** An account id; empty: everyone. */
  actor: string;
}

export async function fetchActivityPage(
  token: string,
  query: ActivityQuery,
  signal?: AbortSignal,
): Promise<Page<ActivityEntry>> {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.action) params.set('action', query.action);
  if (query.actor) params.set('actor', query.actor);
  return page<ActivityEntry>(await call(`/api/activity?${params}`, { token, signal }));
}

export async function fetchActivityActions(token: string, signal?: AbortSignal): Promise<string[]> {
  return (await call('/api/activity/actions', { token, signal })).json() as Promise<string[]>;
}
