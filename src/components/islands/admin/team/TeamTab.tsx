import { useCallback, useEffect, useId, useState } from 'react';
import type { TabProps } from '../tab-props.ts';
import { isAbort, isApiError, isAuthError, type ListState } from '../api.ts';
import { ROLES, type Role } from '../auth-api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import type { RolesCopy, TeamCopy } from '../copy.ts';
import { fill, localDateTime, plural } from '../format.ts';
import { ListFallback } from '../ListFallback.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import {
  fetchTeam,
  removeMember,
  resendInvitation,
  resetFactors,
  updateMember,
  type Member,
} from './team-api.ts';

/** The destructive actions, each asked for in a ConfirmDialog first. */
type Risky = 'revoke' | 'disable' | 'reset' | 'delete';
const RISKY_COPY = {
  revoke: { title: 'revoke_title', text: 'revoke_text', accept: 'revoke' },
  disable: { title: 'disable_title', text: 'disable_text', accept: 'disable' },
  reset: { title: 'reset_title', text: 'reset_text', accept: 'reset_factors' },
  delete: { title: 'delete_title', text: 'delete_text', accept: 'delete' },
} as const satisfies Record<Risky, Record<string, keyof TeamCopy>>;

function factorsText(member: Member, copy: TeamCopy): string {
  const parts: string[] = [];
  if (member.factors.totp) parts.push(copy.factor_totp);
  if (member.factors.passkeys > 0)
    parts.push(
      plural({ one: copy.factor_passkeys_one, other: copy.factor_passkeys_other }, member.factors.passkeys),
    );
  return parts.length > 0 ? parts.join(', ') : copy.factor_none;
}

interface CardProps {
  member: Member;
  self: boolean;
  copy: TeamCopy;
  roles: RolesCopy;
  busy: boolean;
  onRole: (role: Role) => void;
  onAsk: (action: Risky) => void;
  onEnable: () => void;
  onResend: () => void;
}

/** One person: name, address, role and status, and what the owner can do about them. */
function MemberCard({ member, self, copy, roles, busy, onRole, onAsk, onEnable, onResend }: CardProps) {
  const id = useId();
  const invited = member.status === 'invited';
  return (
    <article className={`admin-member admin-member--${member.status}`} aria-labelledby={`${id}-name`}>
      <div className="admin-member__head">
        <h3 id={`${id}-name`} className="admin-member__name">
          {member.name || copy.no_name}
          {self && <span className="admin-member__you"> ({copy.you})</span>}
        </h3>
        <p className={`admin-badge admin-member__status admin-member__status--${member.status}`}>
          {copy[`status_${member.status}`]}
        </p>
      </div>
      <p className="admin-member__email">{member.email}</p>
      <dl className="admin-inquiry__facts">
        <div>
          <dt>{copy.role}</dt>
          <dd>{roles[member.role]}</dd>
        </div>
        {invited && member.invitationExpiresAt ? (
          <div>
            <dt>{copy.invited_until}</dt>
            <dd>
              <time dateTime={member.invitationExpiresAt}>{localDateTime(member.invitationExpiresAt)}</time>
            </dd>
          </div>
        ) : (
          <>
            <div>
              <dt>{copy.last_sign_in}</dt>
              <dd>
                {member.lastSignInAt ? (
                  <time dateTime={member.lastSignInAt}>{localDateTime(member.lastSignInAt)}</time>
                ) : (
                  copy.never
                )}
              </dd>
            </div>
            <div>
              <dt>{copy.factors}</dt>
              <dd>{factorsText(member, copy)}</dd>
            </div>
          </>
        )}
      </dl>
      <div className="admin-member__actions">
        <div className="admin-member__role">
          <label htmlFor={`${id}-role`}>{copy.change_role}</label>
          <select
            id={`${id}-role`}
            className="admin-select"
            value={member.role}
            disabled={busy}
            onChange={(event) => onRole(event.target.value as Role)}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {roles[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-member__buttons">
          {invited ? (
            <>
              <button
                type="button"
                className="admin-button admin-button--small"
                aria-disabled={busy}
                onClick={onResend}
              >
                {copy.resend}
              </button>
              <button
                type="button"
                className="admin-button admin-button--small admin-button--danger-quiet"
                aria-disabled={busy}
                onClick={() => onAsk('revoke')}
              >
                {copy.revoke}
              </button>
            </>
          ) : (
            <>
              {member.status === 'disabled' ? (
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  aria-disabled={busy}
                  onClick={onEnable}
                >
                  {copy.enable}
                </button>
              ) : (
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  aria-disabled={busy}
                  onClick={() => onAsk('disable')}
                >
                  {copy.disable}
                </button>
              )}
              <button
                type="button"
                className="admin-button admin-button--small"
                aria-disabled={busy}
                onClick={() => onAsk('reset')}
              >
                {copy.reset_factors}
              </button>
              <button
                type="button"
                className="admin-button admin-button--small admin-button--danger-quiet"
                aria-disabled={busy}
                onClick={() => onAsk('delete')}
              >
                {copy.delete}
              </button>
            </>
          )}
        </div>
      </div>
    </article>
  );
}

/**
 * The owner's Team tab: every account and invitation with role and status; invite, resend or withdraw an
 * invitation, change a role, disable or enable, reset factors, delete. The server refuses to leave the team
 * without an active owner (409 `last_owner`), which shows as its own message.
 */
export function TeamTab({ token, account, copy: panelCopy, notify, onUnauthorized }: TabProps) {
  const { team: copy, roles } = panelCopy;
  const id = useId();
  const [list, setList] = useState<ListState<Member>>({ status: 'loading', rows: [], total: 0 });
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<number | null>(null);
  const [asking, setAsking] = useState<{ member: Member; action: Risky } | null>(null);
  const [inviting, setInviting] = useState(false);
  const reload = useCallback(() => setVersion((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    fetchTeam(token, controller.signal).then(
      (rows) => setList({ status: 'ready', rows, total: rows.length }),
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setList({ status: 'failed', rows: [], total: 0 });
      },
    );
    return () => controller.abort();
  }, [token, version, onUnauthorized]);

  const failed = (error: unknown) => {
    if (isApiError(error, 409, 'last_owner')) notify(copy.last_owner, 'error');
    else if (isAuthError(error)) onUnauthorized();
    else notify(copy.action_failed, 'error');
  };

  const replace = (updated: Member) =>
    setList((l) => ({ ...l, rows: l.rows.map((r) => (r.id === updated.id ? updated : r)) }));

  /** Runs one action on one person, with its success message; the list reloads after a removal. */
  const act = async (member: Member, work: () => Promise<string>) => {
    if (busy !== null) return;
    setBusy(member.id);
    try {
      notify(await work());
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  };

  const changeRole = (member: Member, role: Role) =>
    act(member, async () => {
      replace(await updateMember(token, member.id, { role }));
      return fill(copy.role_changed, { email: member.email, role: roles[role] });
    });

  const confirm = () => {
    if (!asking) return;
    const { member, action } = asking;
    setAsking(null);
    void act(member, async () => {
      if (action === 'disable') {
        replace(await updateMember(token, member.id, { disabled: true }));
        return fill(copy.disabled, { email: member.email });
      }
      if (action === 'reset') {
        await resetFactors(token, member.id);
        reload();
        return fill(copy.reset_done, { email: member.email });
      }
      await removeMember(token, member.id);
      setList((l) => ({ ...l, rows: l.rows.filter((r) => r.id !== member.id), total: l.total - 1 }));
      return action === 'revoke' ? copy.revoked : copy.deleted;
    });
  };

  const risky = asking ? RISKY_COPY[asking.action] : null;
  return (
    <div className="admin-team">
      <div className="admin-campaigns__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
        <button
          type="button"
          className="admin-button admin-button--primary"
          onClick={() => setInviting(true)}
        >
          {copy.invite}
        </button>
      </div>
      <ListFallback list={list} copy={copy} onRetry={reload} />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary">
            {plural({ one: copy.total_one, other: copy.total_other }, list.total)}
          </p>
          <ul className="admin-inquiry-list" aria-labelledby={`${id}-heading`}>
            {list.rows.map((member) => (
              <li key={member.id}>
                <MemberCard
                  member={member}
                  self={member.id === account.id}
                  copy={copy}
                  roles={roles}
                  busy={busy === member.id}
                  onRole={(role) => changeRole(member, role)}
                  onAsk={(action) => setAsking({ member, action })}
                  onEnable={() =>
                    act(member, async () => {
                      replace(await updateMember(token, member.id, { disabled: false }));
                      return fill(copy.enabled, { email: member.email });
                    })
                  }
                  onResend={() =>
                    act(member, async () => {
                      await resendInvitation(token, member.id);
                      reload();
                      return fill(copy.resent, { email: member.email });
                    })
                  }
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={risky ? copy[risky.title] : ''}
        text={risky ? copy[risky.text] : ''}
        detail={asking?.member.email ?? ''}
        confirmLabel={risky ? copy[risky.accept] : ''}
        cancelLabel={copy.cancel}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      />
      <InviteDialog
        open={inviting}
        token={token}
        copy={copy}
        roles={roles}
        onClose={() => setInviting(false)}
        onFailed={(error) => {
          setInviting(false);
          failed(error);
        }}
        onInvited={(member) => {
          setInviting(false);
          notify(fill(copy.invited, { email: member.email }));
          reload();
        }}
      />
    </div>
  );
}
